// Saves that do not grow with the file (issue #15, src/core/ground/store/journal.ts), two figures:
//   node bench/run.mjs journal-saves pad --out <big.sqlite> [--mb 1000]
//     makes a corpus of about that size: an empty corpus padded with 1 MB meta rows (the journal's
//     cost depends on the file's size and the pages a save writes, not on what the rows hold).
//   node bench/run.mjs journal-saves fetch --into <big.sqlite|empty> [--changes 3000] [--runs 3] [--full-saves]
//     the bulk fake host (test/fake-gerrit/bulkFixture.ts, pace 0) fetched into a copy of the corpus
//     (or a new one), checkpoints every 2 s as `review-corpus fetch` does (fetchJob's reserve);
//     --full-saves opens without the reserve, so every checkpoint rewrites the file (the old way).
//     Each run is a fresh process; the copy is made before the clock starts. Median changes/s.
//   node bench/run.mjs journal-saves label --db <big.sqlite> [--runs 5]
//     label decisions through the extension's saver path: BackgroundSaver (src/extension/
//     backgroundSaver.ts) forks dist/worker.js (build it first) on a copy of the corpus; this process
//     stands in for the extension host. Per decision: submit → flush resolved (the saver's reply
//     that the record is fsynced), and this process's longest event-loop stall meanwhile; the first
//     decision (which starts the saver, and so includes its open of the corpus) apart.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { copyCorpus, filesBeside } from '../src/core/ground/store/copyCorpus';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeGerrit } from '../test/fake-gerrit/server';
import { BULK_ORG, bulkFixture } from '../test/fake-gerrit/bulkFixture';
import { CorpusStore, FETCH_RESERVE_BYTES } from '../src/core/ground/store/corpusStore';
import { journalPath } from '../src/core/ground/store/journal';
import { BENCH_SALT, bulkFetchConfig, taggedLine } from './bulkFetchKit';
import { fetchCorpus } from '../src/core/gerrit/fetchCorpus';
import { BackgroundSaver } from '../src/extension/backgroundSaver';
import { arg, median } from './benchArgs';

async function pad(out: string, mb: number): Promise<void> {
  rmSync(out, { force: true });
  const store = await CorpusStore.create(out);
  const row = 'p'.repeat(1 << 20);
  store.transaction(() => {
    for (let i = 0; i < mb; i++) store.setMeta(`bench-pad-${i}`, row);
  });
  store.save();
  store.close();
  console.log(JSON.stringify({ out, bytes: statSync(out).size }));
}

