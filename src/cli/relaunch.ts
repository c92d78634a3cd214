// A whole-corpus command runs in a child process started with glibc's hugetlb tunable
// (core/ground/process/hugePages.ts says when, and why).
//
// The parent only waits. Ctrl-C reaches both through the terminal's process group; a SIGINT sent to
// the parent alone becomes a cancel message, so the child still cancels once, cleanly. If the parent
// dies (kill -9), the child stops too rather than write on unobserved.
import { spawn } from 'node:child_process';
import { CANCEL_MESSAGE } from '../core/ground/process/parentLink';

const FORWARDED: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP'];

/** Runs this same CLI invocation again with `tunables`; resolves with the exit code to end with. */
export function relaunch(tunables: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      env: { ...process.env, GLIBC_TUNABLES: tunables },
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    const onInterrupt = () => child.connected && child.send(CANCEL_MESSAGE);
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
  return 128 + (signal ? (numbers[signal] ?? 0) : 0);
}
