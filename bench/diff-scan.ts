// How long reading every stored diff back takes, and how much of it is decompression alone: the
// part of a build's bare scan that blobs added (docs/storage.md, "Reading diffs back"). `read` is what
// the build does (DiffInfo objects made from the sides); `json` joins each diff back into its JSON text
// and parses it, as the build did before.
//   node bench/run.mjs diff-scan --db corpus.sqlite [--runs 3]
import { CorpusStore } from '../src/core/ground/store/corpusStore';
import {
  DiffTexts,
  diffBlobJoins,
  diffContentColumns,
  storedBlobBytes,
  unpackBlob,
  type StoredBlob,
} from '../src/core/ground/store/diffText';
import { eachRow } from '../src/core/build/stages/paged';
import { arg, median } from './benchArgs';

async function main(): Promise<void> {
  const db = arg('db');
  if (!db) throw new Error('usage: node bench/run.mjs diff-scan --db <corpus.sqlite> [--runs N]');
  const runs = Number(arg('runs') ?? 3);
  const store = await CorpusStore.open(db);
  const scan: number[] = [];
  const json: number[] = [];
  const decompress: number[] = [];
  let diffs = 0;
  let blobs = 0;
  for (let r = 0; r < runs; r++) {
    const texts = new DiffTexts(store);
    diffs = 0;
    let t = performance.now();
    eachRow(store, `SELECT ${diffContentColumns('d')} FROM diffs d ${diffBlobJoins('d')}`, [], (row) => {
      const stored = texts.read(row);
      if (typeof stored === 'string') JSON.parse(stored);
      diffs++;
    });
    scan.push((performance.now() - t) / 1000);
    const again = new DiffTexts(store);
    t = performance.now();
    eachRow(store, `SELECT ${diffContentColumns('d')} FROM diffs d ${diffBlobJoins('d')}`, [], (row) => {
      const text = again.of(row);
      if (text !== null) JSON.parse(text);
    });
    json.push((performance.now() - t) / 1000);
    blobs = 0;
    t = performance.now();
    store.each('SELECT codec, bytes, pack_offset, pack_length FROM blobs ORDER BY rowid', [], (row) => {
      const codec = String(row.codec);
      const bytes = storedBlobBytes(store, row as unknown as StoredBlob);
      unpackBlob(codec.endsWith('-delta') ? codec.slice(0, -'-delta'.length) : codec, bytes);
      blobs++;
    });
    decompress.push((performance.now() - t) / 1000);
  }
  store.close();
  console.log(
    JSON.stringify(
      {
        diffs,
        blobs,
        runs,
        readSeconds: median(scan),
        jsonSeconds: median(json),
        decompressSeconds: median(decompress),
        read: scan,
        json,
        decompress,
      },
      null,
      2,
    ),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
