// `review-corpus fetch --plan` and "Plan Fetch…": what the next fetch will ask of each host, how long
// that takes at the host's own pace, and how much disk it fills, before anything is fetched. The host
// is asked as little as it can be: robots.txt, then a count of the listing by probes of one change
// (listingCount.ts). Everything else comes from the corpus file when it has fetched enough of that
// host to go by, and otherwise from the priors below, which the plan names. Nothing is written.
import { existsSync, statSync } from 'node:fs';
import type { CorpusConfig, HostConfig } from '../ground/config/types';
import { CorpusStore } from '../ground/store/corpusStore';
import { blobPackPath } from '../ground/store/blobPack';
import { journalPath } from '../ground/store/journal';
import { HostClient, type HostClientEvent } from './hostClient';
import { listingPageSize, listingQuery, newRunSince } from './fetchHost';
import { relistDueKey } from './followHost';
import { countListing, type ListingCount } from './listingCount';
import { hostCounters } from './fetchProgress';
import { userAgentFor } from './userAgent';

/**
 * What the plan assumes where the corpus has not fetched enough of a host to measure it (fewer than
 * MIN_OBSERVED changes). Each is one figure of this project's own measurements (docs/crawling.md says
 * where each comes from); a real host's changes have more files and patch sets, so treat them as a
 * floor, and plan again from your own corpus after the first hours of a crawl.
 */
export const PLAN_PRIORS = {
  /** A comments list, a files list and a diff: a merged change commented on one file in one patch-set pair. */
  requestsPerListedChange: 3,
  /** Raw records of a listed change on disk, database and blob pack: the generated corpus at realistic file lengths. */
  bytesPerListedChange: 16_000,
  /** Our own work between two requests (parsing, pseudonymizing, storing): the bulk fetch bench on loopback. */
  ownWorkMsPerRequest: 1,
} as const;

/** Fewer fetched changes of a host than this and the plan goes by the priors. */
export const MIN_OBSERVED = 20;

export interface PlanOptions {
  signal?: AbortSignal;
  onEvent?: (e: HostClientEvent) => void;
  /** Overrides for tests: small backoffs. */
  clientOptions?: { baseBackoffMs?: number; maxBackoffMs?: number; maxRetries?: number };
}

/** A figure and where it came from. */
export interface Sourced {
  value: number;
  /** 'observed': from the corpus file (or, for the answer time, this plan's own probes); 'prior': PLAN_PRIORS. */
  source: 'observed' | 'prior' | 'probes';
}

export interface HostPlan {
  org: string;
  url: string;
  query: string;
  pageSize: number;
  /** Where the next fetch stands: a new run lists from `since`, an unfinished listing goes on from `offset`. */
  listingFrom: { since: string; offset: number; phase: 'new' | 'listing' | 'changes' };
  count?: ListingCount;
  /** Why the host could not be planned (the count failed); the figures below are then absent. */
  error?: string;
  pace: { intervalMs: number; crawlDelayMs: number; minIntervalMs: number };
  /** Changes the listing will still bring, and listed changes waiting in the file. */
  toList: number;
  pending: number;
  listingPages: number;
  /**
   * Pages of the re-list a fetch after a finished one reads to find changes gone from the host (one per
   * page of the changes stored; followHost.ts), plus one request per change found missing, not foreseen here.
   */
  relistPages: number;
  requestsPerListed: Sourced;
  requestsPerFetched: Sourced;
  requests: number;
  answerMs: Sourced;
  ownWorkMs: Sourced;
  /** Time per request: the answer, then the pace or our own work, whichever is longer. */
  msPerRequest: number;
  timeMs: number;
  bytesPerListed: Sourced;
  bytesPerFetched: Sourced;
  bytes: number;
  /** Requests this plan sent to the host (robots.txt included). */
  asked: number;
  observed: HostObservation | undefined;
}

export interface FetchPlan {
  corpus: CorpusObservation;
  hosts: HostPlan[];
}

/** The corpus file as the plan found it. */
export interface CorpusObservation {
  file: string;
  exists: boolean;
  /** Database, blob pack and journal together. */
  bytes: number;
  listed: number;
  fetched: number;
}

interface HostObservation {
  hostId: number;
  listed: number;
  fetched: number;
  pending: number;
  /** Requests the stored records took: a comments list per fetch attempt, each files list and diff. */
  recordRequests: number;
  checkpoint: { phase: string; list_offset: number; high_water: string | null } | undefined;
  since: string | undefined;
  /** A re-list is due: the next fetch follows a finished one, or one that stopped before its re-list ended. */
  relistDue: boolean;
  serverVersionKnown: boolean;
  counters: ReturnType<typeof hostCounters>;
}

