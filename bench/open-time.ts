// What opening a corpus as the extension host does costs, read whole (as before, and on Windows) or
// paged (src/core/ground/store/pagedFile.ts), and what the inspector's first reads cost after it:
//   node bench/run.mjs open-time --db <corpus.sqlite> [--runs 5]
// Each run opens the corpus in a fresh process of its own, whole and paged alternating, and times:
// the open; the tree's groups (treeGroups) and the first page of the first kept group (listItems,
// 50 rows), then that page again (SQLite's cache warm); one example's record (getExample); a scan of
// every example under a text filter (filteredCounts); one label-sized edit in a transaction; and the
// process's memory after them (rss, and the bytes Node holds outside its heap: arrayBuffers). Nothing
// is written to the corpus. Prints each run and the medians as JSON.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { latestBuildId, treeGroups } from '../src/core/review/inspect/groups';
import { getExample } from '../src/core/review/inspect/example';
import { filteredCounts, listItems } from '../src/core/review/inspect/items';
import { CorpusStore, EDIT_RESERVE_BYTES } from '../src/core/ground/store/corpusStore';
import { arg, median } from './benchArgs';

const MODES = ['whole', 'paged'] as const;
type Mode = (typeof MODES)[number];

interface RunResult {
  mode: Mode;
  openMs: number;
  groupsMs: number;
  firstPageMs: number;
  firstPageAgainMs: number;
  exampleMs: number;
  filteredScanMs: number;
  editMs: number;
  rssMb: number;
  arrayBuffersMb: number;
  /** A digest of what was read, to show both modes read the same. */
  read: string;
}

async function child(db: string, mode: Mode): Promise<RunResult> {
  const time = <T>(work: () => T): [T, number] => {
    const t = performance.now();
    const result = work();
    return [result, Math.round(performance.now() - t)];
  };
  const t0 = performance.now();
  const store = await CorpusStore.open(db, mode === 'paged' ? { paged: true } : { reserveBytes: EDIT_RESERVE_BYTES });
  const openMs = Math.round(performance.now() - t0);
  const buildId = latestBuildId(store);
  if (buildId === undefined) throw new Error(`${db} has no build`);
  const [groups, groupsMs] = time(() => treeGroups(store, buildId));
  const group = groups.flatMap((o) => o.windows).find((w) => w.kept > 0);
  if (!group) throw new Error(`${db}: no group keeps an example`);
  const ref = { buildId, org: group.org, window: group.window, unit: 'examples', rule: 'kept' } as const;
  const [page, firstPageMs] = time(() => listItems(store, ref, 0, 50));
  const [, firstPageAgainMs] = time(() => listItems(store, ref, 0, 50));
  const [example, exampleMs] = time(() => getExample(store, page[0].id));
  const [counts, filteredScanMs] = time(() => filteredCounts(store, buildId, { text: 'return' }));
  const [, editMs] = time(() =>
    store.transaction(() =>
      store.run(
        "INSERT INTO meta(key, value) VALUES ('open-time-bench', 'x') ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      ),
    ),
  );
  const memory = process.memoryUsage();
  const read = JSON.stringify([groups.length, page.map((p) => p.id), example?.id, [...counts]]);
  store.close();
  return {
    mode,
    openMs,
    groupsMs,
    firstPageMs,
    firstPageAgainMs,
    exampleMs,
    filteredScanMs,
    editMs,
    rssMb: Math.round(memory.rss / 1e6),
    arrayBuffersMb: Math.round(memory.arrayBuffers / 1e6),
    read: `${read.length}:${read.slice(0, 40)}`,
  };
}

async function main(): Promise<void> {
  const db = arg('db');
  const runs = Number(arg('runs') ?? 5);
  if (!db || !Number.isInteger(runs) || runs < 1)
    throw new Error('usage: node bench/run.mjs open-time --db <corpus.sqlite> [--runs 5]');
  const mode = arg('child') as Mode | undefined;
  if (mode) {
    console.log(JSON.stringify(await child(db, mode)));
    return;
  }
  const results: RunResult[] = [];
  for (let run = 1; run <= runs; run++) {
    for (const m of MODES) {
      const out = spawnSync(
        process.execPath,
        ['-e', 'require(process.argv[1])', process.argv[1], '--db', db, '--child', m],
        { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 16 << 20 },
      );
      if (out.status !== 0) throw new Error(`run ${run} (${m}) failed (exit ${out.status})`);
      const r = JSON.parse(out.stdout.trim().split('\n').pop()!) as RunResult;
      results.push(r);
      console.error(`run ${run} ${JSON.stringify(r)}`);
    }
  }
  const reads = new Set(results.map((r) => r.read));
  if (reads.size !== 1) throw new Error(`the two modes read different things: ${[...reads].join(' / ')}`);
  const medians = Object.fromEntries(
    MODES.map((m) => {
      const of = results.filter((r) => r.mode === m);
      const keys = Object.keys(of[0]).filter((k) => typeof of[0][k as keyof RunResult] === 'number');
      return [m, Object.fromEntries(keys.map((k) => [k, median(of.map((r) => r[k as keyof RunResult] as number))]))];
    }),
  );
  console.log(JSON.stringify({ db, bytes: statSync(db).size, runs, medians }, null, 2));
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
