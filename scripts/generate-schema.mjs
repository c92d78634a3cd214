// Writes schemas/corpus.schema.json from src/core/config/corpusSchema.ts, whose rules part is the rule
// parameters (src/core/config/ruleParameters.ts), the single source of truth for every threshold.
//   node scripts/generate-schema.mjs           # write the file
//   node scripts/generate-schema.mjs --check   # exit 1 when the file is not what the code generates
import * as esbuild from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCHEMA_FILE = path.join(ROOT, 'schemas/corpus.schema.json');
const bundle = path.join(ROOT, `out/generate-schema-${process.pid}.cjs`);

await esbuild.build({
  bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning',
  entryPoints: [path.join(ROOT, 'src/core/config/corpusSchema.ts')], outfile: bundle,
});
let corpusSchemaText;
try {
  ({ corpusSchemaText } = createRequire(import.meta.url)(bundle));
} finally {
  rmSync(bundle, { force: true });
}
const text = corpusSchemaText();
const relative = path.relative(ROOT, SCHEMA_FILE);

if (process.argv.includes('--check')) {
  let current = '';
  try { current = readFileSync(SCHEMA_FILE, 'utf8'); } catch { /* missing counts as stale */ }
  if (current !== text) {
    console.error(`${relative} is not what src/core/config/corpusSchema.ts generates; run \`npm run schema\``);
    process.exit(1);
  }
  console.log(`${relative} is up to date`);
} else {
  writeFileSync(SCHEMA_FILE, text);
  console.log(`wrote ${relative}`);
}
