// A timed client for the integration bridge's file protocol (test/integration/bridge-server.mjs), for the
// benchmark only. The normal client (test/integration/bridge.ts) polls for answers every 50 ms, and the
// runner's waitFor uses Playwright's back-off (20, 50, 100, 100, then every 500 ms), so a DOM wait measured
// through it is rounded up by tens to hundreds of ms. Here:
//  - pick-up and answer times come from inotify events on the bridge directory (fs.watch), not from polling;
//  - `waitVisible` keeps several short waitFor requests in flight (timeoutMs 100, so Playwright polls every
//    20 ms), staggered so the runner's 50 ms pick-up gaps are covered; the first one that succeeds marks when
//    the element was visible. Detection is late by at most about one Playwright poll plus one CDP round trip.
import {
  existsSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  watch,
  writeFileSync,
  type FSWatcher,
} from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import envNames from '../../../test/integration/env-names.json';

/** One bridge request's times on the extension host's performance clock (ms). */
export interface Timed<T> {
  value: T;
  sentAt: number;
  pickedUpAt: number;
  answeredAt: number;
  /** False when the time came from the fallback poll: up to POLL_MS late. */
  pickedUpPrecise: boolean;
  /** False when the time came from the fallback poll: then it is the answer file's mtime (a few ms early). */
  answeredPrecise: boolean;
}

interface Waiter {
  done: () => boolean;
  resolve: (at: number, precise: boolean) => void;
}

const POLL_MS = 25;
/** Each waitFor in a `waitVisible` burst: short, so Playwright polls every 20 ms instead of backing off. */
const BURST_WAIT_MS = 100;
/** A new waitFor every 40 ms: under the runner's 50 ms pick-up tick, so every tick starts at least one. */
const BURST_EVERY_MS = 40;
let sequence = 0;

export class TimedBridge {
  private readonly waiters = new Map<string, Waiter>();
  private readonly watcher: FSWatcher;
  private readonly poll: NodeJS.Timeout;
  /** How many pick-up and answer times came from the fallback poll (the host was busy when inotify told). */
  fallbacks = { pickups: 0, answers: 0 };

  constructor(readonly dir = bridgeDir()) {
    this.watcher = watch(dir, (_event, name) => {
      const at = performance.now();
      const w = name ? this.waiters.get(name.toString()) : undefined;
      if (w?.done()) this.settle(name!.toString(), at, true);
    });
    // The fallback: when the host was busy, the poll timer can run before the queued watch event, or inotify may
    // drop one. An answer file's mtime then tells when it was written (to the kernel's clock tick, a few ms).
    this.poll = setInterval(() => {
      for (const [name, w] of this.waiters) {
        if (!w.done()) continue;
        const file = path.join(this.dir, name);
        const written =
          name.startsWith('res-') && existsSync(file) ? statSync(file).mtimeMs - performance.timeOrigin : undefined;
        this.settle(name, written ?? performance.now(), false);
      }
    }, POLL_MS);
  }

  private settle(name: string, at: number, precise: boolean): void {
    const w = this.waiters.get(name);
    if (!w) return;
    this.waiters.delete(name);
    if (!precise) this.fallbacks[name.startsWith('req-') ? 'pickups' : 'answers']++;
    w.resolve(at, precise);
  }

  private when(name: string, done: () => boolean): Promise<{ at: number; precise: boolean }> {
    return new Promise((resolve) =>
      this.waiters.set(name, { done, resolve: (at, precise) => resolve({ at, precise }) }),
    );
  }

