// What a fetch shows while it runs, per host: changes fetched of those to fetch, requests and their
// rate, bytes, errors and the time left. The totals are the corpus file's (fetch_counters and the
// changes table), so a fetch resumed after a stop carries on from the figures it stopped at instead of
// starting again from zero. The CLI's stderr and the extension's progress notification print the same
// line (fetchProgressLine), at most once a second.
import { performance } from 'node:perf_hooks';
import type { CorpusStore } from '../ground/store/corpusStore';
import type { HostClientStats } from './hostClientTypes';

export interface HostProgress {
  org: string;
  phase: 'listing' | 'changes' | 'done';
  /** This run's counts. */
  listed: number;
  changesDone: number;
  changesTotal: number;
  requests: number;
  errors: number;
  intervalMs: number;
  /** The corpus file's counts for this host, this run included. */
  totals: FetchTotals;
  /** This run's pace over the last minute; absent until a few seconds have been measured. */
  rate?: { requestsPerMinute: number; changesPerMinute: number };
  /** Time left for the changes still to fetch at that pace; absent while listing or before a rate. */
  etaMs?: number;
}

export interface FetchTotals {
  /** Changes the listings brought, under any collection rule. */
  listed: number;
  /** Changes whose comments were asked for at least once and that wait for nothing more. */
  fetched: number;
  /** Listed changes still to fetch. */
  pending: number;
  requests: number;
  bytes: number;
  errors: number;
}

/** The client's counters as fetch_counters names them; each row holds the sum over every fetch of the host. */
const PERSISTED = {
  requests: 'requests',
  bytes: 'bytes_received',
  errors: 'request_errors',
  answerMs: 'answer_ms',
  waitMs: 'wait_ms',
} as const satisfies Partial<Record<keyof HostClientStats, string>>;
/** Wall time of the host's fetches, summed: with the two times above, what our own work costs per request. */
const FETCH_MS = 'fetch_ms';

export type HostCounters = Record<keyof typeof PERSISTED | 'fetchMs', number>;

/** What fetch_counters holds for a host (0 for a counter never written). */
export function hostCounters(store: CorpusStore, hostId: number): HostCounters {
  const rows = store.all<{ name: string; value: number }>('SELECT name, value FROM fetch_counters WHERE host_id = ?', [
    hostId,
  ]);
  const value = (name: string) => Number(rows.find((r) => r.name === name)?.value ?? 0);
  return {
    requests: value(PERSISTED.requests),
    bytes: value(PERSISTED.bytes),
    errors: value(PERSISTED.errors),
    answerMs: value(PERSISTED.answerMs),
    waitMs: value(PERSISTED.waitMs),
    fetchMs: value(FETCH_MS),
  };
}

/** The host's changes by what is left to do with them. */
export function changeTotals(store: CorpusStore, hostId: number): Pick<FetchTotals, 'listed' | 'fetched' | 'pending'> {
  const row = store.get<{ listed: number; fetched: number | null; pending: number | null }>(
    `SELECT count(*) AS listed,
       sum(fetch_state = 'done' AND fetch_attempts > 0) AS fetched,
       sum(fetch_state = 'listed' AND collection_rule IS NULL) AS pending
     FROM changes WHERE host_id = ?`,
    [hostId],
  );
  return { listed: Number(row?.listed ?? 0), fetched: Number(row?.fetched ?? 0), pending: Number(row?.pending ?? 0) };
}

/** Rates are measured over this much of the recent past. */
const RATE_WINDOW_MS = 60_000;
/** ...and not shown before this much of it has passed. */
const RATE_MIN_MS = 3_000;

/**
 * One host's meter for one fetch run: it writes the client's counters into the file (persist) and
 * decides when a progress line is due (at most every `everyMs`, and always at a change of phase).
 */
export class FetchMeter {
  private readonly base: HostCounters;
  private readonly started = performance.now();
  private written: HostCounters;
  private lastShown = Number.NEGATIVE_INFINITY;
  private lastPhase: HostProgress['phase'] | undefined;
  private readonly samples: { at: number; requests: number; changes: number }[] = [];

  constructor(
    private readonly store: CorpusStore,
    private readonly hostId: number,
    private readonly stats: HostClientStats,
    private readonly everyMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.base = hostCounters(store, hostId);
    this.written = { ...this.base };
  }

