// Reading a host's robots.txt (RFC 9309) into the two things the client needs: which URLs it may
// request, and the Crawl-delay that applies to us.
import robotsParser from 'robots-parser';
import type { Fetched, GerritFailure } from './hostClientTypes';

export interface RobotsRules {
  isAllowed(url: string): boolean;
  crawlDelayMs: number;
}

/** RFC 9309 §2.5: parsers must read at least 500 KiB; anything beyond may be ignored. */
const MAX_ROBOTS_CHARS = 500 * 1024;
const MAX_REDIRECTS = 5;

export const ALLOW_ALL: RobotsRules = { isAllowed: () => true, crawlDelayMs: 0 };

export function parseRobots(robotsUrl: string, text: string, token: string): RobotsRules {
  const robots = robotsParser(robotsUrl, text.slice(0, MAX_ROBOTS_CHARS));
  const delay = robots.getCrawlDelay(token);
  return {
    // undefined means the URL is on another origin, which this file cannot speak for; we only
    // ever ask about our own origin, so treat that as a refusal rather than guess.
    isAllowed: (url) => robots.isAllowed(url, token) === true,
    crawlDelayMs: typeof delay === 'number' && delay > 0 ? Math.round(delay * 1000) : 0,
  };
}

export type RobotsLoad = { ok: true; rules: RobotsRules } | GerritFailure;

/**
 * Fetches and reads /robots.txt at the root of `base`'s origin: a REST root under a path
 * (https://gerrit.wikimedia.org/r) has its robots.txt at https://gerrit.wikimedia.org/robots.txt
 * (RFC 9309 §2.3), never under the path. `get` takes an origin-absolute path.
 * - 2xx: its rules. 4xx (after 429 retries): "unavailable", so everything is allowed, no delay.
 * - 3xx: followed on the same origin, up to 5 hops (the client holds one connection, to one origin).
 * - 5xx or no answer: "unreachable". RFC 9309 says to assume a complete disallow; we report a
 *   failure instead, so nothing is requested now, nothing is miscounted as disallowed, and the
 *   next call tries robots.txt again.
 */
export async function loadRobots(
  base: URL,
  token: string,
  get: (path: string) => Promise<Fetched>,
): Promise<RobotsLoad> {
  const origin = new URL(base.origin);
  let path = '/robots.txt';
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const res = await get(path);
    if (!res.ok) return { ...res, message: `robots.txt: ${res.message}` };
    if (res.status >= 200 && res.status < 300) {
      return { ok: true, rules: parseRobots(new URL(path, origin).href, res.body, token) };
    }
    if (res.status >= 300 && res.status < 400) {
      const next = redirectTarget(new URL(path, origin), res.headers.location);
      if (next === undefined) {
        return {
          ok: false,
          reason: 'http',
          status: res.status,
          message: `robots.txt redirects away from ${origin.origin}; use the final origin as the host url`,
        };
      }
      path = next;
      continue;
    }
    if (res.status >= 400 && res.status < 500) return { ok: true, rules: ALLOW_ALL };
    return { ok: false, reason: 'http', status: res.status, message: `robots.txt: HTTP ${res.status}` };
  }
  return { ok: true, rules: ALLOW_ALL }; // RFC 9309 §2.3.1.2: too many redirects counts as unavailable
}

/** A redirect's Location, resolved against the URL that answered it; undefined when it leaves the origin. */
function redirectTarget(from: URL, location: string | string[] | undefined): string | undefined {
  const value = Array.isArray(location) ? location[0] : location;
  if (!value) return undefined;
  try {
    const target = new URL(value, from);
    return target.origin === from.origin ? target.pathname + target.search : undefined;
  } catch {
    return undefined;
  }
}
