// Bundles one benchmark with esbuild into out/bench/, puts sql-wasm.wasm and the hunk-facts worker beside it, and runs it:
//   node bench/run.mjs <name> [args for the benchmark…]      e.g. node bench/run.mjs fetch-bulk --runs 3
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...args] = process.argv.slice(2);
if (!name || !/^[a-z0-9-]+$/.test(name) || !existsSync(path.join(ROOT, 'bench', `${name}.ts`))) {
  console.error(
    `usage: node bench/run.mjs <name> [args…], where bench/<name>.ts exists (got ${JSON.stringify(name ?? '')})`,
  );
  process.exit(2);
}
const outDir = path.join(ROOT, 'out', 'bench');
const outfile = path.join(outDir, `${name}.js`);
mkdirSync(outDir, { recursive: true });
await esbuild.build({
  entryPoints: [path.join(ROOT, 'bench', `${name}.ts`)],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
});
const { runtimeAssets } = await import('../scripts/build.mjs');
await runtimeAssets(outDir);
// Loaded through -e rather than run as the main module: scripts/sample-corpus.ts runs its own CLI
// when `require.main === module`, which is true for anything bundled into a main bundle. The bench
// still sees process.argv as [node, <bundle>, …args].
const result = spawnSync(
  process.execPath,
  ['--enable-source-maps', '-e', 'require(process.argv[1])', outfile, ...args],
  { stdio: 'inherit', cwd: ROOT },
);
process.exit(result.status ?? 1);
