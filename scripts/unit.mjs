// Runs the unit suite under plain Node with mocha. With file arguments, only those test files:
//   node scripts/unit.mjs test/unit/store.test.ts src/core/rules/comments/ownAuthor.test.ts
import * as esbuild from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const files = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const mochaArgs = process.argv.slice(2).filter((a) => a.startsWith('-'));

let bundle = path.join(ROOT, 'out/test/unit.js');
if (files.length > 0) {
  const entry = path.join(ROOT, `out/test/focused-${process.pid}.entry.ts`);
  mkdirSync(path.dirname(entry), { recursive: true });
  writeFileSync(
    entry,
    files
      .map((f) => `import ${JSON.stringify(path.relative(path.dirname(entry), path.resolve(f)).replace(/\.ts$/, ''))};`)
      .join('\n') + '\n',
  );
  bundle = path.join(ROOT, `out/test/focused-${process.pid}.js`);
  const { UNIT_EXTERNAL } = await import('./build.mjs');
  await esbuild.build({
    external: UNIT_EXTERNAL,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    entryPoints: [entry],
    outfile: bundle,
    logLevel: 'warning',
  });
  const { runtimeAssets } = await import('./build.mjs');
  await runtimeAssets(path.join(ROOT, 'out/test'));
} else {
  const { buildUnitSuite } = await import('./build.mjs');
  await buildUnitSuite();
}
const result = spawnSync(
  process.execPath,
  [
    path.join(ROOT, 'node_modules/mocha/bin/mocha.js'),
    '--enable-source-maps',
    '--timeout',
    '20000',
    ...mochaArgs,
    bundle,
  ],
  { stdio: 'inherit', cwd: ROOT },
);
process.exit(result.status ?? 1);
