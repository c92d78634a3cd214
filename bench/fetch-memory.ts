// Memory of a long fetch: one fake host listing N merged changes (default 50,000; bulkFixture), fetched
// at pace 0 into a new corpus file as `review-corpus fetch` fetches (fetchCorpus, FETCH_RESERVE_BYTES,
// checkpoints every 2 s). RSS, the JS heap and the database's own size (page_count × page_size: what
// sql.js holds in memory) are sampled at every progress line, and reported at the first line past
// 10k, 25k and N fetched changes; peak RSS (maxRSS) at the end. What must hold: RSS grows by no more
// than the database does; the blob pack is on disk and never held.
//   node bench/run.mjs fetch-memory [--changes 50000] [--page 100]
// The fake host is a process of its own (its memory and CPU are not counted); so is the fetch.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeGerrit } from '../test/fake-gerrit/server';
import { BULK_ORG, bulkFixture } from '../test/fake-gerrit/bulkFixture';
import { CorpusStore, FETCH_RESERVE_BYTES } from '../src/core/ground/store/corpusStore';
import { blobPackPath } from '../src/core/ground/store/blobPack';
import { journalPath } from '../src/core/ground/store/journal';
import { fetchCorpus } from '../src/core/gerrit/fetchCorpus';
import { validateCorpusConfig } from '../src/core/rules/corpusJson/loadConfig';
import { CORPUS_START, WINDOWS } from '../test/fake-gerrit/fixtures/scenarioOptions';
import { BENCH_SALT, taggedLine } from './bulkFetchKit';
import { arg } from './benchArgs';

const MB = 1024 * 1024;

/** `--serve --count N`: the fake host, its fixture generated in memory; stops when stdin closes. */
async function serve(count: number): Promise<void> {
  const host = await startFakeGerrit({ org: BULK_ORG, fixture: bulkFixture(count) });
  process.stdout.write(`URL ${host.url}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void host.close().then(() => process.exit(0)));
}

interface Sample {
  fetched: number;
  seconds: number;
  rssMB: number;
  heapUsedMB: number;
  arrayBuffersMB: number;
  databaseMB: number;
  packMB: number;
  journalMB: number;
}

const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);

/** `--run <file> --url <url> --page <n>`: one fetch into a new corpus file, sampled at each progress line. */
async function runOnce(file: string, url: string, pageSize: number): Promise<object> {
  const config = validateCorpusConfig(
    {
      name: 'bench-memory',
      start: CORPUS_START,
      salt: { env: 'REVIEW_CORPUS_SALT' },
      windows: WINDOWS,
      hosts: [{ org: BULK_ORG, url, query: 'status:merged', minIntervalMs: 0, pageSize }],
      rules: {},
    },
    'bench corpus.json',
  );
  const store = await CorpusStore.openOrCreate(file, { reserveBytes: FETCH_RESERVE_BYTES });
  const started = performance.now();
  const samples: Sample[] = [];
  const sample = (fetched: number) => {
    const m = process.memoryUsage();
    const pageSize = Number(store.scalar('PRAGMA page_size'));
    const pages = Number(store.scalar('PRAGMA page_count'));
    samples.push({
      fetched,
      seconds: (performance.now() - started) / 1000,
      rssMB: m.rss / MB,
      heapUsedMB: m.heapUsed / MB,
      arrayBuffersMB: m.arrayBuffers / MB,
      databaseMB: (pageSize * pages) / MB,
      packMB: size(blobPackPath(file)) / MB,
      journalMB: size(journalPath(file)) / MB,
    });
  };
  const summary = await fetchCorpus(store, config, {
    salt: BENCH_SALT,
    onProgress: (p) => {
      sample(p.totals.fetched);
      if (p.phase !== 'listing')
        process.stderr.write(`${p.totals.fetched} fetched, rss ${samples.at(-1)!.rssMB.toFixed(0)} MB\n`);
    },
  });
  const peakRssMB = process.resourceUsage().maxRSS / 1024;
  const fetched = Number(
    store.scalar("SELECT count(*) FROM changes WHERE fetch_state = 'done' AND fetch_attempts > 0"),
  );
  store.close();
  if (summary.failures.length > 0) throw new Error(`fetch failed: ${summary.failures.join('; ')}`);
  return { fetched, requests: summary.hosts[0]?.requests, peakRssMB, samples };
}

async function main(): Promise<void> {
  const count = Number(arg('changes') ?? 50_000);
  const pageSize = Number(arg('page') ?? 100);
  const dir = mkdtempSync(path.join(tmpdir(), 'rc-bench-memory-'));
  const self = __filename;
  const children: ChildProcess[] = [];
  try {
    const server = spawn(process.execPath, ['--max-old-space-size=8192', self, '--serve', '--count', String(count)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.push(server);
    const url = await taggedLine(server, 'URL');
    const file = path.join(dir, 'corpus.sqlite');
    const run = spawn(process.execPath, [self, '--run', file, '--url', url, '--page', String(pageSize)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(run);
    const result = JSON.parse(await taggedLine(run, 'RESULT')) as {
      fetched: number;
      peakRssMB: number;
      samples: Sample[];
    };
    server.stdin!.end();
    const at = (n: number) => result.samples.find((s) => s.fetched >= n);
    const marks = [10_000, 25_000, count].filter((n) => n <= count).map((n) => ({ mark: n, ...at(n) }));
    const [first, last] = [marks[0], marks[marks.length - 1]];
    console.log(
      JSON.stringify(
        {
          machine: { cpus: cpus().length, node: process.version, loadavg: loadavg().map((x) => Number(x.toFixed(2))) },
          changes: count,
          fetched: result.fetched,
          peakRssMB: Number(result.peakRssMB.toFixed(1)),
          marks,
          growth: {
            rssMB: Number(((last.rssMB ?? 0) - (first.rssMB ?? 0)).toFixed(1)),
            databaseMB: Number(((last.databaseMB ?? 0) - (first.databaseMB ?? 0)).toFixed(1)),
          },
          files: { databaseMB: size(file) / MB, packMB: size(blobPackPath(file)) / MB },
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
    ? serve(Number(arg('count')))
    : mode === '--run'
      ? runOnce(process.argv[3], String(arg('url')), Number(arg('page'))).then(
          (r) => void process.stdout.write(`RESULT ${JSON.stringify(r)}\n`),
        )
      : main();
entry.catch((e: Error) => {
  console.error(`fetch-memory: ${e.stack ?? e.message}`);
  process.exit(1);
});
