// `export --format hub` read back by a real Parquet reader (DuckDB's Node client): every split's rows
// equal the JSONL export's split file, field for field and in order, on the sample corpus and on a
// corpus fetched over loopback from a fake Gerrit sending hostile text. The card's front matter is read
// by a YAML parser and checked against the Hub's dataset card metadata (docs: huggingface.co/docs/hub/
// datasets-cards and datasets-manual-configuration): its data_files globs match the shards, its split
// sizes are the shards' row counts, its features are the shards' columns, its SHA-256s the files'.
// A tagged build's two exports are byte-identical.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { load } from 'js-yaml';
import { buildSampleCorpus, SAMPLE_SALT } from '../../scripts/sample-corpus';
import { runCli } from '../../src/cli/main';
import { bulkFixture, BULK_ORG } from '../fake-gerrit/bulkFixture';
import { startFakeGerrit } from '../fake-gerrit/server';
import { validateCorpusConfig } from '../../src/core/rules/corpusJson/loadConfig';
import { PRODUCT_WINDOWS } from '../../src/core/ground/config/types';
import { fetchCorpus } from '../../src/core/gerrit/fetchCorpus';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { buildRecordSchema } from '../../src/core/build/records/recordSchema';
import { exportJob } from '../../src/core/jobs/jobs';
import { rowConverter } from '../../src/core/publish/export/hub/hubColumns';

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function ok(...argv: string[]) {
  const r = await cli(...argv);
  assert.equal(r.code, 0, `${argv.join(' ')}: ${r.err}`);
  return r;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = Record<string, unknown>;

/**
 * A DuckDB value back as the JSON the JSONL line holds: BIGINT (a bigint) as a number, and a null
 * optional field (one the schema does not require, which the JSON line leaves out) dropped.
 */
function asJson(value: unknown, schema: Schema): Json {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map((v) => asJson(v, (schema.items ?? {}) as Schema));
  if (value !== null && typeof value === 'object') {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    const required = new Set((schema.required ?? []) as string[]);
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === null && !required.has(k)) continue;
      out[k] = asJson(v, props[k] ?? {});
    }
    return out;
  }
  return value as Json;
}

interface HubCard {
  pretty_name: string;
  license: string;
  language?: string[];
  task_categories: string[];
  tags: string[];
  size_categories: string[];
  configs: { config_name: string; data_files: { split: string; path: string }[] }[];
  dataset_info: {
    features: { name: string }[];
    splits: { name: string; num_examples: number }[];
    download_size: number;
  };
}

function readHubCard(dir: string): { yaml: HubCard; body: string } {
  const text = readFileSync(path.join(dir, 'README.md'), 'utf8');
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  assert.ok(m, 'README.md opens with YAML front matter');
  return { yaml: load(m[1]) as HubCard, body: m[2] };
}

const globRegex = (glob: string) =>
  new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const jsonLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

/** Every row of `glob` in shard and row order, as JSON. */
async function readBack(db: DuckDBConnection, glob: string): Promise<Json[]> {
  const r = await db.runAndReadAll(
    `SELECT * EXCLUDE (filename, file_row_number) FROM read_parquet('${glob}', filename = true, file_row_number = true)
     ORDER BY filename, file_row_number`,
  );
  const schema = buildRecordSchema();
  return r.getRowObjectsJS().map((row) => asJson(row, schema));
}

/**
 * Checks `hubDir` against the JSONL export in `jsonlDir`: front matter, globs, sizes, features and
 * SHA-256s, and every split's rows equal to its data/<split>.jsonl, field for field, in order.
 */
