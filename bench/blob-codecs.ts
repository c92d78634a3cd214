// Which node:zlib codec the corpus's file-version blobs use: ratio and speed of deflate and brotli at
// several levels, on two inputs: the file versions of a generated corpus (every diff's two sides) and
// real code (this repository's own src/ files, each a "file version").
//   node bench/run.mjs blob-codecs --db /tmp/bench-20k.sqlite [--runs 3] [--max 4000]
// Speeds are MB of uncompressed text per second, one thread, the median of the runs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { CorpusStore } from '../src/core/ground/store/corpusStore';
import { diffContentById, diffSides } from '../src/core/ground/store/diffText';
import { arg, median } from './benchArgs';

type Codec = { name: string; pack: (b: Buffer) => Buffer; unpack: (b: Buffer) => Buffer };

const brotli = (q: number): Codec => ({
  name: `brotli q${q}`,
  pack: (b) =>
    brotliCompressSync(b, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: q,
        [constants.BROTLI_PARAM_SIZE_HINT]: b.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  unpack: (b) => brotliDecompressSync(b),
});
const deflate = (level: number): Codec => ({
  name: `deflate ${level}`,
  pack: (b) => deflateRawSync(b, { level }),
  unpack: (b) => inflateRawSync(b),
});
const CODECS = [deflate(1), deflate(6), deflate(9), brotli(1), brotli(4), brotli(5), brotli(6), brotli(9), brotli(11)];

function srcFiles(dir: string): Buffer[] {
  const out: Buffer[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...srcFiles(full));
    else if (/\.(ts|js|mjs|json|md)$/.test(name)) out.push(readFileSync(full));
  }
  return out;
}

/** Both sides of the first `max` diffs, read through the accessor (the file is opened as it is, not migrated). */
async function generatedVersions(db: string, max: number): Promise<Buffer[]> {
  const store = await CorpusStore.fromBytes(db, readFileSync(db));
  const out: Buffer[] = [];
  const legacy = !store.get("SELECT 1 AS x FROM sqlite_master WHERE name = 'blobs'"); // a file of schema 4 or older
  const ids = store.all<{ id: number }>('SELECT id FROM diffs WHERE fetch_error IS NULL ORDER BY id LIMIT ?', [max]);
  for (const { id } of ids) {
    const content = legacy
      ? (store.scalar('SELECT content FROM diffs WHERE id = ?', [id]) as string | null)
      : diffContentById(store, id);
    const sides = content === null ? undefined : diffSides(content);
    if (sides) out.push(Buffer.from(sides.a, 'utf8'), Buffer.from(sides.b, 'utf8'));
  }
  store.close();
  return out;
}

function measure(inputs: Buffer[], runs: number) {
  const raw = inputs.reduce((n, b) => n + b.length, 0);
  return CODECS.map((c) => {
    const packMs: number[] = [];
    const unpackMs: number[] = [];
    let packed: Buffer[] = [];
    for (let run = 0; run < runs; run++) {
      let t = performance.now();
      packed = inputs.map(c.pack);
      packMs.push(performance.now() - t);
      t = performance.now();
      const back = packed.map(c.unpack);
      unpackMs.push(performance.now() - t);
      if (!back.every((b, i) => b.equals(inputs[i]))) throw new Error(`${c.name}: round trip differs`);
    }
    const bytes = packed.reduce((n, b) => n + b.length, 0);
    const mbps = (ms: number) => Math.round((raw / 1e6 / (ms / 1000)) * 10) / 10;
    return {
      codec: c.name,
      ratio: Math.round((raw / bytes) * 100) / 100,
      packMBps: mbps(median(packMs)),
      unpackMBps: mbps(median(unpackMs)),
    };
  });
}

async function main(): Promise<void> {
  const db = arg('db');
  const runs = Number(arg('runs') ?? 3);
  const max = Number(arg('max') ?? 4000);
  if (!db) throw new Error('usage: node bench/run.mjs blob-codecs --db <corpus.sqlite> [--runs 3] [--max 4000]');
  const generated = await generatedVersions(db, max);
  const real = srcFiles(path.resolve('src'));
  const size = (xs: Buffer[]) => ({
    files: xs.length,
    bytes: xs.reduce((n, b) => n + b.length, 0),
    medianBytes: median(xs.map((b) => b.length)),
  });
  console.log(
    JSON.stringify(
      {
        runs,
        generated: { ...size(generated), codecs: measure(generated, runs) },
        realCode: { ...size(real), codecs: measure(real, runs) },
      },
      null,
      2,
    ),
  );
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
