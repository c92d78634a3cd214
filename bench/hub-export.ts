// What `export --format hub` costs against the JSONL export of the same build, as a researcher runs them:
//   node bench/run.mjs hub-export --db <built corpus.sqlite> [--runs 3] [--cli dist/cli.js]
// Each run is two fresh processes under GNU time, alternating which goes first: `review-corpus export`
// (the JSONL, its split files and the card) and `review-corpus export --format hub` (Parquet shards per
// split, the Hub card, the reports), each into its own folder in the OS temp folder, removed at the
// end. Wall time and peak RSS (maxRSS of the process, GNU time's %M) per run, medians, the ratio of the
// medians, and output sizes. The hub export's rows are checked against the JSONL's: the card's split
// sizes must add up to the JSONL split files' lines, or the bench fails. Run `npm run build` first.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { arg, median } from './benchArgs';

interface Timed {
  seconds: number;
  peakRssMB: number;
}

function timed(cli: string, args: string[]): Timed {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, cli, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`review-corpus ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
  const [seconds, kb] = r.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  return { seconds, peakRssMB: Math.round(kb / 1024) };
}

function sizeMB(dir: string): number {
  let bytes = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const f = path.join(d, name);
      if (statSync(f).isDirectory()) walk(f);
      else bytes += statSync(f).size;
    }
  };
  walk(dir);
  return Math.round(bytes / 1e5) / 10;
}

/** Newlines in `file`, read 16 MB at a time: a 500k split file is more text than one string holds. */
function lineCount(file: string): number {
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(16 << 20);
  let n = 0;
  try {
    for (let got = readSync(fd, buf); got > 0; got = readSync(fd, buf))
      for (let at = buf.indexOf(10); at >= 0 && at < got; at = buf.indexOf(10, at + 1)) n++;
  } finally {
    closeSync(fd);
  }
  return n;
}

/** The hub card's split sizes against the JSONL split files' lines; throws when they differ. */
function checkRows(jsonlDir: string, hubDir: string): number {
  const card = readFileSync(path.join(hubDir, 'README.md'), 'utf8');
  const hubRows = [...card.matchAll(/^ {4}num_examples: (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  const jsonlRows = readdirSync(path.join(jsonlDir, 'data')).reduce(
    (n, f) => n + lineCount(path.join(jsonlDir, 'data', f)),
    0,
  );
  if (hubRows !== jsonlRows)
    throw new Error(`the hub export holds ${hubRows} rows, the JSONL split files ${jsonlRows}`);
  return hubRows;
}

function main(): void {
  const db = arg('db');
  const runs = Number(arg('runs') ?? 3);
  const cli = path.resolve(arg('cli') ?? 'dist/cli.js');
  if (!db || !Number.isInteger(runs) || runs < 1)
    throw new Error('usage: node bench/run.mjs hub-export --db <built corpus.sqlite> [--runs 3] [--cli dist/cli.js]');
  const root = mkdtempSync(path.join(tmpdir(), 'hub-bench-'));
  const jsonl: Timed[] = [];
  const hub: Timed[] = [];
  let rows = 0;
  let sizes = { jsonl: 0, hub: 0, shards: 0 };
  try {
    for (let i = 0; i < runs; i++) {
      const jsonlDir = path.join(root, `jsonl-${i}`);
      const hubDir = path.join(root, `hub-${i}`);
      mkdirSync(jsonlDir);
      const runJsonl = () =>
        jsonl.push(timed(cli, ['export', '--db', db, '--out', path.join(jsonlDir, 'examples.jsonl')]));
      const runHub = () => hub.push(timed(cli, ['export', '--db', db, '--format', 'hub', '--out', hubDir]));
      if (i % 2 === 0) {
        runJsonl();
        runHub();
      } else {
        runHub();
        runJsonl();
      }
      rows = checkRows(jsonlDir, hubDir);
      sizes = { jsonl: sizeMB(jsonlDir), hub: sizeMB(hubDir), shards: readdirSync(path.join(hubDir, 'data')).length };
      console.error(
        `run ${i + 1}: jsonl ${jsonl.at(-1)!.seconds} s ${jsonl.at(-1)!.peakRssMB} MB, hub ${hub.at(-1)!.seconds} s ${hub.at(-1)!.peakRssMB} MB`,
      );
      rmSync(jsonlDir, { recursive: true, force: true });
      rmSync(hubDir, { recursive: true, force: true });
    }
    const m = (xs: Timed[], k: keyof Timed) => median(xs.map((x) => x[k]));
    console.log(
      JSON.stringify(
        {
          db,
          runs,
          loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
          rowsInSplits: rows,
          medianSeconds: { jsonl: m(jsonl, 'seconds'), hub: m(hub, 'seconds') },
          hubOverJsonl: Math.round((m(hub, 'seconds') / m(jsonl, 'seconds')) * 100) / 100,
          medianPeakRssMB: { jsonl: m(jsonl, 'peakRssMB'), hub: m(hub, 'peakRssMB') },
          raw: { jsonl, hub },
          outputMB: sizes,
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main();