async function checkAgainstJsonl(db: DuckDBConnection, hubDir: string, jsonlDir: string, shardBytes?: number) {
  const { yaml, body } = readHubCard(hubDir);
  assert.equal(typeof yaml.pretty_name, 'string');
  assert.equal(typeof yaml.license, 'string');
  assert.deepEqual(yaml.task_categories, ['text-generation']);
  assert.ok(yaml.tags.includes('code-review'));
  assert.equal(yaml.size_categories.length, 1);
  assert.equal(yaml.configs.length, 1);
  assert.equal(yaml.configs[0].config_name, 'default');
  const shards = readdirSync(path.join(hubDir, 'data'))
    .map((f) => `data/${f}`)
    .sort();
  assert.ok(shards.length > 0);
  for (const s of shards) assert.match(s, /^data\/\w+(\.\w+)*-\d{5}-of-\d{5}\.parquet$/);
  const dataFiles = yaml.configs[0].data_files;
  const matched = shards.map((s) => dataFiles.filter((d) => globRegex(d.path).test(s)).length);
  assert.deepEqual(
    matched,
    shards.map(() => 1),
    'each shard matches exactly one split glob',
  );
  assert.deepEqual(
    yaml.dataset_info.splits.map((s) => s.name),
    dataFiles.map((d) => d.split),
    'dataset_info.splits names the same splits as configs',
  );
  const jsonlSplits = readdirSync(path.join(jsonlDir, 'data'))
    .filter((f) => jsonLines(path.join(jsonlDir, 'data', f)).length > 0)
    .map((f) => f.replace(/\.jsonl$/, ''))
    .sort();
  assert.deepEqual(dataFiles.map((d) => d.split).sort(), jsonlSplits, 'a split per non-empty JSONL split file');
  for (const d of dataFiles) {
    const mine = shards.filter((s) => globRegex(d.path).test(s));
    const of = mine.map((s) => Number(/-of-(\d{5})\.parquet$/.exec(s)![1]));
    assert.ok(
      of.every((n) => n === mine.length),
      `${d.split}: NNNNN-of-MMMMM counts its ${mine.length} shards`,
    );
    const rows = await readBack(db, path.join(hubDir, d.path));
    const expected = jsonLines(path.join(jsonlDir, 'data', `${d.split}.jsonl`));
    assert.equal(rows.length, expected.length, `${d.split}: row count`);
    assert.equal(yaml.dataset_info.splits.find((s) => s.name === d.split)!.num_examples, rows.length);
    // Byte for byte once typed back: same fields, same order, same values.
    rows.forEach((row, i) => assert.equal(JSON.stringify(row), expected[i], `${d.split} row ${i}`));
    if (shardBytes !== undefined)
      for (const s of mine) assert.ok(statSync(path.join(hubDir, s)).size <= shardBytes, `${s} within --shard-size`);
  }
  const columns = await db.runAndReadAll(
    `DESCRIBE SELECT * FROM read_parquet('${path.join(hubDir, 'data/*.parquet')}')`,
  );
  assert.deepEqual(
    yaml.dataset_info.features.map((f) => f.name),
    columns.getRowObjectsJS().map((c) => c.column_name),
    'the features are the columns',
  );
  const allShards = shards.reduce((n, s) => n + statSync(path.join(hubDir, s)).size, 0);
  assert.equal(yaml.dataset_info.download_size, allShards, "download_size is the shards' bytes");
  for (const f of [...shards, 'counts.csv', 'curation_audit.jsonl', 'dataset-funnel.json'])
    assert.ok(body.includes(`\`${sha256(path.join(hubDir, f))}\``), `the card lists ${f}'s SHA-256`);
  for (const f of ['counts.csv', 'curation_audit.jsonl', 'dataset-funnel.json'])
    assert.equal(
      readFileSync(path.join(hubDir, f), 'utf8'),
      readFileSync(path.join(jsonlDir, f), 'utf8'),
      `${f} as the JSONL export writes it`,
    );
}

