// Keeps consecutive request starts to one host at least an interval apart.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** Waits `ms`, or rejects with the signal's reason as soon as it is aborted. */
export async function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  if (ms <= 0) return;
  try {
    await sleep(ms, undefined, { signal });
  } catch (e) {
    signal?.throwIfAborted();
    throw e;
  }
}

export class Pacer {
  private lastStart = Number.NEGATIVE_INFINITY;

  /**
   * Resolves when a request may start: `intervalMs` after the previous start, and not before
   * `notBefore` (a monotonic time, e.g. when a Retry-After expires). Records the start.
   * Returns how long it waited.
   */
  async turn(intervalMs: number, notBefore: number, signal?: AbortSignal): Promise<number> {
    const began = performance.now();
    const at = Math.max(this.lastStart + intervalMs, notBefore);
    // Timers may fire a fraction of a millisecond early, so wait until the clock says so.
    for (let left = at - performance.now(); left > 0; left = at - performance.now()) {
      await abortableSleep(Math.ceil(left), signal);
    }
    signal?.throwIfAborted();
    this.lastStart = performance.now();
    return this.lastStart - began;
  }

  /** Monotonic "now", the clock `notBefore` is measured on. */
  static now(): number {
    return performance.now();
  }
}
