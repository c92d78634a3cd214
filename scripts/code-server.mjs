// Installs code-server 4.100.3 (= VS Code 1.100.3) into .vscode-test/ on first use and caches it there.
// See ../shared/notes/real-vscode.md: @vscode/ripgrep's download is satisfied from Debian's rg.
import { existsSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSystemPackages } from './system-deps.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CODE_SERVER_VERSION = '4.100.3';
export const CODE_SERVER_PREFIX = path.join(ROOT, '.vscode-test', 'code-server');
export const CODE_SERVER_BIN = path.join(CODE_SERVER_PREFIX, 'node_modules', '.bin', 'code-server');

export function ensureCodeServer() {
  ensureSystemPackages();
  if (existsSync(CODE_SERVER_BIN)) return CODE_SERVER_BIN;
  const cache = path.join(tmpdir(), 'vscode-ripgrep-cache-1.15.11');
  mkdirSync(cache, { recursive: true });
  const tarball = path.join(cache, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');
  if (!existsSync(tarball)) execFileSync('tar', ['czf', tarball, '-C', '/usr/bin', 'rg']);
  mkdirSync(CODE_SERVER_PREFIX, { recursive: true });
  console.log(`installing code-server ${CODE_SERVER_VERSION} into .vscode-test/ (first use only, about 1.5 minutes)`);
  execFileSync('npm', ['install', '--unsafe-perm', '--no-audit', '--no-fund', '--no-save', '--prefix', CODE_SERVER_PREFIX,
    `code-server@${CODE_SERVER_VERSION}`], { stdio: 'inherit', env: { ...process.env, npm_config_yes: 'true' } });
  if (!existsSync(CODE_SERVER_BIN)) throw new Error(`code-server install finished but ${CODE_SERVER_BIN} is missing`);
  return CODE_SERVER_BIN;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try { console.log(ensureCodeServer()); } catch (e) { console.error(`review-corpus: ${e.message}`); process.exit(1); }
}
