// The cost of the one small edit that makes a corpus file grow by a page, as the extension's open
// copy meets it: label rows are inserted one at a time until the database gains a page; the slowest
// insert is reported, for a corpus opened without room to grow and with EDIT_RESERVE_BYTES.
//   node bench/run.mjs edit-growth --db <built corpus.sqlite> [--runs 3]
// Works on the in-memory copy only; the file is never written.
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { CorpusStore, EDIT_RESERVE_BYTES } from '../src/core/ground/store/corpusStore';
import { arg, median } from './benchArgs';

/** Inserts labels until the page count changes; returns the slowest insert (ms) and how many it took. */
async function slowestInsertUntilGrowth(
  db: string,
  reserveBytes: number,
): Promise<{ slowestMs: number; inserts: number }> {
  const store = await CorpusStore.open(db, { reserveBytes });
  try {
    const pages = Number(store.scalar('PRAGMA page_count'));
    let slowestMs = 0;
    let inserts = 0;
    while (Number(store.scalar('PRAGMA page_count')) === pages) {
      const t = performance.now();
      store.run('INSERT INTO labels(example_key, rater, label, labelled_at) VALUES (?, ?, ?, ?)', [
        `edit-growth/${inserts}`,
        'bench',
        'unsure',
        '2026-12-02T00:00:00Z',
      ]);
      slowestMs = Math.max(slowestMs, performance.now() - t);
      inserts++;
    }
    return { slowestMs, inserts };
  } finally {
    store.close();
  }
}

async function main(): Promise<void> {
  const db = arg('db');
  const runs = Number(arg('runs') ?? 3);
  if (!db || !Number.isInteger(runs) || runs < 1)
    throw new Error('usage: node bench/run.mjs edit-growth --db <corpus.sqlite> [--runs 3]');
  const result: Record<string, { slowestMs: number[]; inserts: number; medianSlowestMs: number }> = {};
  for (const [name, reserve] of [
    ['noReserve', 0],
    ['editReserve', EDIT_RESERVE_BYTES],
  ] as const) {
    const slowest: number[] = [];
    let inserts = 0;
    for (let i = 0; i < runs; i++) {
      const r = await slowestInsertUntilGrowth(db, reserve);
      slowest.push(Math.round(r.slowestMs));
      inserts = r.inserts;
      console.error(
        `${name} run ${i + 1}: ${r.inserts} inserts until the file grew, slowest ${Math.round(r.slowestMs)} ms`,
      );
    }
    result[name] = { slowestMs: slowest, inserts, medianSlowestMs: median(slowest) };
  }
  console.log(
    JSON.stringify({ db, bytes: statSync(db).size, runs, editReserveBytes: EDIT_RESERVE_BYTES, ...result }, null, 2),
  );
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
