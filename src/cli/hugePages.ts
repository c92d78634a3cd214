// A command that holds a whole corpus in memory (one Buffer for the file and the build's room) runs
// in a child process that asks for transparent huge pages. On Linux machines where THP is "madvise"
// (the default of many distributions and VMs), the first touch of each 4 KB page can cost more than
// copying it; glibc puts its large allocations on huge pages only when GLIBC_TUNABLES holds
// glibc.malloc.hugetlb=1, which it reads at process start. BENCHMARKS.md has the figures.
//
// The parent only waits. Ctrl-C reaches both through the terminal's process group; a SIGINT sent to
// the parent alone becomes a cancel message, so the child still cancels once, cleanly. If the parent
// dies (kill -9), the child stops too rather than write on unobserved.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const HUGE_PAGES_TUNABLE = 'glibc.malloc.hugetlb=1';

interface Platform {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** Contents of /sys/kernel/mm/transparent_hugepage/enabled, e.g. "always [madvise] never". */
  thpMode: () => string | undefined;
  /** Whether the C library is glibc (the tunable is glibc's). */
  glibc: () => boolean;
}

/** The GLIBC_TUNABLES value to relaunch with, or undefined when a relaunch would gain nothing. */
export function hugePagesTunables({ platform, env, thpMode, glibc }: Platform): string | undefined {
  if (platform !== 'linux' || env.REVIEW_CORPUS_NO_HUGE_PAGES) return undefined;
  const current = env.GLIBC_TUNABLES ?? '';
  // Already set (by us, one level up, or by the user's own choice): never relaunch twice.
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
    glibc: () => Boolean((process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime),
  };
}

const FORWARDED: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP'];

/** Runs this same CLI invocation again with `tunables`; resolves with the exit code to end with. */
export function relaunch(tunables: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      env: { ...process.env, GLIBC_TUNABLES: tunables },
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    const onInterrupt = () => child.connected && child.send({ cancel: true });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const forwards = FORWARDED.map((s) => [s, forward(s)] as const);
    process.on('SIGINT', onInterrupt);
    for (const [s, f] of forwards) process.on(s, f);
    const done = () => {
      process.off('SIGINT', onInterrupt);
      for (const [s, f] of forwards) process.off(s, f);
    };
    child.once('error', (e) => {
      done();
      reject(e);
    });
    child.once('exit', (code, signal) => {
      done();
      resolve(exitCodeOf(code, signal));
    });
  });
}

/** A child killed by a signal ends its parent with the shell's 128 + signal number. */
function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return 128 + (signal ? numbers[signal] ?? 0 : 0);
}

/** In a relaunched child: the parent's cancel message aborts like Ctrl-C, and its death ends this process. */
export function listenToParent(onCancel: () => void): void {
  if (!process.send) return;
  process.on('message', (m: unknown) => {
    if ((m as { cancel?: unknown } | null)?.cancel === true) onCancel();
  });
  process.on('disconnect', () => process.exit(1));
  // The channel must not keep the command alive once its work is done.
  process.channel?.unref();
}
