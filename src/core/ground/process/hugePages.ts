// Whether a process that will hold a whole corpus in memory should be started with glibc's hugetlb
// tunable. On Linux machines where transparent huge pages are "madvise" (the default of many
// distributions and VMs), the first touch of each 4 KB page can cost more than copying it; glibc puts
// its large allocations (the corpus Buffer and its room) on huge pages only when GLIBC_TUNABLES holds
// glibc.malloc.hugetlb=1, which it reads at process start. BENCHMARKS.md has the figures. The CLI
// relaunches itself with it (src/cli/relaunch.ts); the extension starts its job and saver processes with it.
import { readFileSync } from 'node:fs';

export const HUGE_PAGES_TUNABLE = 'glibc.malloc.hugetlb=1';

export interface Platform {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** Contents of /sys/kernel/mm/transparent_hugepage/enabled, e.g. "always [madvise] never". */
  thpMode: () => string | undefined;
  /** Whether the C library is glibc (the tunable is glibc's). */
  glibc: () => boolean;
}

/** The GLIBC_TUNABLES value to start a whole-corpus process with, or undefined when it would gain nothing. */
export function hugePagesTunables({ platform, env, thpMode, glibc }: Platform): string | undefined {
  if (platform !== 'linux' || env.REVIEW_CORPUS_NO_HUGE_PAGES) return undefined;
  const current = env.GLIBC_TUNABLES ?? '';
  // Already set (by us, one level up, or by the user's own choice): never twice, never against the user.
  if (current.includes('glibc.malloc.hugetlb')) return undefined;
  if (!/\[madvise\]/.test(thpMode() ?? '') || !glibc()) return undefined;
  return current ? `${current}:${HUGE_PAGES_TUNABLE}` : HUGE_PAGES_TUNABLE;
}

export function currentPlatform(): Platform {
  return {
    platform: process.platform,
    env: process.env,
    thpMode: () => {
      try {
        return readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8');
      } catch {
        return undefined;
      }
    },
    glibc: isGlibc,
  };
}

let glibc: boolean | undefined;

/** A diagnostic report takes about 10 ms to gather, so it is asked once per process. */
function isGlibc(): boolean {
  glibc ??= Boolean(
    (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header
      ?.glibcVersionRuntime,
  );
  return glibc;
}