async function serve(dir: string): Promise<void> {
  const host = await startFakeGerrit({ org: BULK_ORG, fixturesDir: dir });
  process.stdout.write(`URL ${host.url}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void host.close().then(() => process.exit(0)));
}

/** One fetch into `file` (a copy made by the parent, or absent: a new corpus), measured. */
async function fetchOnce(file: string, url: string, fullSaves: boolean): Promise<object> {
  const config = bulkFetchConfig('bench-journal', url);
  const store = await CorpusStore.openOrCreate(file, fullSaves ? {} : { reserveBytes: FETCH_RESERVE_BYTES });
  const kinds: Record<string, number> = {};
  const save = store.save.bind(store);
  store.save = (hooks) => {
    const k = save(hooks);
    kinds[k] = (kinds[k] ?? 0) + 1;
    return k;
  };
  const started = performance.now();
  const summary = await fetchCorpus(store, config, { salt: BENCH_SALT });
  const seconds = (performance.now() - started) / 1000;
  const done = Number(
    store.scalar("SELECT count(*) FROM changes WHERE fetch_state = 'done' AND collection_rule IS NULL"),
  );
  store.close();
  if (summary.failures.length > 0) throw new Error(summary.failures.join('; '));
  return {
    changes: done,
    seconds,
    changesPerSecond: done / seconds,
    saves: kinds,
    fileMB: statSync(file).size / 1e6,
    journalMB: existsSync(journalPath(file)) ? statSync(journalPath(file)).size / 1e6 : 0,
  };
}

async function fetchBench(): Promise<void> {
  const into = String(arg('into'));
  const count = Number(arg('changes') ?? 3000);
  const runs = Number(arg('runs') ?? 3);
  const fullSaves = process.argv.includes('--full-saves');
  const dir = mkdtempSync(
    path.join(into === 'empty' ? tmpdir() : path.dirname(path.resolve(into)), 'rc-bench-journal-'),
  );
  const children: ChildProcess[] = [];
  try {
    writeFileSync(path.join(dir, `${BULK_ORG}.json`), JSON.stringify(bulkFixture(count)));
    const results: { changesPerSecond: number }[] = [];
    for (let r = 1; r <= runs; r++) {
      const server = spawn(process.execPath, ['-e', 'require(process.argv[1])', __filename, 'serve', dir], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      children.push(server);
      const url = await taggedLine(server, 'URL');
      const file = path.join(dir, `run-${r}.sqlite`);
      if (into !== 'empty') copyCorpus(into, file);
      const run = spawn(
        process.execPath,
        [
          '-e',
          'require(process.argv[1])',
          __filename,
          'fetch-once',
          file,
          '--url',
          url,
          ...(fullSaves ? ['--full-saves'] : []),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      children.push(run);
      const result = JSON.parse(await taggedLine(run, 'RESULT'));
      await new Promise((resolve) => (run.exitCode !== null ? resolve(null) : run.once('exit', resolve)));
      server.stdin!.end();
      for (const f of [file, ...filesBeside(file)]) rmSync(f, { force: true });
      results.push(result);
      console.error(`run ${r}: ${JSON.stringify(result)} (load ${loadavg()[0].toFixed(1)})`);
    }
    console.log(
      JSON.stringify(
        {
          machine: { cpus: cpus().length, node: process.version, load1: loadavg()[0] },
          into,
          fullSaves,
          changes: count,
          runs: results,
          medianChangesPerSecond: median(results.map((x) => x.changesPerSecond)),
        },
        null,
        2,
      ),
    );
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function labelBench(): Promise<void> {
  const db = String(arg('db'));
  const runs = Number(arg('runs') ?? 5);
  const worker = path.resolve('dist/worker.js');
  if (!existsSync(worker)) throw new Error(`${worker} is missing: node scripts/build.mjs`);
  const dir = mkdtempSync(path.join(path.dirname(path.resolve(db)), 'rc-bench-label-'));
  const file = path.join(dir, 'corpus.sqlite');
  copyCorpus(db, file);
  const saver = new BackgroundSaver(worker, file, (m) => console.error(`saver: ${m}`));
  const label = (i: number) => ({
    kind: 'label' as const,
    exampleKey: `bench/${i}/1/1/a.py`,
    rater: 'bench-rater',
    label: 'answers' as const,
    at: new Date().toISOString(),
  });
  /** One decision: submit → the saver's reply that it is on disk, and this (host) thread's longest stall meanwhile. */
  async function decide(i: number): Promise<{ ms: number; stall: number }> {
    // The longest gap between ticks of a 1 ms timer: how long this thread could not run.
    let last = performance.now();
    let stall = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }, 1);
    const t0 = performance.now();
    saver.submit(label(i));
    await saver.flush();
    const ms = performance.now() - t0;
    clearInterval(ticker);
    return { ms, stall: Math.max(stall, performance.now() - last) };
  }
  try {
    // bench/run.mjs runs benches with --enable-source-maps: the first stack formatted (one is, in fork)
    // parses this bundle's source map, 160–170 ms on this thread that no extension host spends. Now.
    void new Error('warm the source map').stack;
    // The first decision starts the saver process, which opens the corpus before it saves.
    const first = await decide(0);
    console.error(
      `first decision, with the saver's start and open of ${(statSync(file).size / 1e6).toFixed(0)} MB: on disk in ${first.ms.toFixed(1)} ms, host's longest stall ${first.stall.toFixed(1)} ms`,
    );
    const toDisk: number[] = [];
    const stalls: number[] = [];
    for (let i = 1; i <= runs; i++) {
      const { ms, stall } = await decide(i);
      toDisk.push(ms);
      stalls.push(stall);
      console.error(
        `decision ${i}: on disk in ${ms.toFixed(1)} ms, host's longest stall ${stall.toFixed(1)} ms (load ${loadavg()[0].toFixed(1)})`,
      );
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(
      JSON.stringify(
        {
          machine: { cpus: cpus().length, node: process.version, load1: loadavg()[0] },
          db,
          bytes: statSync(file).size,
          journalBytes: existsSync(journalPath(file)) ? statSync(journalPath(file)).size : 0,
          runs,
          firstDecisionMs: { toDisk: first.ms, hostLongestStall: first.stall },
          medianMs: { toDisk: median(toDisk), hostLongestStall: median(stalls) },
          maxMs: { toDisk: Math.max(...toDisk), hostLongestStall: Math.max(...stalls) },
        },
        null,
        2,
      ),
    );
  } finally {
    await saver.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

const mode = process.argv[2];
const entry =
  mode === 'pad'
    ? pad(String(arg('out')), Number(arg('mb') ?? 1000))
    : mode === 'serve'
      ? serve(process.argv[3])
      : mode === 'fetch-once'
        ? fetchOnce(process.argv[3], String(arg('url')), process.argv.includes('--full-saves')).then(
            (r) => void process.stdout.write(`RESULT ${JSON.stringify(r)}\n`),
          )
        : mode === 'fetch'
          ? fetchBench()
          : mode === 'label'
            ? labelBench()
            : Promise.reject(new Error('usage: node bench/run.mjs journal-saves pad|fetch|label …'));
entry.catch((e: Error) => {
  console.error(`journal-saves: ${e.stack ?? e.message}`);
  process.exit(1);
});