  /** The counters as they stand: the file's from before this run, plus this run's. */
  private current(): HostCounters {
    return {
      requests: this.base.requests + this.stats.requests,
      bytes: this.base.bytes + this.stats.bytes,
      errors: this.base.errors + this.stats.errors,
      answerMs: this.base.answerMs + Math.round(this.stats.answerMs),
      waitMs: this.base.waitMs + Math.round(this.stats.waitMs),
      fetchMs: this.base.fetchMs + Math.round(performance.now() - this.started),
    };
  }

  /** Writes the counters that moved since the last call; the caller's next save stores them. */
  persist(): void {
    const now = this.current();
    const names: [keyof HostCounters, string][] = [
      ...(Object.entries(PERSISTED) as [keyof typeof PERSISTED, string][]),
      ['fetchMs', FETCH_MS],
    ];
    for (const [key, name] of names) {
      if (now[key] === this.written[key]) continue;
      this.store.run(
        `INSERT INTO fetch_counters(host_id, name, value) VALUES (?, ?, ?)
         ON CONFLICT(host_id, name) DO UPDATE SET value = excluded.value`,
        [this.hostId, name, now[key]],
      );
    }
    this.written = now;
  }

  /**
   * The progress to show now, totals and rate filled in; undefined when one was shown less than
   * `everyMs` ago in the same phase. Persists the counters whenever it shows one.
   */
  due(p: Omit<HostProgress, 'totals' | 'rate' | 'etaMs'>): HostProgress | undefined {
    const at = this.now();
    if (p.phase === this.lastPhase && at - this.lastShown < this.everyMs) return undefined;
    // A listing's pace says nothing of the changes' pace: each phase is measured on its own.
    if (p.phase !== this.lastPhase) this.samples.length = 0;
    this.lastShown = at;
    this.lastPhase = p.phase;
    this.persist();
    const counters = this.written;
    const totals: FetchTotals = {
      ...changeTotals(this.store, this.hostId),
      requests: counters.requests,
      bytes: counters.bytes,
      errors: counters.errors,
    };
    const rate = this.rate(at, p.requests, p.changesDone);
    const etaMs =
      p.phase === 'changes' && rate && rate.changesPerMinute > 0
        ? (totals.pending / rate.changesPerMinute) * 60_000
        : p.phase === 'done'
          ? 0
          : undefined;
    return { ...p, totals, ...(rate ? { rate } : {}), ...(etaMs === undefined ? {} : { etaMs }) };
  }

  private rate(at: number, requests: number, changes: number): HostProgress['rate'] {
    this.samples.push({ at, requests, changes });
    while (this.samples.length > 2 && at - this.samples[1].at >= RATE_WINDOW_MS) this.samples.shift();
    const first = this.samples[0];
    const span = at - first.at;
    if (span < RATE_MIN_MS) return undefined;
    return {
      requestsPerMinute: ((requests - first.requests) / span) * 60_000,
      changesPerMinute: ((changes - first.changes) / span) * 60_000,
    };
  }
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');
/** "1 change", "2 changes": a count and its noun. */
export const counted = (n: number, noun: string) => `${count(n)} ${Math.round(n) === 1 ? noun : `${noun}s`}`;

/** Bytes in decimal units (kB, MB, GB), as disks are sold. Hand-written: two lines, no dependency. */
export function formatBytes(n: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  const i = n < 1000 ? 0 : Math.min(units.length - 1, Math.floor(Math.log10(n) / 3));
  return i === 0 ? `${count(n)} bytes` : `${(n / 1000 ** i).toFixed(1)} ${units[i]}`;
}

/** A duration to the two largest units that matter: "2 d 4 h", "3 h 5 min", "12 min", "45 s". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return s > 0 ? `${s} s` : 'under 1 s';
}

/** One host's progress, as the CLI's stderr and the extension's progress notification show it. */
export function fetchProgressLine(p: HostProgress): string {
  const t = p.totals;
  const toFetch = t.fetched + t.pending;
  const changes =
    p.phase === 'listing'
      ? `${counted(t.listed, 'change')} listed`
      : `${count(t.fetched)}/${counted(toFetch, 'change')} fetched (${count(t.listed)} listed)`;
  const perMinute = p.rate ? ` (${count(p.rate.requestsPerMinute)}/min)` : '';
  const left =
    p.phase === 'done'
      ? ''
      : p.etaMs !== undefined
        ? `, about ${formatDuration(p.etaMs)} left`
        : p.phase === 'changes'
          ? ', time left: measuring'
          : '';
  return (
    `${p.org}: ${p.phase}, ${changes}, ${counted(t.requests, 'request')}${perMinute}, ${formatBytes(t.bytes)}, ` +
    `${counted(t.errors, 'error')}${left}, pace ${p.intervalMs} ms`
  );
}
