// The shapes HostClient takes and gives back: options, results and the events it reports.

export interface HostClientOptions {
  /** e.g. https://review.opendev.org, or http://127.0.0.1:PORT/prefix; API paths go under its path. */
  baseUrl: string;
  /**
   * The host's written terms: the least time between two request starts. Counted from when the
   * previous request was answered, so the host sees at least this gap whatever the latency.
   */
  minIntervalMs: number;
  /** Defaults to USER_AGENT (`review-corpus/<version>`). */
  userAgent?: string;
  /** Further attempts after the first, for 429/502/503/504 and transport faults. Default 4. */
  maxRetries?: number;
  /** First backoff ceiling when the host gives no Retry-After. Default 500 ms. */
  baseBackoffMs?: number;
  /** Largest backoff ceiling. Default 60 s. */
  maxBackoffMs?: number;
  /** A Retry-After longer than this ends the retries instead of stalling the build. Default 10 min. */
  maxRetryAfterMs?: number;
  /** Time allowed for the response headers, and for each gap in the body. Default 60 s. */
  requestTimeoutMs?: number;
  /** Time allowed for one whole attempt, headers and body: a body that trickles in is cut off. Default 120 s. */
  requestDeadlineMs?: number;
  /** Longest body read; a longer answer is a failure of reason 'oversized', not retried. Default MAX_RESPONSE_BYTES (bounds.ts). */
  maxResponseBytes?: number;
  /** Log and progress hook; it must not throw (anything it throws is ignored). */
  onEvent?: (e: HostClientEvent) => void;
  /** Aborting stops the current wait or request at once; getJson then rejects with the signal's reason. */
  signal?: AbortSignal;
}

export type HostClientEvent = { host: string } &
  /** One HTTP attempt finished; `status` is absent when the transport failed. */
  (
    | { type: 'request'; path: string; attempt: number; status?: number; elapsedMs: number }
    /** Another attempt follows after `waitMs` (Retry-After or backoff, and never faster than the pace). */
    | { type: 'retry'; path: string; attempt: number; waitMs: number; cause: string }
    /** A getJson call gave up; the same text is in the result's `message`. */
    | {
        type: 'error';
        path: string;
        reason: 'http' | 'malformed' | 'network' | 'oversized';
        status?: number;
        message: string;
      }
    /** The pace in force, once robots.txt is read. */
    | { type: 'pace'; intervalMs: number; crawlDelayMs: number; minIntervalMs: number }
    /** robots.txt disallows `path` for us, so it was not requested. */
    | { type: 'disallowed'; path: string }
  );

export type GerritFailure = {
  ok: false;
  /** 'oversized': longer than maxResponseBytes (never retried: the same answer would come again). */
  reason: 'disallowed' | 'http' | 'malformed' | 'network' | 'oversized';
  status?: number;
  message: string;
};

export type GerritResult<T> = { ok: true; value: T; status: number } | GerritFailure;

export interface HostClientStats {
  /** HTTP attempts sent, robots.txt and retries included. */
  requests: number;
  retries: number;
  /** getJson calls that ended in http, malformed, network or oversized. */
  errors: number;
  /** getJson calls refused because robots.txt disallows the path. */
  disallowed: number;
  /** Bytes of the response bodies received (UTF-8), robots.txt and failed attempts included. */
  bytes: number;
  /** Time from sending each attempt to its whole answer (or its failure), summed. */
  answerMs: number;
  /** Time spent waiting for the pace, Retry-After or a backoff before each attempt, summed. */
  waitMs: number;
}

/** One GET, after retries: the final response (any status), or why none came. */
export type Fetched =
  | { ok: true; status: number; headers: Record<string, string | string[] | undefined>; body: string; json?: unknown }
  | { ok: false; reason: 'http' | 'network' | 'malformed' | 'oversized'; status?: number; message: string };