describe('export --format hub, read back by DuckDB', function () {
  this.timeout(300_000);
  let dir: string;
  let db: string;
  let duck: DuckDBConnection;
  let instance: DuckDBInstance;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-hub-'));
    ({ dbFile: db } = await buildSampleCorpus(path.join(dir, 'sample')));
    instance = await DuckDBInstance.create(':memory:');
    duck = await instance.connect();
  });

  after(() => {
    duck?.closeSync();
    instance?.closeSync();
  });

  it('writes every split as Parquet shards equal to the JSONL export, with a card the Hub reads', async () => {
    mkdirSync(path.join(dir, 'jsonl'));
    await ok('export', '--db', db, '--out', path.join(dir, 'jsonl', 'examples.jsonl'));
    const r = await ok('export', '--db', db, '--format', 'hub', '--out', path.join(dir, 'hub'), '--shard-size', '0.02');
    assert.match(r.out, /Parquet shards/);
    await checkAgainstJsonl(duck, path.join(dir, 'hub'), path.join(dir, 'jsonl'), 20_000);
    const { yaml } = readHubCard(path.join(dir, 'hub'));
    assert.ok(
      yaml.configs[0].data_files.some((d) => d.split === 'validation'),
      'the dev window is published as "validation" by default',
    );
    const train = readdirSync(path.join(dir, 'hub', 'data')).filter((f) => f.startsWith('train-'));
    assert.ok(train.length > 1, `--shard-size 0.02 gives train several shards: ${train.join(', ')}`);
  });

  it('gives a tagged build byte-identical shards at every export, read from what the tag froze', async () => {
    await ok('tag', '--db', db, '--build', '2', '--name', 'hub-v1'); // the sample's latest build
    mkdirSync(path.join(dir, 'tag-jsonl'));
    await ok('export', '--db', db, '--build', 'hub-v1', '--out', path.join(dir, 'tag-jsonl', 'examples.jsonl'));
    // A config that would name the splits otherwise: the tag keeps the names it froze.
    const config = path.join(dir, 'renamed.json');
    const stored = JSON.parse(readFileSync(path.join(dir, 'sample', 'corpus.json'), 'utf8'));
    writeFileSync(config, JSON.stringify({ ...stored, card: { splits: { train: 'training' } } }));
    for (const out of ['tag-a', 'tag-b'])
      await ok(
        'export',
        '--db',
        db,
        '--format',
        'hub',
        '--build',
        'hub-v1',
        '--out',
        path.join(dir, out),
        '--config',
        config,
      );
    const files = (d: string) => readdirSync(path.join(dir, d, 'data')).sort();
    assert.deepEqual(files('tag-a'), files('tag-b'));
    for (const f of files('tag-a'))
      assert.ok(
        readFileSync(path.join(dir, 'tag-a', 'data', f)).equals(readFileSync(path.join(dir, 'tag-b', 'data', f))),
        `${f}: the same bytes`,
      );
    assert.equal(
      readFileSync(path.join(dir, 'tag-a', 'README.md'), 'utf8'),
      readFileSync(path.join(dir, 'tag-b', 'README.md'), 'utf8'),
    );
    assert.ok(!files('tag-a').some((f) => f.startsWith('training-')), "the tag's frozen split names, not the config's");
    await checkAgainstJsonl(duck, path.join(dir, 'tag-a'), path.join(dir, 'tag-jsonl'));
  });

  it('replaces the shards of an earlier export, and leaves the folder as it was when cancelled', async () => {
    const out = path.join(dir, 'again');
    await ok('export', '--db', db, '--format', 'hub', '--out', out, '--shard-size', '0.02');
    const many = readdirSync(path.join(out, 'data')).sort();
    await ok('export', '--db', db, '--format', 'hub', '--out', out);
    const one = readdirSync(path.join(out, 'data')).sort();
    assert.ok(one.length < many.length);
    assert.ok(
      one.every((f) => /-00000-of-00001\.parquet$/.test(f)),
      one.join(', '),
    );
    const before = readFileSync(path.join(out, 'README.md'), 'utf8');
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(exportJob({ dbFile: db, out, format: 'hub', signal: controller.signal, shardSizeMb: 0.02 }));
    assert.deepEqual(readdirSync(path.join(out, 'data')).sort(), one);
    assert.equal(readFileSync(path.join(out, 'README.md'), 'utf8'), before);
    assert.ok(!readdirSync(out).some((f) => f.startsWith('.hub-export-')), 'no staging folder left');
  });

  it('refuses, in one line naming the example and field, text Parquet cannot hold and fields it has no column for', () => {
    const convert = rowConverter();
    const line = jsonLines(path.join(dir, 'jsonl', 'examples.jsonl'))[0];
    const record = JSON.parse(line);
    assert.doesNotThrow(() => convert(record));
    assert.throws(
      () => convert({ ...record, before: 'x\ud800y' }),
      new RegExp(
        `^UserError: example ${record.id.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: field before holds a lone UTF-16 surrogate`,
      ),
    );
    assert.throws(() => convert({ ...record, extra: 1 }), /field extra is not in the record's schema/);
    assert.throws(() => convert({ ...record, change: 1.5 }), /field change is not an integer/);
  });

  it('round-trips hostile text fetched over loopback: NUL, replaced invalid UTF-8, RTL overrides, 1 MB comments', async () => {
    const fixture = bulkFixture(6);
    const hostile = [
      'NUL\u0000inside, then more',
      // What the host client's UTF-8 decoding makes of invalid bytes (0xff 0xfe): U+FFFD each (WHATWG Encoding, "replacement").
      'bad bytes \uFFFD\uFFFD here',
      'RTL \u202Eevil\u202C and isolates \u2067x\u2069',
      // 1 MB, under the 1 MiB a comment may hold before the fetch refuses it (src/core/gerrit/bounds.ts).
      ('big: ' + 'a long review comment. '.repeat(44_000)).slice(0, 1_000_000),
    ];
    fixture.changes.slice(0, hostile.length).forEach((c, i) => {
      const [p] = Object.keys(c.comments);
      c.comments[p][0].message = hostile[i];
      const ps2 = c.files[p][2]!;
      ps2.lines = ps2.lines.map((l, k) => (k === 11 ? `${l} # ${hostile[i].slice(0, 40)}` : l));
    });
    const host = await startFakeGerrit({ org: BULK_ORG, fixture });
    const file = path.join(dir, 'hostile', 'corpus.sqlite');
    mkdirSync(path.dirname(file));
    try {
      const config = validateCorpusConfig({
        name: 'hostile',
        db: 'corpus.sqlite',
        start: '2024-10-01',
        salt: { env: 'REVIEW_CORPUS_SALT' },
        windows: PRODUCT_WINDOWS.map((w) => ({ ...w })),
        hosts: [{ org: BULK_ORG, url: host.url, query: 'status:merged', minIntervalMs: 0 }],
      });
      const store = await CorpusStore.openOrCreate(file);
      try {
        await fetchCorpus(store, config, { salt: SAMPLE_SALT });
        await runBuild(store);
        store.save({ full: true });
      } finally {
        store.close();
      }
    } finally {
      await host.close();
    }
    const jsonlDir = path.join(dir, 'hostile', 'jsonl');
    mkdirSync(jsonlDir);
    await ok('export', '--db', file, '--out', path.join(jsonlDir, 'examples.jsonl'));
    const all = readFileSync(path.join(jsonlDir, 'examples.jsonl'), 'utf8');
    for (const h of hostile) assert.ok(all.includes(JSON.stringify(h).slice(1, -1)), `kept: ${h.slice(0, 20)}`);
    await ok('export', '--db', file, '--format', 'hub', '--out', path.join(dir, 'hostile', 'hub'));
    await checkAgainstJsonl(duck, path.join(dir, 'hostile', 'hub'), jsonlDir);
    assert.ok(existsSync(path.join(dir, 'hostile', 'hub', 'README.md')));
  });
});
