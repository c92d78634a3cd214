// Fault injection: a fault matches a request by a regex over its raw path and query (as sent, still
// URL-encoded), fires `times` times (default 1), then the route behaves normally again.

export type FaultKind = '429' | '503' | 'reset' | 'truncated' | 'slow' | '500';

export interface Fault {
  route: RegExp;
  kind: FaultKind;
  /** How many matching requests this fault spoils; default 1. */
  times?: number;
  /** 429 always sends Retry-After (default 0); 503 sends it only when this is set. */
  retryAfterSeconds?: number;
  /** For `slow`: how long to wait before answering normally; default 200 ms. */
  delayMs?: number;
}

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
