// Build time and memory: runBuild on a generated corpus (bench/generate.ts), once per fresh process.
//   node bench/run.mjs build-time --db /tmp/bench-100k.sqlite [--runs 3] [--planted <side file>] [--no-worker] [--no-huge-pages]
// (--no-worker: the hunk facts are computed on the build's own thread, as without a second core.
// Each child starts with the GLIBC_TUNABLES the CLI and the extension's job process start a build
// with, where this machine gains from it (core/ground/process/hugePages.ts); --no-huge-pages: without.)
// Each run spawns this bundle again as a child, which opens the corpus, runs runBuild (per-stage
// times from its onProgress events), records peak RSS, scores the duplicate decisions against the
// planted ones. The BARE SCAN of the same rows with the same store API (every change, revision,
// comment and diff row, each diff's JSON parsed, no rules) runs in a fresh process of its own before
// each build (a scan after the build in the same process ran on warm memory: a floor that flattered the
// ratio's denominator). The file is never saved, except that run 1 works on a temp copy and times one
// whole-file atomic save of it at the very end (saveAtomically of store.export(), the image a full
// store.save() writes), its blocking write calls and fsync apart.
import { spawnSync } from 'node:child_process';
import { rmSync, statSync, writeSync } from 'node:fs';
import { copyCorpus, filesBeside } from '../src/core/ground/store/copyCorpus';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { eachPaged, eachRow } from '../src/core/build/stages/paged';
import { runBuild } from '../src/core/build/stages/runBuild';
import { DiffTexts, diffBlobJoins, diffContentColumns } from '../src/core/ground/store/diffText';
import { CorpusStore, buildReserve } from '../src/core/ground/store/corpusStore';
import { saveAtomically } from '../src/core/ground/store/atomicSave';
import { storedConfig } from '../src/core/build/stages/loadCorpus';
import { readPlanted, scoreDedup, type DedupScore } from './dedup-score';
import { plantedFileOf } from './generateRecords';
import { arg, median } from './benchArgs';
import { currentPlatform, hugePagesTunables } from '../src/core/ground/process/hugePages';

interface RunResult {
  openMs: number;
  stagesMs: Record<string, number>;
  /** CPU time per stage (all threads of the process). */
  stagesCpuMs: Record<string, number>;
  buildMs: number;
  peakRssMbAfterBuild: number;
  /** From the run's own scan process (scanChild). */
  bareScanMs: number;
  bareScanCpuMs: number;
  /** The machine's speed at the time: a fixed CPU-bound loop (no memory), timed in this process after the scan. */
  cpuProbeMs: number;
  /** …and its memory's: writing one byte into each 4 KB page of a fresh 256 MB buffer. */
  touchProbeMs: number;
  bareScanRows: Record<string, number>;
  peakRssMbAfterScan: number;
  saveMs: number | null;
  /** The save's blocking write, fsync and rename apart (the CPU profiler never samples during them). */
  saveWriteMs: number | null;
  saveFsyncMs: number | null;
  kept: number;
  corpusHash: string;
  /** The duplicate rules' settings the build read from the stored config. */
  dedupRules: Record<string, number>;
  score: DedupScore;
}

const maxRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** One run, in this (fresh) process. */
async function child(db: string, planted: string, save: boolean): Promise<RunResult> {
  const t0 = performance.now();
  // Opened as `review-corpus build` and the extension's rebuild open it: with room reserved for the build.
  const store = await CorpusStore.open(db, { reserveBytes: buildReserve(db) });
  const openMs = performance.now() - t0;

  const { rules } = storedConfig(store);
  const dedupRules = {
    nearDuplicateJaccard: rules.nearDuplicateJaccard,
    minhashPermutations: rules.minhashPermutations,
    lshBands: rules.lshBands,
    lshRows: rules.lshRows,
    shingleTokens: rules.shingleTokens,
    boilerplateMinChanges: rules.boilerplateMinChanges,
  };
  // CPU time beside wall time: on a loaded shared machine it moves far less than wall time does
  // (the process's user + system time, all threads: the hunk-facts worker's too during comments).
  const cpuNow = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const events: { stage: string; at: number; cpu: number }[] = [];
  const tBuild = performance.now();
  const result = await runBuild(store, {
    hunkFactsWorker: !process.argv.includes('--no-worker'),
    onProgress: (p) => events.push({ stage: p.stage, at: performance.now(), cpu: cpuNow() }),
  });
  const buildMs = performance.now() - tBuild;
  const peakRssMbAfterBuild = maxRssMb();
  const stagesMs: Record<string, number> = {};
  const stagesCpuMs: Record<string, number> = {};
  for (let i = 0; i + 1 < events.length; i++) {
    stagesMs[events[i].stage] = events[i + 1].at - events[i].at;
    stagesCpuMs[events[i].stage] = events[i + 1].cpu - events[i].cpu;
  }

  const score = scoreDedup(store, result.buildId, readPlanted(planted));

  const cpuProbeMs = cpuProbe();
  const touchProbeMs = touchProbe();

  let saveMs: number | null = null;
  let saveWriteMs: number | null = null;
  let saveFsyncMs: number | null = null;
  if (save) {
    // What store.save() does, timed in parts: export() (the live buffer, ~0 ms, where it can), the write
    // calls, then fsync (up to beforeRename), then the rename.
    let writing = 0;
    let lastWriteEnd = 0;
    const tSave = performance.now();
    saveAtomically(db, store.export(), {
      write: (fd, bytes, offset, length) => {
        const t = performance.now();
        const n = writeSync(fd, bytes, offset, length);
        lastWriteEnd = performance.now();
        writing += lastWriteEnd - t;
        return n;
      },
      beforeRename: () => (saveFsyncMs = performance.now() - lastWriteEnd),
    });
    saveMs = performance.now() - tSave;
    saveWriteMs = writing;
  }
  store.close();
  return {
    openMs,
    stagesMs,
    stagesCpuMs,
    buildMs,
    peakRssMbAfterBuild,
    bareScanMs: NaN,
    bareScanCpuMs: NaN,
    cpuProbeMs,
    touchProbeMs,
    bareScanRows: {},
    peakRssMbAfterScan: NaN,
    saveMs,
    saveWriteMs,
    saveFsyncMs,
    kept: result.kept,
    corpusHash: result.corpusHash,
    dedupRules,
    score,
  };
}

/** The bare scan, in a fresh process of its own: the corpus opened as the build opens it, then only the scan timed. */
async function scanChild(db: string): Promise<{
  bareScanMs: number;
  bareScanCpuMs: number;
  bareScanRows: Record<string, number>;
  peakRssMbAfterScan: number;
}> {
  const store = await CorpusStore.open(db, { reserveBytes: buildReserve(db) });
  const tScan = performance.now();
  const c0 = process.cpuUsage();
  const bareScanRows = await bareScan(store);
  const bareScanMs = performance.now() - tScan;
  const c = process.cpuUsage(c0);
  store.close();
  return { bareScanMs, bareScanCpuMs: (c.user + c.system) / 1000, bareScanRows, peakRssMbAfterScan: maxRssMb() };
}

/**
 * This VM's speed drifts: the same build measured 9.4 s and 15 s an hour apart. A loop of integer
 * arithmetic, always the same work, says how fast the CPU ran around a run (the minimum of 5, in ms).
 */
function cpuProbe(): number {
  let best = Infinity;
  let sink = 0;
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    let x = r;
    for (let i = 0; i < 5e7; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
    sink ^= x;
    best = Math.min(best, performance.now() - t0);
  }
  if (sink === 0.5) console.error(sink); // keeps the loop from being optimised away
  return Math.round(best * 10) / 10;
}

/** First touches of fresh memory, what this VM charges most for and what drifts most (ms). */
function touchProbe(): number {
  const size = 256 << 20;
  const t0 = performance.now();
  const fresh = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i += 4096) fresh[i] = 1;
  return Math.round(performance.now() - t0);
}

