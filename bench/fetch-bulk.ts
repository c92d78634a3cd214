// Bulk fetch throughput: one fake host listing N merged changes (default 10,000), each with 1–2
// reviewer comments on one file and the PS1 → PS2 diff they need, fetched at minIntervalMs 0 into a
// temp corpus file. Reports changes/s (wall time of fetchCorpus) and peak RSS, median of R runs.
//   node bench/run.mjs fetch-bulk [--changes 10000] [--runs 3]
// Each run is a fresh process (so peak RSS is per run); the fake host is another process, so its
// memory and CPU are not counted against the fetch. The generated fixture lives in a temp folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeGerrit } from '../test/fake-gerrit/server';
import { BULK_ORG, bulkFixture } from '../test/fake-gerrit/bulkFixture';
import { CorpusStore } from '../src/core/ground/store/corpusStore';
import { BENCH_SALT, bulkFetchConfig, taggedLine } from './bulkFetchKit';
import { fetchCorpus } from '../src/core/gerrit/fetchCorpus';
import { arg } from './benchArgs';

const ORG = BULK_ORG;
// ---- the generated fixture: test/fake-gerrit/bulkFixture.ts ----

function writeFixture(dir: string, count: number): void {
  writeFileSync(path.join(dir, `${BULK_ORG}.json`), JSON.stringify(bulkFixture(count)));
}

// ---- child processes --------------------------------------------------------------------------

/** `--serve <dir>`: the fake host; prints its URL, stops when its stdin closes (the parent went away). */
async function serve(dir: string): Promise<void> {
  const host = await startFakeGerrit({ org: ORG, fixturesDir: dir });
  process.stdout.write(`URL ${host.url}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void host.close().then(() => process.exit(0)));
}

interface RunResult {
  changes: number;
  requests: number;
  seconds: number;
  changesPerSecond: number;
  peakRssMB: number;
  fileMB: number;
}

/** `--run <file> --url <url> --count <n>`: one fetch into a new corpus file, measured. */
async function runOnce(file: string, url: string, count: number): Promise<RunResult> {
  const config = bulkFetchConfig('bench-bulk', url);
  const store = await CorpusStore.create(file);
  const started = performance.now();
  const summary = await fetchCorpus(store, config, { salt: BENCH_SALT });
  const seconds = (performance.now() - started) / 1000;
  const peakRssMB = process.resourceUsage().maxRSS / 1024; // maxRSS is in KB
  // The figure only counts if the fetch really stored everything.
  const done = Number(
    store.scalar("SELECT count(*) FROM changes WHERE fetch_state = 'done' AND collection_rule IS NULL"),
  );
  const diffs = Number(
    store.scalar(
      'SELECT count(*) FROM diffs WHERE (content IS NOT NULL OR structure IS NOT NULL) AND fetch_error IS NULL',
    ),
  );
  store.close();
  if (summary.failures.length > 0 || done !== count || diffs !== count) {
    throw new Error(
      `incomplete fetch: ${done}/${count} changes, ${diffs}/${count} diffs; ${summary.failures.join('; ')}`,
    );
  }
  const requests = summary.hosts[0]?.requests ?? 0;
  return {
    changes: done,
    requests,
    seconds,
    changesPerSecond: done / seconds,
    peakRssMB,
    fileMB: statSync(file).size / 1e6,
  };
}

// ---- the parent -------------------------------------------------------------------------------

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const count = Number(arg('changes') ?? 10_000);
  const runs = Number(arg('runs') ?? 3);
  const dir = mkdtempSync(path.join(tmpdir(), 'rc-bench-bulk-'));
  const self = __filename;
  const children: ChildProcess[] = [];
  try {
    writeFixture(dir, count);
    const results: RunResult[] = [];
    for (let r = 1; r <= runs; r++) {
      const server = spawn(process.execPath, [self, '--serve', dir], { stdio: ['pipe', 'pipe', 'inherit'] });
      children.push(server);
      const url = await taggedLine(server, 'URL');
      const file = path.join(dir, `run-${r}.sqlite`);
      const run = spawn(process.execPath, [self, '--run', file, '--url', url, '--count', String(count)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(run);
      const result = JSON.parse(await taggedLine(run, 'RESULT')) as RunResult;
      await new Promise((resolve) => (run.exitCode !== null ? resolve(null) : run.once('exit', resolve)));
      server.stdin!.end();
      await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
      rmSync(file, { force: true });
      results.push(result);
      console.error(
        `run ${r}: ${result.changes} changes, ${result.requests} requests in ${result.seconds.toFixed(2)} s = ${result.changesPerSecond.toFixed(0)} changes/s, peak RSS ${result.peakRssMB.toFixed(0)} MB, file ${result.fileMB.toFixed(1)} MB`,
      );
    }
    console.log(
      JSON.stringify(
        {
          machine: { cpus: cpus().length, node: process.version },
          changes: count,
          runs: results,
          median: {
            changesPerSecond: median(results.map((x) => x.changesPerSecond)),
            seconds: median(results.map((x) => x.seconds)),
            peakRssMB: median(results.map((x) => x.peakRssMB)),
            requests: median(results.map((x) => x.requests)),
            fileMB: median(results.map((x) => x.fileMB)),
          },
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

const mode = process.argv[2];
const entry =
  mode === '--serve'
    ? serve(process.argv[3])
    : mode === '--run'
      ? runOnce(process.argv[3], String(arg('url')), Number(arg('count'))).then(
          (r) => void process.stdout.write(`RESULT ${JSON.stringify(r)}\n`),
        )
      : main();
entry.catch((e: Error) => {
  console.error(`fetch-bulk: ${e.stack ?? e.message}`);
  process.exit(1);
});
