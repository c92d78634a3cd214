// When a failed attempt is worth another try, and how long to wait before it.

/** 429 and 503 are the host asking us to slow down; 502/504 are a gateway in front of it hiccuping. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * Transport faults worth another try: the connection dropped, was refused or timed out, or a body
 * arrived shorter than announced (undici reports that as a socket error or a length mismatch).
 */
const RETRY_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

export function isRetryableError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRY_ERROR_CODES.has(code);
}

/** A one-line description of a transport error: its code and message, nothing from the host. */
export function describeError(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown } | null;
  const code = typeof err?.code === 'string' ? err.code : 'error';
  const message = typeof err?.message === 'string' ? err.message.split('\n')[0] : String(e);
  return `${code}: ${message}`;
}

/**
 * Milliseconds a `Retry-After` header asks us to wait: either delay-seconds or an HTTP-date
 * (RFC 9110 §10.2.3). Undefined when the header is absent or unreadable, so the caller backs off.
 */
export function retryAfterMs(header: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * Exponential backoff with jitter for retry number `retry` (1-based): the ceiling doubles each time
 * up to `maxMs`, and the wait is drawn from its upper half, so clients that failed together
 * spread out while each still waits at least half the ceiling.
 */
export function backoffMs(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
