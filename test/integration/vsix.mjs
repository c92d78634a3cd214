// Packages extensions with @vscode/vsce and installs them into a code-server extensions dir, offline.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const VSCE = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');

function run(command, args, options) {
  // stdin closed: if vsce ever asks a question (missing LICENSE, …) it fails instead of hanging.
  const result = spawnSync(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    throw new Error(
      `${path.basename(command)} ${args.join(' ')} failed (exit ${result.status ?? result.signal}):\n${output}`,
    );
  }
  return result.stdout;
}

/**
 * `vsce package` of the extension in `dir`, with no prompt suppressed: its package.json's `vsce` field says
 * that bundles carry their dependencies (none are collected) and that it has no public repository, and
 * relative README links stay relative (they name files inside the VSIX; README.md, "Packaging").
 */
export function packageVsix(dir, outFile) {
  run(process.execPath, [VSCE, 'package', '--no-rewrite-relative-links', '--out', outFile], { cwd: dir });
  return outFile;
}

export function installVsixes(codeServerBin, { extensionsDir, userDataDir, configFile }, vsixes, env = {}) {
  run(
    codeServerBin,
    [
      '--config',
      configFile,
      '--extensions-dir',
      extensionsDir,
      '--user-data-dir',
      userDataDir,
      ...vsixes.flatMap((v) => ['--install-extension', v]),
    ],
    { env: { ...process.env, ...env } },
  );
}
