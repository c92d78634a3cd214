// Bundles the extension, the CLI, the webviews and the compiled test suites with esbuild.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = ROOT_DIR;
const r = (...p) => path.join(ROOT, ...p);

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...findTests(full));
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out.sort();
}

// One entry file per suite, importing every *.test.ts, so each suite is a single bundle.
function suiteEntry(name, dirs) {
  const files = dirs.flatMap((d) => findTests(r(d)));
  const entry = r('out', `${name}.entry.ts`);
  mkdirSync(path.dirname(entry), { recursive: true });
  writeFileSync(
    entry,
    files
      .map(
        (f) =>
          `import ${JSON.stringify(path.relative(path.dirname(entry), f).replace(/\\/g, '/').replace(/\.ts$/, ''))};`,
      )
      .join('\n') + '\n',
  );
  return entry;
}

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
};
/**
 * What goes into the VSIX is minified (a third of the size; .vscodeignore keeps the maps out). The CLI
 * and the test bundles are not: their stack traces are read as they are.
 */
const shipped = { ...common, minify: true };

/**
 * What every bundle that runs the core needs beside it: sql.js's wasm and the build's hunk-facts
 * worker (src/core/build/stages/hunkFactsPool.ts looks for both in its own directory).
 */
export async function runtimeAssets(dir, { minify = false } = {}) {
  mkdirSync(dir, { recursive: true });
  copyFileSync(r('node_modules/sql.js/dist/sql-wasm.wasm'), path.join(dir, 'sql-wasm.wasm'));
  await esbuild.build({
    ...common,
    minify,
    entryPoints: [r('src/core/build/stages/hunkFactsWorker.ts')],
    outfile: path.join(dir, 'hunk-facts-worker.js'),
  });
}

/** Loaded from node_modules by the unit suite, never bundled: DuckDB's client loads its native addon by path. */
export const UNIT_EXTERNAL = ['@duckdb/node-api'];

export async function buildUnitSuite() {
  mkdirSync(r('out/test'), { recursive: true });
  await esbuild.build({
    ...common,
    external: UNIT_EXTERNAL,
    entryPoints: [suiteEntry('unit', ['test/unit', 'src/core'])],
    outfile: r('out/test/unit.js'),
  });
  await runtimeAssets(r('out/test'));
}

export async function build() {
  mkdirSync(r('dist'), { recursive: true });
  await Promise.all([
    esbuild.build({
      ...shipped,
      entryPoints: [r('src/extension.ts')],
      outfile: r('dist/extension.js'),
      external: ['vscode'],
    }),
    esbuild.build({ ...shipped, entryPoints: [r('src/extensionWorker.ts')], outfile: r('dist/worker.js') }),
    esbuild.build({
      ...common,
      entryPoints: [r('src/cli/main.ts')],
      outfile: r('dist/cli.js'),
      banner: { js: '#!/usr/bin/env node' },
    }),
    esbuild.build({
      ...shipped,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      entryPoints: [r('webview/funnel/main.ts')],
      outfile: r('dist/webview/funnel.js'),
    }),
    buildUnitSuite(),
    esbuild.build({
      ...common,
      entryPoints: [suiteEntry('integration', ['test/integration/suite'])],
      outfile: r('out/test/integration.js'),
      external: ['vscode', 'mocha'],
    }),
    runtimeAssets(r('dist'), { minify: true }),
  ]);
  copyFileSync(r('webview/funnel/funnel.css'), r('dist/webview/funnel.css'));
  await buildSample();
}

/** The sample corpus ships in dist/sample: fetched from the fake Gerrit and built by the real code. */
export async function buildSample() {
  await esbuild.build({
    ...common,
    entryPoints: [r('scripts/sample-corpus-main.ts')],
    outfile: r('out/sample-corpus.js'),
  });
  await runtimeAssets(r('out'));
  const { spawnSync } = await import('node:child_process');
  const result = spawnSync(process.execPath, [r('out/sample-corpus.js'), r('dist/sample')], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('building the sample corpus failed');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  build().catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
