// The CLI of this tree, bundled into a folder of the test's own (as scripts/build.mjs bundles
// dist/cli.js), so a test runs the code under test whether or not dist/ is built, and current.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Bundles src/cli/main.ts and its runtime assets into `outDir`; returns the path of its cli.js. */
export function bundlePrivateCli(outDir: string): string {
  const cli = path.join(outDir, 'cli.js');
  const script = `
    import * as esbuild from 'esbuild';
    import { runtimeAssets } from './scripts/build.mjs';
    await esbuild.build({ bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning',
      entryPoints: ['src/cli/main.ts'], outfile: ${JSON.stringify(cli)}, banner: { js: '#!/usr/bin/env node' } });
    await runtimeAssets(${JSON.stringify(outDir)});`;
  // scripts/unit.mjs runs mocha from the repository root.
  const built = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: path.resolve('.'),
    encoding: 'utf8',
  });
  assert.equal(built.status, 0, built.stderr);
  return cli;
}
