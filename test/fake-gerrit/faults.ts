// Fault injection: a fault matches a request by a regex over its raw path and query (as sent, still
// URL-encoded), fires `times` times (default 1), then the route behaves normally again.
import { mulberry32 } from '../../src/core/ground/stats/bootstrap';

export type FaultKind =
  '429' | '503' | 'reset' | 'truncated' | 'slow' | '500' | 'html' | 'no_xssi' | 'trickle' | 'body' | 'rewrite' | '404';

export interface Fault {
  route: RegExp;
  kind: FaultKind;
  /** How many matching requests this fault spoils; default 1. */
  times?: number;
  /** 429 always sends Retry-After (default 0); 503 sends it only when this is set. */
  retryAfterSeconds?: number;
  /** For `slow`: how long to wait before answering normally (default 200 ms); for `trickle`: between bytes (default 1000 ms). */
  delayMs?: number;
  /** For `body`: a 200 with this JSON text after the XSSI line, as a hostile host would send it. */
  body?: string;
  /** For `rewrite`: the normal answer's JSON text (after the XSSI line) → what is sent instead, as a hostile host would alter it. */
  rewrite?: (json: string) => string;
}

/** Faults at random: each request (robots.txt aside) meets one of `kinds` with probability `rate`, from a seeded PRNG. */
export interface Chaos {
  rate: number;
  seed: number;
  kinds: FaultKind[];
  /** For `slow` and `trickle`. */
  delayMs?: number;
}

/** A seeded PRNG, so a chaos run is the same run every time. */
export const seededRandom = mulberry32;

interface ArmedFault {
  fault: Fault;
  remaining: number;
}

export class FaultList {
  private readonly armed: ArmedFault[] = [];

  add(fault: Fault): void {
    if (!(fault.route instanceof RegExp)) throw new Error('fault.route must be a RegExp');
    this.armed.push({ fault, remaining: fault.times ?? 1 });
  }

  /** The first still-armed fault whose route matches, consumed once; undefined when none applies. */
  take(pathAndQuery: string): Fault | undefined {
    for (const entry of this.armed) {
      if (entry.remaining <= 0) continue;
      entry.fault.route.lastIndex = 0; // a /g or /y regex keeps state between test() calls
      if (!entry.fault.route.test(pathAndQuery)) continue;
      entry.remaining--;
      return entry.fault;
    }
    return undefined;
  }

  /** Faults not yet used up, for tests that check every fault fired. */
  pending(): Fault[] {
    return this.armed.filter((e) => e.remaining > 0).map((e) => e.fault);
  }
}
