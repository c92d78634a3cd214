// Makes sure the system packages code-server and the browser tests need are present.
// As root on Debian/Ubuntu they are installed with apt-get; otherwise we stop with the exact command.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

export const SYSTEM_PACKAGES = ['libkrb5-dev', 'ripgrep', 'chromium'];
const PROBES = { 'libkrb5-dev': '/usr/include/krb5.h', ripgrep: '/usr/bin/rg', chromium: '/usr/bin/chromium' };

export function missingSystemPackages() {
  return SYSTEM_PACKAGES.filter((p) => !existsSync(PROBES[p]));
}

export function ensureSystemPackages() {
  const missing = missingSystemPackages();
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const isDebian = existsSync('/etc/debian_version');
  if (!isRoot || !isDebian) {
    throw new Error(`missing system packages (${missing.join(', ')}); run: sudo ${command}`);
  }
  console.log(`installing system packages: ${missing.join(' ')}`);
  execFileSync('sh', ['-c', `DEBIAN_FRONTEND=noninteractive ${command}`], { stdio: 'inherit' });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    ensureSystemPackages();
  } catch (e) {
    console.error(`review-corpus: ${e.message}`);
    process.exit(1);
  }
}