  /** Sends one request; `picked` resolves when the runner took it, `done` with its answer (or the runner's error). */
  start<T>(
    op: string,
    args: Record<string, unknown>,
    timeoutMs = 30000,
  ): { picked: Promise<number>; done: Promise<Timed<T>> } {
    const id = `bench-${process.pid}-${++sequence}`;
    const request = path.join(this.dir, `req-${id}.json`);
    const answer = path.join(this.dir, `res-${id}.json`);
    const picked = this.when(path.basename(request), () => !existsSync(request));
    const answered = this.when(path.basename(answer), () => existsSync(answer));
    writeFileSync(`${request}.partial`, JSON.stringify({ op, args }));
    const sentAt = performance.now();
    renameSync(`${request}.partial`, request);
    const done = (async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`bench dom.${op}: no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        const [p, a] = await Promise.race([Promise.all([picked, answered]), timeout]);
        const reply = JSON.parse(readFileSync(answer, 'utf8')) as { ok: boolean; value?: T; error?: string };
        unlinkSync(answer);
        if (!reply.ok) throw new Error(`bench dom.${op}: ${reply.error}`);
        return {
          value: reply.value as T,
          sentAt,
          pickedUpAt: p.at,
          answeredAt: a.at,
          pickedUpPrecise: p.precise,
          answeredPrecise: a.precise,
        };
      } finally {
        clearTimeout(timer);
      }
    })();
    return { picked: picked.then((p) => p.at), done };
  }

  send<T>(op: string, args: Record<string, unknown>, timeoutMs = 30000): Promise<Timed<T>> {
    return this.start<T>(op, args, timeoutMs).done;
  }

  /**
   * When an element matching `selector` became visible: the answer time of the first short waitFor that
   * found it. Start it BEFORE the action being timed (after `armed`), and await `visible` after.
   */
  waitVisible(
    selector: string,
    timeoutMs = 30000,
  ): { armed: Promise<number>; visible: Promise<{ at: number; precise: boolean }> } {
    const deadline = performance.now() + timeoutMs;
    let found: { at: number; precise: boolean } | undefined;
    let arm!: (at: number) => void;
    const armed = new Promise<number>((r) => {
      arm = r;
    });
    const visible = (async () => {
      const inFlight: Promise<unknown>[] = [];
      while (found === undefined) {
        if (performance.now() > deadline) {
          await Promise.all(inFlight);
          throw new Error(`bench: ${selector} not visible within ${timeoutMs} ms`);
        }
        const { picked, done } = this.start<null>(
          'waitFor',
          { selector, timeoutMs: BURST_WAIT_MS },
          BURST_WAIT_MS + 15000,
        );
        if (inFlight.length === 0) void picked.then(arm);
        const settled = done.then(
          (r) => {
            if (found === undefined || r.answeredAt < found.at)
              found = { at: r.answeredAt, precise: r.answeredPrecise };
          },
          () => undefined,
        );
        inFlight.push(settled);
        await Promise.race([settled, new Promise((r) => setTimeout(r, BURST_EVERY_MS))]);
      }
      // Let the stragglers answer, so the bridge directory is empty before the next measurement.
      await Promise.all(inFlight);
      return found;
    })();
    return { armed, visible };
  }

  /** Host clock minus page clock (ms), from the `pageClock` answer that came back fastest. */
  private clockOffset: { offsetMs: number; errorMs: number } | undefined;

  /**
   * Aligns the page's clock with this host's: the page's reading lies between the runner taking the request and
   * its answer (both stamped here by inotify), so the midpoint of the narrowest of `n` such windows is within
   * half that window of the truth.
   */
  async calibrate(n = 15): Promise<{ offsetMs: number; errorMs: number }> {
    let best: { offsetMs: number; errorMs: number } | undefined;
    for (let i = 0; i < n; i++) {
      const r = await this.send<number>('pageClock', {});
      if (!r.pickedUpPrecise || !r.answeredPrecise) continue;
      const hostEpoch = performance.timeOrigin + (r.pickedUpAt + r.answeredAt) / 2;
      const errorMs = (r.answeredAt - r.pickedUpAt) / 2;
      if (!best || errorMs < best.errorMs) best = { offsetMs: hostEpoch - r.value, errorMs };
    }
    if (!best) throw new Error('bench: no precise pageClock answer to align the clocks with');
    return (this.clockOffset = best);
  }

  /**
   * When `selector` first showed in a frame (host clock), watched in the page itself (no Playwright polling).
   * `textIn` also asks that an element matching its selector hold its text. Needs `calibrate()` first.
   */
  watchFrame(
    selector: string,
    textIn?: { selector: string; text: string },
    timeoutMs = 30000,
  ): { armed: Promise<void>; seen: Promise<number> } {
    const offset = this.clockOffset;
    if (!offset) throw new Error('bench: watchFrame before calibrate()');
    const id = `w${++sequence}`;
    const armed = this.send<null>('watchVisible', { id, selector, textIn }).then(() => undefined);
    const seen = armed
      .then(() => this.send<number>('watchedAt', { id, timeoutMs }, timeoutMs + 5000))
      .then((r) => r.value + offset.offsetMs - performance.timeOrigin);
    return { armed, seen };
  }

  close(): void {
    this.watcher.close();
    clearInterval(this.poll);
  }
}

function bridgeDir(): string {
  const dir = process.env[envNames.bridge];
  if (!dir)
    throw new Error(`${envNames.bridge} is not set: the benchmark runs under test/integration/run-code-server.mjs`);
  return dir;
}