/** Every row the build reads from the big tables, through the same paged reads, with no rule applied. */
async function bareScan(store: CorpusStore): Promise<Record<string, number>> {
  const rows = { changes: 0, revisions: 0, comments: 0, diffs: 0, diffLines: 0 };
  await eachPaged(
    store,
    'SELECT id, host_id, number, change_key, created, owner, collection_rule, fetch_error, project, fetch_state FROM changes WHERE id > ?',
    () => rows.changes++,
  );
  eachRow(store, 'SELECT change_id, patch_set, kind FROM revisions', [], () => rows.revisions++);
  await eachPaged(
    store,
    'SELECT id, change_id, gerrit_id, path, patch_set, side, line, start_line, end_line, author, message FROM comments WHERE id > ?',
    () => rows.comments++,
  );
  const texts = new DiffTexts(store);
  await eachPaged(
    store,
    `SELECT d.id, d.change_id, d.path, d.ps_base, d.fetch_error, ${diffContentColumns('d')} FROM diffs d ${diffBlobJoins('d')} WHERE d.id > ?`,
    (row) => {
      rows.diffs++;
      // Read as the build reads it: a diff stored as sides comes back as its DiffInfo object.
      const stored = texts.read(row.slice(5));
      if (stored !== null) {
        const info = (typeof stored === 'string' ? JSON.parse(stored) : stored) as {
          content: { ab?: string[]; a?: string[]; b?: string[] }[];
        };
        for (const c of info.content) rows.diffLines += (c.ab?.length ?? 0) + (c.a?.length ?? 0) + (c.b?.length ?? 0);
      }
    },
  );
  return rows;
}

const sec = (ms: number) => Math.round(ms / 10) / 100;

