// The one client through which a Gerrit host is read: one connection, one request at a time, at
// the host's pace, honouring robots.txt and Retry-After.
//
// Why a retry loop of our own rather than undici's RetryAgent / interceptors.retry:
// - undici's RetryHandler resumes a body that was cut mid-way with a `Range:` request. Gerrit's
//   JSON endpoints ignore Range, so a truncated response ends in "server does not support the range
//   header" instead of a clean re-fetch (checked against undici 7.30).
// - its default wait is a bare setTimeout that knows neither our pace nor our AbortSignal. Its
//   `retry` callback could be replaced, but that callback would then hold all of the logic below
//   (Retry-After, backoff, pace, cancellation) while undici only re-dispatched.
import { Client } from 'undici';
import type { Readable } from 'node:stream';
import { MAX_RESPONSE_BYTES, sizeText } from './bounds';
import { Pacer } from './pace';
import { loadRobots, type RobotsRules } from './robots';
import { RETRY_STATUSES, backoffMs, describeError, isRetryableError, retryAfterMs } from './retryPolicy';
import { ROBOTS_TOKEN, USER_AGENT } from './userAgent';
import { parseGerritReply } from './xssi';
import type {
  Fetched,
  GerritFailure,
  GerritResult,
  HostClientEvent,
  HostClientOptions,
  HostClientStats,
} from './hostClientTypes';

export type {
  Fetched,
  GerritFailure,
  GerritResult,
  HostClientEvent,
  HostClientOptions,
  HostClientStats,
} from './hostClientTypes';

type EventBody = HostClientEvent extends infer E ? (E extends HostClientEvent ? Omit<E, 'host'> : never) : never;

export class HostClient {
  readonly stats: HostClientStats = {
    requests: 0,
    retries: 0,
    errors: 0,
    disallowed: 0,
    bytes: 0,
    answerMs: 0,
    waitMs: 0,
  };
  private readonly base: URL;
  private readonly client: Client;
  private readonly pacer = new Pacer();
  private readonly userAgent: string;
  private readonly maxRetries: number;
  private readonly baseBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly timeoutMs: number;
  private readonly deadlineMs: number;
  private readonly maxResponseBytes: number;
  private robots: RobotsRules | undefined;
  /** Every getJson chains onto this, so calls run strictly one after another. */
  private tail: Promise<unknown> = Promise.resolve();
  private closed: Promise<void> | undefined;

  constructor(private readonly options: HostClientOptions) {
    this.base = new URL(options.baseUrl);
    if (!this.base.pathname.endsWith('/')) this.base.pathname += '/';
    this.userAgent = options.userAgent ?? USER_AGENT;
    this.maxRetries = Math.max(0, options.maxRetries ?? 4);
    this.baseBackoffMs = options.baseBackoffMs ?? 500;
    this.maxBackoffMs = options.maxBackoffMs ?? 60_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 10 * 60_000;
    this.timeoutMs = options.requestTimeoutMs ?? 60_000;
    this.deadlineMs = options.requestDeadlineMs ?? 120_000;
    this.maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    // A Client is a single connection (re-opened if the host closes it); pipelining 1 keeps at most
    // one request on it.
    this.client = new Client(this.base.origin, {
      pipelining: 1,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connect: { timeout: this.timeoutMs },
    });
  }

  /** The least time between request starts now in force: max(robots Crawl-delay, minIntervalMs). */
  currentIntervalMs(): number {
    return Math.max(this.robots?.crawlDelayMs ?? 0, this.options.minIntervalMs);
  }

  /** robots.txt's Crawl-delay for us, once robots.txt has been read. */
  crawlDelayMs(): number | undefined {
    return this.robots?.crawlDelayMs;
  }

