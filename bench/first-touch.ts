// What this VM charges for fresh memory, with and without huge pages, the condition the CLI's huge-page
// relaunch (core/ground/process/hugePages.ts) bets on. Each run is a fresh process that writes one byte into
// each 4 KB page of a fresh buffer, then once more (warm), alternating 4 KB pages and
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1.
//   node bench/run.mjs first-touch [--mb 512] [--runs 3]
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { arg, median } from './benchArgs';
import { currentPlatform, hugePagesTunables } from '../src/core/ground/process/hugePages';

function child(mb: number): void {
  const size = mb << 20;
  const t0 = performance.now();
  const fresh = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i += 4096) fresh[i] = 1;
  const t1 = performance.now();
  for (let i = 0; i < size; i += 4096) fresh[i] = 2;
  console.log(JSON.stringify({ firstMs: t1 - t0, warmMs: performance.now() - t1 }));
}

function main(): void {
  const mb = Number(arg('mb') ?? 512);
  const runs = Number(arg('runs') ?? 3);
  if (process.argv.includes('--child')) return child(mb);
  const huge = hugePagesTunables(currentPlatform()) ?? 'glibc.malloc.hugetlb=1';
  const times: Record<'pages4k' | 'hugePages', { firstMs: number; warmMs: number }[]> = { pages4k: [], hugePages: [] };
  const loadBefore = loadavg().map((l) => Math.round(l * 100) / 100);
  for (let r = 0; r < runs; r++) {
    for (const kind of ['pages4k', 'hugePages'] as const) {
      const env = { ...process.env, GLIBC_TUNABLES: kind === 'hugePages' ? huge : '' };
      const out = spawnSync(
        process.execPath,
        ['-e', 'require(process.argv[1])', process.argv[1], '--child', '--mb', String(mb)],
        { env, encoding: 'utf8' },
      );
      if (out.status !== 0) throw new Error(`child failed: ${out.stderr}`);
      times[kind].push(JSON.parse(out.stdout.trim()));
    }
  }
  const ms = (xs: number[]) => xs.map((x) => Math.round(x));
  console.log(
    JSON.stringify(
      {
        mb,
        runs,
        hugeTunables: huge,
        loadAverageBefore: loadBefore,
        at: new Date().toISOString(),
        firstTouchMs: {
          pages4k: ms(times.pages4k.map((t) => t.firstMs)),
          hugePages: ms(times.hugePages.map((t) => t.firstMs)),
        },
        medianFirstTouchMs: {
          pages4k: Math.round(median(times.pages4k.map((t) => t.firstMs))),
          hugePages: Math.round(median(times.hugePages.map((t) => t.firstMs))),
        },
        medianWarmMs: {
          pages4k: Math.round(median(times.pages4k.map((t) => t.warmMs))),
          hugePages: Math.round(median(times.hugePages.map((t) => t.warmMs))),
        },
      },
      null,
      2,
    ),
  );
}

main();