export async function planFetch(config: CorpusConfig, dbFile: string, opts: PlanOptions = {}): Promise<FetchPlan> {
  const userAgent = userAgentFor(config); // no contact, no request: as fetch
  const { corpus, hosts } = await observeCorpus(dbFile, config);
  const plans = await Promise.all(
    config.hosts.map(async (host) => {
      // Each answer's time: their median, since the first (a new connection) can take many times the rest.
      const answers: number[] = [];
      const client = new HostClient({
        baseUrl: host.url,
        minIntervalMs: host.minIntervalMs,
        requestDeadlineMs: host.requestDeadlineMs,
        userAgent,
        signal: opts.signal,
        onEvent: (e) => {
          if (e.type === 'request') answers.push(e.elapsedMs);
          opts.onEvent?.(e);
        },
        ...opts.clientOptions,
      });
      try {
        const probes = { client, answerMs: () => median(answers) };
        return await planHost(host, corpus, hosts.get(host.org), probes, config.start, opts.signal);
      } finally {
        await client.close();
      }
    }),
  );
  return { corpus, hosts: plans };
}

/** Reads what the plan needs from the corpus file, paged (a large file is not loaded), and closes it. */
async function observeCorpus(
  file: string,
  config: CorpusConfig,
): Promise<{ corpus: CorpusObservation; hosts: Map<string, HostObservation> }> {
  const hosts = new Map<string, HostObservation>();
  if (!existsSync(file)) return { corpus: { file, exists: false, bytes: 0, listed: 0, fetched: 0 }, hosts };
  const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
  const bytes = size(file) + size(blobPackPath(file)) + size(journalPath(file));
  const store = await CorpusStore.open(file, { paged: true });
  try {
    for (const host of config.hosts) {
      const id = store.scalar('SELECT id FROM hosts WHERE org = ?', [host.org]);
      if (id === undefined || id === null) continue;
      hosts.set(host.org, observeHost(store, Number(id)));
    }
    const all = store.get<{ listed: number; fetched: number | null }>(
      'SELECT count(*) AS listed, sum(fetch_attempts > 0) AS fetched FROM changes',
    );
    return {
      corpus: { file, exists: true, bytes, listed: Number(all?.listed ?? 0), fetched: Number(all?.fetched ?? 0) },
      hosts,
    };
  } finally {
    store.close();
  }
}

function observeHost(store: CorpusStore, hostId: number): HostObservation {
  const changes = store.get<{
    listed: number;
    fetched: number | null;
    pending: number | null;
    attempts: number | null;
  }>(
    `SELECT count(*) AS listed, sum(fetch_attempts > 0) AS fetched,
       sum(fetch_state = 'listed' AND collection_rule IS NULL) AS pending, sum(fetch_attempts) AS attempts
     FROM changes WHERE host_id = ?`,
    [hostId],
  );
  const lists = Number(
    store.scalar('SELECT count(*) FROM file_lists f JOIN changes c ON c.id = f.change_id WHERE c.host_id = ?', [
      hostId,
    ]),
  );
  // A diff robots.txt refused was never asked for.
  const diffs = Number(
    store.scalar(
      `SELECT count(*) FROM diffs d JOIN changes c ON c.id = d.change_id WHERE c.host_id = ?
       AND (d.fetch_error IS NULL OR d.fetch_error NOT LIKE '%robots.txt disallows%')`,
      [hostId],
    ),
  );
  const since = store.getMeta(`fetch_since:${hostId}`);
  return {
    hostId,
    listed: Number(changes?.listed ?? 0),
    fetched: Number(changes?.fetched ?? 0),
    pending: Number(changes?.pending ?? 0),
    recordRequests: Number(changes?.attempts ?? 0) + lists + diffs,
    checkpoint: store.get('SELECT phase, list_offset, high_water FROM fetch_checkpoints WHERE host_id = ?', [hostId]),
    since,
    relistDue: store.getMeta(relistDueKey(hostId)) !== undefined,
    serverVersionKnown: store.scalar('SELECT account_tags FROM hosts WHERE id = ?', [hostId]) !== null,
    counters: hostCounters(store, hostId),
  };
}

/** Where the next fetch of the host begins, as fetchHost decides it. */
function listingFrom(observed: HostObservation | undefined, start: string): HostPlan['listingFrom'] {
  const cp = observed?.checkpoint;
  if (cp?.phase === 'listing') return { since: observed?.since ?? start, offset: cp.list_offset, phase: 'listing' };
  if (cp?.phase === 'changes') return { since: observed?.since ?? start, offset: cp.list_offset, phase: 'changes' };
  return { since: newRunSince(cp?.high_water ?? null, start), offset: 0, phase: 'new' };
}

