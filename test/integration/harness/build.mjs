// Stages the harness extension in out/test/harness/: extension.js (code-server entry), runner.js
// (@vscode/test-electron entry), both with mocha bundled in, plus the compiled suite in suite/.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../..');
export const HARNESS_DIR = path.join(ROOT, 'out', 'test', 'harness');
export const HARNESS_RUNNER = path.join(HARNESS_DIR, 'runner.js');
const SUITE_BUNDLE = path.join(ROOT, 'out', 'test', 'integration.js');

export async function buildHarness() {
  if (!existsSync(SUITE_BUNDLE))
    throw new Error(`${path.relative(ROOT, SUITE_BUNDLE)} is missing; run: node scripts/build.mjs`);
  rmSync(HARNESS_DIR, { recursive: true, force: true });
  mkdirSync(path.join(HARNESS_DIR, 'suite'), { recursive: true });
  await esbuild.build({
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'error',
    entryPoints: { extension: path.join(HERE, 'src/extension.ts'), runner: path.join(HERE, 'src/runner.ts') },
    outdir: HARNESS_DIR,
    external: ['vscode'],
  });
  copyFileSync(path.join(HERE, 'package.json'), path.join(HARNESS_DIR, 'package.json'));
  copyFileSync(path.join(ROOT, 'LICENSE'), path.join(HARNESS_DIR, 'LICENSE'));
  for (const name of ['integration.js', 'integration.js.map']) {
    const from = path.join(ROOT, 'out', 'test', name);
    if (existsSync(from)) copyFileSync(from, path.join(HARNESS_DIR, 'suite', name));
  }
  return HARNESS_DIR;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildHarness().then(
    (dir) => console.log(dir),
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
