// Writes the generated parts of two docs pages, between their markers, from the code's own declarations:
//   docs/rules.md  the rules in funnel order with their parameters and counters (src/core/rules/rulesReference.ts)
//   docs/cli.md    each command's summary and --help (src/cli/cliReference.ts)
// The prose around the markers is written by hand and left as it is.
//   node scripts/generate-docs.mjs           # write them (npm run docs)
//   node scripts/generate-docs.mjs --check   # exit 1 when either is not what the code generates
import * as esbuild from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(ROOT, `out/generate-docs-${process.pid}.cjs`);

await esbuild.build({
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  stdin: {
    contents:
      "export { withRulesReference } from './core/rules/rulesReference'; export { withCliReference } from './cli/cliReference';",
    resolveDir: path.join(ROOT, 'src'),
    loader: 'ts',
  },
  outfile: bundle,
});
let generators;
try {
  generators = createRequire(import.meta.url)(bundle);
} finally {
  rmSync(bundle, { force: true });
}

const pages = [
  { file: 'docs/rules.md', generate: generators.withRulesReference, markers: 'rules-reference' },
  { file: 'docs/cli.md', generate: generators.withCliReference, markers: 'cli-reference' },
];
const stale = [];
for (const page of pages) {
  const file = path.join(ROOT, page.file);
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    /* missing: no markers, reported below */
  }
  const text = page.generate(current);
  if (text === undefined) {
    console.error(`${page.file} has no <!-- ${page.markers}:start --> … <!-- ${page.markers}:end --> markers`);
    process.exit(1);
  }
  if (text === current) continue;
  if (process.argv.includes('--check')) stale.push(page.file);
  else {
    writeFileSync(file, text);
    console.log(`wrote ${page.file}`);
  }
}
if (stale.length) {
  console.error(`${stale.join(' and ')} not what the code generates; run \`npm run docs\``);
  process.exit(1);
}
if (process.argv.includes('--check')) console.log(`${pages.map((p) => p.file).join(', ')} are up to date`);