async function parent(db: string, planted: string, runs: number): Promise<void> {
  const bundle = process.argv[1];
  const loadBefore = loadavg().map((l) => Math.round(l * 100) / 100);
  const results: RunResult[] = [];
  const tunables = process.argv.includes('--no-huge-pages') ? undefined : hugePagesTunables(currentPlatform());
  const childEnv = tunables ? { ...process.env, GLIBC_TUNABLES: tunables } : process.env;
  console.error(`children start with GLIBC_TUNABLES=${childEnv.GLIBC_TUNABLES ?? '(unset)'}`);
  const copy = path.join(tmpdir(), `build-time-${process.pid}.sqlite`);
  try {
    for (let run = 1; run <= runs; run++) {
      // Run 1 builds a temp copy so it can also time the save without touching the benchmark corpus.
      if (run === 1) copyCorpus(db, copy);
      // The floor first, in a fresh process of its own, started as the build's is.
      const scanOut = spawnSync(
        process.execPath,
        ['-e', 'require(process.argv[1])', bundle, '--scan-child', '--db', db],
        { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20, encoding: 'utf8', env: childEnv },
      );
      if (scanOut.status !== 0) throw new Error(`run ${run}: bare scan failed (exit ${scanOut.status})`);
      const scan = JSON.parse(scanOut.stdout.trim().split('\n').pop()!) as Pick<
        RunResult,
        'bareScanMs' | 'bareScanCpuMs' | 'bareScanRows' | 'peakRssMbAfterScan'
      >;
      const args = [
        '-e',
        'require(process.argv[1])',
        bundle,
        '--child',
        '--db',
        run === 1 ? copy : db,
        '--planted',
        planted,
        ...(run === 1 ? ['--save'] : []),
        ...(process.argv.includes('--no-worker') ? ['--no-worker'] : []),
      ];
      const out = spawnSync(process.execPath, args, {
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 64 << 20,
        encoding: 'utf8',
        env: childEnv,
      });
      if (out.status !== 0) throw new Error(`run ${run} failed (exit ${out.status})`);
      const r = { ...(JSON.parse(out.stdout.trim().split('\n').pop()!) as RunResult), ...scan };
      results.push(r);
      console.error(
        `run ${run}: build ${sec(r.buildMs)} s (${Object.entries(r.stagesMs)
          .map(([s, ms]) => `${s} ${sec(ms)}`)
          .join(', ')}), ` +
          `peak RSS ${r.peakRssMbAfterBuild} MB, bare scan ${sec(r.bareScanMs)} s, cpu probe ${r.cpuProbeMs} ms, touch probe ${r.touchProbeMs} ms, open ${sec(r.openMs)} s${r.saveMs === null ? '' : `, save ${sec(r.saveMs)} s (write ${sec(r.saveWriteMs!)} s, fsync ${sec(r.saveFsyncMs!)} s)`}`,
      );
    }
  } finally {
    for (const f of [copy, ...filesBeside(copy)]) rmSync(f, { force: true });
  }

  const stages = Object.keys(results[0].stagesMs);
  const totals = results.map((r) => r.buildMs);
  const scans = results.map((r) => r.bareScanMs);
  const cpuTotals = results.map((r) => Object.values(r.stagesCpuMs).reduce((a, b) => a + b, 0));
  const peak = Math.max(...results.map((r) => r.peakRssMbAfterBuild));
  const first = results[0];
  const sameEverywhere = results.every(
    (r) => r.corpusHash === first.corpusHash && JSON.stringify(r.score) === JSON.stringify(first.score),
  );
  console.log(
    JSON.stringify(
      {
        db,
        bytes: statSync(db).size,
        runs,
        glibcTunables: childEnv.GLIBC_TUNABLES ?? null,
        loadAverage: { before: loadBefore, after: loadavg().map((l) => Math.round(l * 100) / 100) },
        medianSeconds: {
          ...Object.fromEntries(stages.map((s) => [s, sec(median(results.map((r) => r.stagesMs[s] ?? 0)))])),
          total: sec(median(totals)),
          open: sec(median(results.map((r) => r.openMs))),
          bareScan: sec(median(scans)),
          cpuProbeMs: median(results.map((r) => r.cpuProbeMs)),
          touchProbeMs: median(results.map((r) => r.touchProbeMs)),
        },
        medianCpuSeconds: {
          ...Object.fromEntries(stages.map((s) => [s, sec(median(results.map((r) => r.stagesCpuMs[s] ?? 0)))])),
          total: sec(median(cpuTotals)),
          bareScan: sec(median(results.map((r) => r.bareScanCpuMs))),
        },
        ratioCpuTotalToBareScan:
          Math.round((median(cpuTotals) / median(results.map((r) => r.bareScanCpuMs))) * 100) / 100,
        ratioTotalToBareScan: Math.round((median(totals) / median(scans)) * 100) / 100,
        peakRssMb: {
          max: peak,
          median: median(results.map((r) => r.peakRssMbAfterBuild)),
          afterBareScanMax: Math.max(...results.map((r) => r.peakRssMbAfterScan)),
        },
        saveSecondsOnce:
          first.saveMs === null
            ? null
            : { total: sec(first.saveMs), writeCalls: sec(first.saveWriteMs!), fsync: sec(first.saveFsyncMs!) },
        perRunSeconds: results.map((r) => ({
          total: sec(r.buildMs),
          ...Object.fromEntries(Object.entries(r.stagesMs).map(([s, ms]) => [s, sec(ms)])),
          bareScan: sec(r.bareScanMs),
          cpuProbeMs: r.cpuProbeMs,
          touchProbeMs: r.touchProbeMs,
        })),
        targets: {
          totalAtMost5s: median(totals) <= 5_000,
          atMost4xBareScan: median(totals) <= 4 * median(scans),
          peakRssAtMost2GB: peak <= 2048,
        },
        kept: first.kept,
        corpusHash: first.corpusHash,
        identicalAcrossRuns: sameEverywhere,
        bareScanRows: first.bareScanRows,
        dedupRules: first.dedupRules,
        dedup: first.score,
      },
      null,
      2,
    ),
  );
}

async function main(): Promise<void> {
  const db = arg('db');
  if (!db)
    throw new Error(
      'usage: node bench/run.mjs build-time --db <corpus.sqlite> [--runs 3] [--planted <file.planted.json>] [--no-worker]',
    );
  const planted = arg('planted') ?? plantedFileOf(db);
  if (process.argv.includes('--scan-child')) {
    console.log(JSON.stringify(await scanChild(db)));
    return;
  }
  if (process.argv.includes('--child')) {
    console.log(JSON.stringify(await child(db, planted, process.argv.includes('--save'))));
    return;
  }
  const runs = Number(arg('runs') ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number ≥ 1 (got ${arg('runs')})`);
  await parent(db, planted, runs);
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
