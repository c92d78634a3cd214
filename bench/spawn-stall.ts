// How long one child_process.spawn() blocks the calling thread of a process holding a corpus-sized
// buffer: fork() copies the caller's page tables, so the cost follows its resident memory. The
// extension host holds the open corpus whole, and every spawn in it (VS Code's git extension, a
// language server's restart) stalls it this long (BENCHMARKS.md, "The largest corpus one file holds").
// Each child process holds a touched buffer of each size in turn and times spawn('true') `--runs`
// times; once on 4 KB pages, once with GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (as the CLI and the
// extension's worker processes start).
//   node bench/run.mjs spawn-stall [--gb 1,2,4] [--runs 5]
import { spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { arg, median } from './benchArgs';
import { currentPlatform, hugePagesTunables } from '../src/core/ground/process/hugePages';

async function child(sizesGb: number[], runs: number): Promise<void> {
  const held: Buffer[] = [];
  const rows = [];
  for (const gb of [0, ...sizesGb]) {
    if (gb > 0) {
      // Grown to `gb` in all: what is held already counts.
      const b = Buffer.alloc(Math.round(gb * 1024 ** 3) - held.reduce((n, x) => n + x.length, 0));
      for (let i = 0; i < b.length; i += 4096) b[i] = 1;
      held.push(b);
    }
    const ms: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      const c = spawn('true');
      ms.push(performance.now() - t);
      await new Promise((resolve) => c.on('exit', resolve));
    }
    rows.push({
      rssMb: Math.round(process.memoryUsage().rss / 1e6),
      spawnMs: ms.map((x) => Math.round(x * 10) / 10),
      medianMs: Math.round(median(ms) * 10) / 10,
    });
  }
  console.log(JSON.stringify(rows));
}

async function main(): Promise<void> {
  const sizes = String(arg('gb') ?? '1,2,4')
    .split(',')
    .map(Number);
  const runs = Number(arg('runs') ?? 5);
  if (process.argv.includes('--child')) return child(sizes, runs);
  const huge = hugePagesTunables(currentPlatform()) ?? 'glibc.malloc.hugetlb=1';
  const loadBefore = loadavg().map((l) => Math.round(l * 100) / 100);
  const result: Record<string, unknown> = { runs, at: new Date().toISOString(), loadAverageBefore: loadBefore };
  for (const [kind, tunables] of [
    ['pages4k', ''],
    ['hugePages', huge],
  ] as const) {
    const out = spawnSync(
      process.execPath,
      ['-e', 'require(process.argv[1])', process.argv[1], '--child', '--gb', sizes.join(','), '--runs', String(runs)],
      { env: { ...process.env, GLIBC_TUNABLES: tunables }, encoding: 'utf8' },
    );
    if (out.status !== 0) throw new Error(`child failed: ${out.stderr}`);
    result[kind] = JSON.parse(out.stdout.trim());
  }
  console.log(JSON.stringify(result, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
