// Writes schemas/corpus.schema.json from src/core/rules/corpusJson/corpusSchema.ts, whose rules part is the rule
// parameters each rule declares (assembled by src/core/rules/ruleParameters.ts), and
// schemas/example.schema.json, the exported record, from src/core/build/records/recordSchema.ts.
// docs/rules.md's tables come from the same declarations: scripts/generate-docs.mjs (`npm run docs`).
//   node scripts/generate-schema.mjs           # write them
//   node scripts/generate-schema.mjs --check   # exit 1 when any is not what the code generates
import * as esbuild from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCHEMA_FILE = path.join(ROOT, 'schemas/corpus.schema.json');
const RECORD_SCHEMA_FILE = path.join(ROOT, 'schemas/example.schema.json');
const bundle = path.join(ROOT, `out/generate-schema-${process.pid}.cjs`);

await esbuild.build({
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  stdin: {
    contents:
      "export { corpusSchemaText } from './corpusSchema'; export { recordSchemaText } from '../../build/records/recordSchema';",
    resolveDir: path.join(ROOT, 'src/core/rules/corpusJson'),
    loader: 'ts',
  },
  outfile: bundle,
});
let corpusSchemaText, recordSchemaText;
try {
  ({ corpusSchemaText, recordSchemaText } = createRequire(import.meta.url)(bundle));
} finally {
  rmSync(bundle, { force: true });
}
const read = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}; // missing counts as stale
const outputs = [
  { file: SCHEMA_FILE, text: corpusSchemaText(), current: read(SCHEMA_FILE) },
  { file: RECORD_SCHEMA_FILE, text: recordSchemaText(), current: read(RECORD_SCHEMA_FILE) },
];

if (process.argv.includes('--check')) {
  const stale = outputs.filter((o) => o.current !== o.text).map((o) => path.relative(ROOT, o.file));
  if (stale.length) {
    console.error(
      `${stale.join(' and ')} ${stale.length > 1 ? 'are' : 'is'} not what the code's declarations generate; run \`npm run schema\``,
    );
    process.exit(1);
  }
  console.log(`${outputs.map((o) => path.relative(ROOT, o.file)).join(', ')} are up to date`);
} else {
  for (const o of outputs) {
    if (o.current === o.text) continue;
    writeFileSync(o.file, o.text);
    console.log(`wrote ${path.relative(ROOT, o.file)}`);
  }
}
