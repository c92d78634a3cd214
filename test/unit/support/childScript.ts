// A TypeScript snippet that imports from the repository, bundled to run in a child process of its own
// (the kill -9 tests: a process that dies at a chosen point while writing a corpus).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import path from 'node:path';

/** Bundles `source` into `<dir>/<name>.js`, with sql.js's wasm beside it; returns the script's path. */
export function bundleChildScript(dir: string, name: string, source: string): string {
  const script = path.join(dir, `${name}.js`);
  // Bundled as test/unit/support/privateCli.ts bundles the CLI: esbuild runs in a process of its own.
  const bundle = `import * as esbuild from 'esbuild';
    await esbuild.build({ bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning', outfile: ${JSON.stringify(script)},
      stdin: { resolveDir: '.', sourcefile: '${name}.ts', contents: ${JSON.stringify(source)} } });`;
  const built = spawnSync(process.execPath, ['--input-type=module', '-e', bundle], {
    cwd: path.resolve('.'),
    encoding: 'utf8',
  });
  assert.equal(built.status, 0, built.stderr);
  copyFileSync(path.resolve('node_modules/sql.js/dist/sql-wasm.wasm'), path.join(dir, 'sql-wasm.wasm'));
  return script;
}
