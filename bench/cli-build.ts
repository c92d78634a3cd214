// A rebuild as a researcher runs it: `review-corpus build --db <copy>` end to end (process start,
// open, build with flag detection, atomic save), timed from outside.
//   node bench/run.mjs cli-build --db /tmp/bench-100k.sqlite [--runs 3] [--cli dist/cli.js]
// Each run copies the corpus to the OS temp folder (the copy is not timed) and runs the CLI on the
// copy in a fresh process, so the benchmark corpus is never written. --cli points at another build of
// the CLI (an older commit's dist/cli.js, say) for a before/after ratio on the same corpus.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { copyCorpus, filesBeside } from '../src/core/ground/store/copyCorpus';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { arg, median } from './benchArgs';

/** GNU time reports the child's peak RSS (%M, KB); without it only wall time is measured. */
function timeCommand(): string | undefined {
  return existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
}

function main(): void {
  const db = arg('db');
  const runs = Number(arg('runs') ?? 3);
  const cli = path.resolve(arg('cli') ?? 'dist/cli.js');
  if (!db || !Number.isInteger(runs) || runs < 1)
    throw new Error('usage: node bench/run.mjs cli-build --db <corpus.sqlite> [--runs 3] [--cli dist/cli.js]');
  if (!existsSync(cli)) throw new Error(`${cli}: no such CLI bundle; run npm run build first`);
  const copy = path.join(tmpdir(), `cli-build-${process.pid}.sqlite`);
  const rssFile = path.join(tmpdir(), `cli-build-${process.pid}.rss`);
  const time = timeCommand();
  const seconds: number[] = [];
  const peaks: number[] = [];
  const load = loadavg();
  try {
    for (let i = 0; i < runs; i++) {
      copyCorpus(db, copy);
      const argv = [process.execPath, cli, 'build', '--db', copy];
      const t0 = performance.now();
      const r = time
        ? spawnSync(time, ['-f', '%M', '-o', rssFile, ...argv], { encoding: 'utf8' })
        : spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
      const ms = performance.now() - t0;
      if (r.status !== 0)
        throw new Error(`run ${i + 1}: review-corpus build failed: ${r.stderr.trim().split('\n').pop()}`);
      const peakMb = time ? Math.round(Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024) : NaN;
      seconds.push(ms / 1000);
      peaks.push(peakMb);
      console.error(
        `run ${i + 1}: ${(ms / 1000).toFixed(2)} s, peak RSS ${peakMb} MB — ${r.stdout.trim().split('\n').pop()}`,
      );
    }
  } finally {
    for (const f of [copy, ...filesBeside(copy)]) rmSync(f, { force: true });
    rmSync(rssFile, { force: true });
  }
  const r2 = (x: number) => Math.round(x * 100) / 100;
  console.log(
    JSON.stringify(
      {
        db,
        bytes: statSync(db).size,
        cli,
        runs,
        loadAverageBefore: load.map(r2),
        seconds: seconds.map(r2),
        medianSeconds: r2(median(seconds)),
        peakRssMb: peaks,
        medianPeakRssMb: median(peaks),
      },
      null,
      2,
    ),
  );
}

try {
  main();
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}
