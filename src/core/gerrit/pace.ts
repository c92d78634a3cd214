// Paces the requests to one host.
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

/**
 * Keeps the request starts the host sees at least an interval apart. The interval is counted from
 * when the previous request was answered (its response headers arrived, or it failed), not from
 * when we sent it: the host had received it by then, so network latency can never squeeze two
 * starts closer together on the host's side. The cost is the previous answer's time-to-first-byte.
 */
export class Pacer {
  private anchor = Number.NEGATIVE_INFINITY;

  /**
   * Resolves when the next request may be sent: `intervalMs` after the previous one was answered,
   * and not before `notBefore` (a monotonic time, e.g. when a Retry-After expires).
   * Returns how long it waited.
   */
  async turn(intervalMs: number, notBefore: number, signal?: AbortSignal): Promise<number> {
    const began = performance.now();
    const at = Math.max(this.anchor + intervalMs, notBefore);
    // Timers may fire a fraction of a millisecond early, so wait until the clock says so.
    for (let left = at - performance.now(); left > 0; left = at - performance.now()) {
      await abortableSleep(Math.ceil(left), signal);
    }
    signal?.throwIfAborted();
    this.anchor = performance.now();
    return this.anchor - began;
  }

  /** The request sent after the last turn() was answered (or failed): the next interval counts from now. */
  answered(): void {
    this.anchor = performance.now();
  }

  /** Monotonic "now", the clock `notBefore` is measured on. */
  static now(): number {
    return performance.now();
  }
}
