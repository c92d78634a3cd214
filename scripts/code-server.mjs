// Installs code-server 4.100.3 (= VS Code 1.100.3) into .vscode-test/ on first use and caches it there.
// See ../shared/notes/real-vscode.md: @vscode/ripgrep's download is satisfied from Debian's rg.
//
// Install scripts run only where an allowlist names them (npm 11 warns about the rest, npm 12 skips them).
// npm reads `allowScripts` from the package.json of the project it installs into, so the prefix gets its own;
// and code-server's postinstall runs `npm install` again in lib/vscode, a project of its own without an
// allowlist, so that one gets a project .npmrc (`allow-scripts`, the documented place besides package.json)
// before the postinstall runs. The whole install then passes `--strict-allow-scripts`, which npm hands on to
// the nested installs: a package with an install script that no list names fails the install.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSystemPackages } from './system-deps.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CODE_SERVER_VERSION = '4.100.3';
export const CODE_SERVER_PREFIX = path.join(ROOT, '.vscode-test', 'code-server');
export const CODE_SERVER_BIN = path.join(CODE_SERVER_PREFIX, 'node_modules', '.bin', 'code-server');

/** The prefix's package.json. argon2 (code-server's password hashing) builds a native module. */
export const CODE_SERVER_MANIFEST = {
  name: 'review-corpus-code-server',
  private: true,
  description: `code-server ${CODE_SERVER_VERSION} for review-corpus's integration tests and npm start (scripts/code-server.mjs)`,
  dependencies: { 'code-server': CODE_SERVER_VERSION },
  allowScripts: { 'code-server': true, argon2: true },
};

/**
 * The projects code-server 4.100.3's postinstall installs into, under node_modules/code-server, and the packages
 * of each whose install scripts may run (the npm-shrinkwrap.json entries with hasInstallScript that install on Linux).
 */
export const NESTED_ALLOW_SCRIPTS = {
  // Native modules built with node-gyp, and ripgrep's binary.
  'lib/vscode': [
    '@parcel/watcher',
    '@vscode/deviceid',
    '@vscode/ripgrep',
    '@vscode/spdlog',
    '@vscode/windows-process-tree',
    '@vscode/windows-registry',
    'kerberos',
    'native-watchdog',
    'node-pty',
  ],
  // Dev dependencies, left out by the postinstall's --omit=dev; the strict check reads the whole lockfile.
  'lib/vscode/extensions': ['@parcel/watcher', 'esbuild'],
};

const npm = (prefix, args) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--prefix', prefix], {
    stdio: 'inherit',
    env: { ...process.env, npm_config_yes: 'true' },
  });

/** Installs code-server into `prefix`: packages first, then their install scripts once lib/vscode's allowlist is in place. */
export function installCodeServer(prefix) {
  const cache = path.join(tmpdir(), 'vscode-ripgrep-cache-1.15.11');
  mkdirSync(cache, { recursive: true });
  const tarball = path.join(cache, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');
  if (!existsSync(tarball)) execFileSync('tar', ['czf', tarball, '-C', '/usr/bin', 'rg']);
  mkdirSync(prefix, { recursive: true });
  writeFileSync(path.join(prefix, 'package.json'), `${JSON.stringify(CODE_SERVER_MANIFEST, null, 2)}\n`);
  npm(prefix, ['install', '--ignore-scripts']);
  for (const [dir, names] of Object.entries(NESTED_ALLOW_SCRIPTS)) {
    writeFileSync(
      path.join(prefix, 'node_modules', 'code-server', dir, '.npmrc'),
      `# review-corpus (scripts/code-server.mjs): install scripts allowed in this project\nallow-scripts=${names.join(',')}\n`,
    );
  }
  try {
    // --unsafe-perm: code-server's postinstall refuses to run as root without it.
    npm(prefix, ['rebuild', '--strict-allow-scripts', '--unsafe-perm']);
  } catch (e) {
    // The first step linked the bin: without this, the next run would take a half-built install for a whole one.
    rmSync(path.join(prefix, 'node_modules'), { recursive: true, force: true });
    throw e;
  }
  const bin = path.join(prefix, 'node_modules', '.bin', 'code-server');
  if (!existsSync(bin)) throw new Error(`code-server install finished but ${bin} is missing`);
  return bin;
}

export function ensureCodeServer() {
  ensureSystemPackages();
  if (existsSync(CODE_SERVER_BIN)) return CODE_SERVER_BIN;
  console.log(`installing code-server ${CODE_SERVER_VERSION} into .vscode-test/ (first use only, about 1.5 minutes)`);
  return installCodeServer(CODE_SERVER_PREFIX);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(ensureCodeServer());
  } catch (e) {
    console.error(`review-corpus: ${e.message}`);
    process.exit(1);
  }
}