/** The client that asks the host for the plan, and the median time of its answers so far (0 before any). */
interface Probes {
  client: HostClient;
  answerMs: () => number;
}

function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function planHost(
  host: HostConfig,
  corpus: CorpusObservation,
  observed: HostObservation | undefined,
  probes: Probes,
  start: string,
  signal: AbortSignal | undefined,
): Promise<HostPlan> {
  const client = probes.client;
  const from = listingFrom(observed, start);
  const query = listingQuery(host, from.since);
  const pageSize = listingPageSize(host);
  let count: ListingCount | undefined;
  let error: string | undefined;
  // Counted even when the listing is done (it also reads robots.txt, and so the pace).
  try {
    count = await countListing(client, query, pageSize, signal);
  } catch (e) {
    signal?.throwIfAborted();
    error = (e as Error).message;
  }
  const toList = count && from.phase !== 'changes' ? Math.max(0, count.changes - from.offset) : 0;
  const pending = observed?.pending ?? 0;
  const listingPages = from.phase === 'changes' ? 0 : Math.max(1, Math.ceil(toList / pageSize));
  const relistDue =
    observed !== undefined && (observed.relistDue || (from.phase === 'new' && observed.checkpoint !== undefined));
  const relistPages = relistDue ? Math.max(1, Math.ceil(observed.listed / pageSize)) : 0;
  const rates = observedRates(observed, corpus, probes);
  const setup = 1 + (observed?.serverVersionKnown ? 0 : 1); // robots.txt; the server's version once per corpus
  const requests = Math.round(
    setup +
      listingPages +
      relistPages +
      toList * rates.requestsPerListed.value +
      pending * rates.requestsPerFetched.value,
  );
  const pace = {
    intervalMs: client.currentIntervalMs(),
    crawlDelayMs: client.crawlDelayMs() ?? 0,
    minIntervalMs: host.minIntervalMs,
  };
  const msPerRequest = rates.answerMs.value + Math.max(pace.intervalMs, rates.ownWorkMs.value);
  return {
    org: host.org,
    url: host.url,
    query,
    pageSize,
    listingFrom: from,
    count,
    error,
    pace,
    toList,
    pending,
    listingPages,
    relistPages,
    ...rates,
    requests,
    msPerRequest,
    timeMs: requests * msPerRequest,
    bytes: toList * rates.bytesPerListed.value + pending * rates.bytesPerFetched.value,
    asked: client.stats.requests,
    observed,
  };
}

/** Requests, time and bytes per change: the corpus's own where it has fetched enough, else the priors. */
function observedRates(
  o: HostObservation | undefined,
  corpus: CorpusObservation,
  probes: Probes,
): Pick<
  HostPlan,
  'requestsPerListed' | 'requestsPerFetched' | 'answerMs' | 'ownWorkMs' | 'bytesPerListed' | 'bytesPerFetched'
> {
  const prior = (value: number): Sourced => ({ value, source: 'prior' });
  const observed = (value: number): Sourced => ({ value, source: 'observed' });
  // Per change the listing has dealt with (fetched, or ruled out by it); changes still waiting have cost nothing yet.
  const dealt = o ? o.listed - o.pending : 0;
  const enough = o !== undefined && o.fetched >= MIN_OBSERVED && dealt > 0;
  const c = o?.counters;
  const timed = c !== undefined && c.requests >= MIN_OBSERVED;
  const sized = corpus.exists && corpus.fetched >= MIN_OBSERVED;
  return {
    requestsPerListed: enough ? observed(o.recordRequests / dealt) : prior(PLAN_PRIORS.requestsPerListedChange),
    requestsPerFetched: enough ? observed(o.recordRequests / o.fetched) : prior(PLAN_PRIORS.requestsPerListedChange),
    answerMs: timed ? observed(c.answerMs / c.requests) : { value: probes.answerMs(), source: 'probes' },
    ownWorkMs: timed
      ? observed(Math.max(0, (c.fetchMs - c.answerMs - c.waitMs) / c.requests))
      : prior(PLAN_PRIORS.ownWorkMsPerRequest),
    bytesPerListed: sized ? observed(corpus.bytes / corpus.listed) : prior(PLAN_PRIORS.bytesPerListedChange),
    bytesPerFetched: sized ? observed(corpus.bytes / corpus.fetched) : prior(PLAN_PRIORS.bytesPerListedChange),
  };
}