  /**
   * GETs `pathAndQuery` (relative to the base URL's path, e.g. `/changes/?q=...`) and parses the
   * JSON. Resolves with a failure for every problem the host causes; rejects only when the signal
   * is aborted (with its reason) or after close().
   */
  getJson<T>(pathAndQuery: string): Promise<GerritResult<T>> {
    if (this.closed) return Promise.reject(new Error(`HostClient for ${this.base.host} is closed`));
    const run = this.tail.then(() => this.getJsonNow<T>(pathAndQuery));
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Waits for the request in flight, then closes the connection. */
  close(): Promise<void> {
    this.closed ??= this.tail.then(() => this.client.close());
    return this.closed;
  }

  private async getJsonNow<T>(pathAndQuery: string): Promise<GerritResult<T>> {
    this.options.signal?.throwIfAborted();
    const path = this.apiPath(pathAndQuery);
    const robots = await this.ensureRobots();
    if (!robots.ok) return this.fail(path, robots);
    if (!robots.rules.isAllowed(new URL(path, this.base.origin).href)) {
      this.stats.disallowed++;
      this.emit({ type: 'disallowed', path });
      return { ok: false, reason: 'disallowed', message: `robots.txt disallows ${path} for ${ROBOTS_TOKEN}` };
    }
    const res = await this.fetchWithRetries(path, true);
    if (!res.ok) return this.fail(path, res);
    if (res.status < 200 || res.status >= 300) {
      return this.fail(path, { ok: false, reason: 'http', status: res.status, message: `HTTP ${res.status}` });
    }
    return { ok: true, value: res.json as T, status: res.status };
  }

  private async ensureRobots(): Promise<{ ok: true; rules: RobotsRules } | GerritFailure> {
    if (this.robots) return { ok: true, rules: this.robots };
    const loaded = await loadRobots(this.base, ROBOTS_TOKEN, (p) => this.fetchWithRetries(p));
    if (!loaded.ok) return loaded;
    this.robots = loaded.rules;
    this.emit({
      type: 'pace',
      intervalMs: this.currentIntervalMs(),
      crawlDelayMs: loaded.rules.crawlDelayMs,
      minIntervalMs: this.options.minIntervalMs,
    });
    return loaded;
  }

  /**
   * One GET with bounded retries. Every attempt, retries included, waits for the pace; a retry also
   * waits for Retry-After, or for a jittered exponential backoff when the host gave none.
   */
  private async fetchWithRetries(path: string, json = false): Promise<Fetched> {
    const signal = this.options.signal;
    let notBefore = Pacer.now();
    for (let attempt = 1; ; attempt++) {
      this.stats.waitMs += await this.pacer.turn(this.currentIntervalMs(), notBefore, signal);
      const sent = await this.attemptOnce(path, attempt);
      if (sent.done) return sent.outcome;
      let outcome = sent.outcome;
      const retryAfter = sent.retryAfter;

      // A 2xx that is not Gerrit JSON (cut short, an HTML page, no XSSI line) is a fault of the moment
      // like a 503: the host sends the real answer again once it recovers.
      if (json && outcome.ok && outcome.status >= 200 && outcome.status < 300) {
        const parsed = parseGerritReply(outcome.body);
        outcome = parsed.ok
          ? { ...outcome, json: parsed.value }
          : { ok: false, reason: 'malformed', status: outcome.status, message: parsed.message };
      }
      if (outcome.ok && !RETRY_STATUSES.has(outcome.status)) return outcome;
      const final: Fetched = outcome.ok
        ? {
            ok: false,
            reason: 'http',
            status: outcome.status,
            message: `HTTP ${outcome.status} after ${attempt} attempt(s)`,
          }
        : { ...outcome, message: `${outcome.message} after ${attempt} attempt(s)` };
      if (attempt > this.maxRetries) return final;
      if (retryAfter !== undefined && retryAfter > this.maxRetryAfterMs) {
        return {
          ...final,
          message: `${final.message}; the host asks to wait ${Math.round(retryAfter / 1000)} s, more than allowed`,
        };
      }
      const waitMs = retryAfter ?? backoffMs(attempt, this.baseBackoffMs, this.maxBackoffMs);
      notBefore = Pacer.now() + waitMs;
      this.stats.retries++;
      this.emit({
        type: 'retry',
        path,
        attempt,
        waitMs,
        cause: outcome.ok ? `HTTP ${outcome.status}` : outcome.message,
      });
    }
  }

  /**
   * One attempt of a GET: its outcome and the host's Retry-After; `done` when it must not be asked
   * again (an answer too large to read, a network error no retry mends).
   */
  private async attemptOnce(
    path: string,
    attempt: number,
  ): Promise<{ outcome: Fetched; retryAfter?: number; done: boolean }> {
    const signal = this.options.signal;
    const started = Pacer.now();
    const elapsedMs = () => Math.round(Pacer.now() - started);
    this.stats.requests++;
    // One deadline for the whole attempt: undici's timeouts are per gap, so a byte a second never trips them.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.deadlineMs);
    try {
      const res = await this.client.request({
        path,
        method: 'GET',
        headers: { 'user-agent': this.userAgent, accept: 'application/json' },
        signal: signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal,
      });
      this.pacer.answered();
      const body = await readBounded(res.body, res.headers['content-length'], this.maxResponseBytes);
      this.emit({ type: 'request', path, attempt, status: res.statusCode, elapsedMs: elapsedMs() });
      if (body === undefined) {
        // Not a fault of the moment: the same answer would come again, so it is not asked again.
        const message = `the answer is larger than ${sizeText(this.maxResponseBytes)}, more than any Gerrit answer we read`;
        return { done: true, outcome: { ok: false, reason: 'oversized', status: res.statusCode, message } };
      }
      this.stats.bytes += Buffer.byteLength(body);
      return {
        done: false,
        outcome: { ok: true, status: res.statusCode, headers: res.headers, body },
        retryAfter: retryAfterMs(res.headers['retry-after']),
      };
    } catch (e) {
      this.pacer.answered();
      signal?.throwIfAborted();
      this.emit({ type: 'request', path, attempt, elapsedMs: elapsedMs() });
      const late = deadline.signal.aborted;
      if (!late && !isRetryableError(e))
        return { done: true, outcome: { ok: false, reason: 'network', message: describeError(e) } };
      const message = late ? `no complete answer within ${Math.round(this.deadlineMs / 1000)} s` : describeError(e);
      return { done: false, outcome: { ok: false, reason: 'network', message } };
    } finally {
      clearTimeout(timer);
      this.stats.answerMs += Pacer.now() - started;
    }
  }

  private fail(path: string, f: GerritFailure): GerritFailure {
    this.stats.errors++;
    if (f.reason !== 'disallowed')
      this.emit({ type: 'error', path, reason: f.reason, status: f.status, message: f.message });
    return { ...f, message: `GET ${path}: ${f.message}` };
  }

  /** The request path for an API path: under the base URL's path prefix. */
  private apiPath(pathAndQuery: string): string {
    const relative = pathAndQuery.replace(/^\/+/, '');
    const url = new URL(relative, this.base);
    if (url.origin !== this.base.origin) throw new Error(`not a path on ${this.base.origin}: ${pathAndQuery}`);
    return url.pathname + url.search;
  }

  private emit(e: EventBody): void {
    try {
      this.options.onEvent?.({ host: this.base.host, ...e } as HostClientEvent);
    } catch {
      // A faulty log hook must not break a fetch.
    }
  }
}

/**
 * The body as text, or undefined once it is longer than `maxBytes` (told by Content-Length before a
 * byte is read, or counted as it arrives): a host cannot make us hold more than one bound's worth.
 */
async function readBounded(
  body: Readable,
  contentLength: string | string[] | undefined,
  maxBytes: number,
): Promise<string | undefined> {
  const declared = typeof contentLength === 'string' ? Number(contentLength) : NaN;
  const chunks: Buffer[] = [];
  let total = 0;
  if (!(declared > maxBytes)) {
    for await (const chunk of body) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) break;
      chunks.push(chunk as Buffer);
    }
  }
  if (declared > maxBytes || total > maxBytes) {
    body.destroy();
    return undefined;
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
