// What one whole-file save of a corpus costs, the way every small edit was saved on the extension
// host's main thread before the saver worker (and the way the saver worker now saves, off it):
//   node bench/run.mjs save-time --db <corpus.sqlite> [--runs 3]
// Opens the corpus as the extension does (no reserve), then per run times store.export() and the
// atomic write of those bytes (temp file, fsync, rename) to a file in the OS temp folder, so the
// corpus itself is never written. Prints medians as JSON.
import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { saveAtomically } from '../src/core/ground/store/atomicSave';
import { CorpusStore } from '../src/core/ground/store/corpusStore';
import { arg, median } from './benchArgs';

async function main(): Promise<void> {
  const db = arg('db');
  const runs = Number(arg('runs') ?? 3);
  if (!db || !Number.isInteger(runs) || runs < 1)
    throw new Error('usage: node bench/run.mjs save-time --db <corpus.sqlite> [--runs 3]');
  const store = await CorpusStore.open(db);
  const target = path.join(tmpdir(), `save-time-${process.pid}.sqlite`);
  const exportMs: number[] = [];
  const writeMs: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      store.run(
        "INSERT INTO meta(key, value) VALUES ('save-time-bench', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [String(i)],
      );
      const t0 = performance.now();
      const bytes = store.export();
      const t1 = performance.now();
      saveAtomically(target, bytes);
      const t2 = performance.now();
      exportMs.push(t1 - t0);
      writeMs.push(t2 - t1);
      console.error(`run ${i + 1}: export ${Math.round(t1 - t0)} ms, write + fsync + rename ${Math.round(t2 - t1)} ms`);
    }
  } finally {
    store.close();
    rmSync(target, { force: true });
  }
  const s = (ms: number) => Math.round(ms / 10) / 100;
  console.log(
    JSON.stringify(
      {
        db,
        bytes: statSync(db).size,
        runs,
        medianSeconds: {
          export: s(median(exportMs)),
          writeFsyncRename: s(median(writeMs)),
          total: s(median(exportMs.map((e, i) => e + writeMs[i]))),
        },
      },
      null,
      2,
    ),
  );
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
