// `review-corpus fetch`: reads every host of a corpus config into the corpus file, hosts in parallel,
// each through its own polite client. Salt-less runs stop before any request.
import type { CorpusConfig } from '../ground/config/types';
import { redactConfig } from '../ground/config/configFile';
import { effectiveWindows, syncWindows, windowOf } from '../ground/config/windows';
import type { CorpusStore } from '../ground/store/corpusStore';
import { UserError } from '../ground/store/errors';
import { HostClient, type HostClientEvent } from './hostClient';
import { fetchHost, type HostProgress } from './fetchHost';
import { BotNameMatcher, botNamePatternsOf } from './botNames';
import { Pseudonymizer } from './pseudonymize';
import { userAgentFor } from './userAgent';

export interface FetchOptions {
  salt: string | undefined;
  signal?: AbortSignal;
  /** Each host's progress, at most every progressEveryMs (default 1 s) and at each change of phase. */
  onProgress?: (p: HostProgress) => void;
  progressEveryMs?: number;
  onEvent?: (e: HostClientEvent) => void;
  /** Write the file at most this often while fetching (and always at the end). Default 2 s. */
  checkpointEveryMs?: number;
  /** Overrides for tests: small backoffs. */
  clientOptions?: {
    baseBackoffMs?: number;
    maxBackoffMs?: number;
    maxRetries?: number;
    requestTimeoutMs?: number;
    requestDeadlineMs?: number;
    maxResponseBytes?: number;
  };
}

export interface FetchSummary {
  hosts: HostProgress[];
  failures: string[];
}

/** Stores the config the build will read (the salt is only ever an environment variable's name). */
export function storeConfig(store: CorpusStore, config: CorpusConfig): void {
  store.setMeta('config', JSON.stringify(redactConfig(config)));
  store.setMeta('corpus_name', config.name);
}

export async function fetchCorpus(store: CorpusStore, config: CorpusConfig, opts: FetchOptions): Promise<FetchSummary> {
  if (!opts.salt) throw new UserError(`no salt: set the environment variable ${config.salt.env} (nothing was fetched)`);
  const salt = opts.salt;
  const userAgent = userAgentFor(config); // throws, naming the config, before anything is stored
  store.transaction(() => {
    storeConfig(store, config);
    syncWindows(store, config);
    for (const h of config.hosts) {
      store.run('INSERT INTO hosts(org, url) VALUES (?, ?) ON CONFLICT(org) DO UPDATE SET url = excluded.url', [
        h.org,
        h.url,
      ]);
    }
  });
  const windows = effectiveWindows(store, config);
  reopenUnsealed(store, windows);

  let lastSave = Date.now();
  const every = opts.checkpointEveryMs ?? 2000;
  const checkpoint = () => {
    if (Date.now() - lastSave >= every) {
      store.save();
      lastSave = Date.now();
    }
  };

  const failures: string[] = [];
  const results = await Promise.all(
    config.hosts.map(async (host) => {
      const hostId = Number(store.scalar('SELECT id FROM hosts WHERE org = ?', [host.org]));
      const client = new HostClient({
        baseUrl: host.url,
        minIntervalMs: host.minIntervalMs,
        requestDeadlineMs: host.requestDeadlineMs,
        userAgent,
        signal: opts.signal,
        onEvent: opts.onEvent,
        ...opts.clientOptions,
      });
      try {
        return await fetchHost({
          store,
          config,
          host,
          hostId,
          windows,
          client,
          signal: opts.signal,
          checkpoint,
          onProgress: opts.onProgress,
          progressEveryMs: opts.progressEveryMs,
          pseudonyms: new Pseudonymizer(
            salt,
            pseudonymHost(host.url),
            new Set(host.botAccounts ?? []),
            new BotNameMatcher(botNamePatternsOf(host)),
          ),
        });
      } catch (e) {
        if (opts.signal?.aborted) throw e;
        failures.push((e as Error).message);
        return undefined;
      } finally {
        await client.close();
      }
    }),
  ).finally(() => store.save());
  return { hosts: results.filter((r): r is HostProgress => r !== undefined), failures };
}

/**
 * The host part of the pseudonym: host name and path, without scheme or port, so that the same
 * account keeps its pseudonym when a host moves to another port or from http to https.
 */
export function pseudonymHost(url: string): string {
  const u = new URL(url);
  return `${u.hostname}${u.pathname.replace(/\/+$/, '')}`;
}

/** Changes held back by a seal that has since been lifted are fetched on this run. */
function reopenUnsealed(store: CorpusStore, windows: ReturnType<typeof effectiveWindows>): void {
  const held = store.all<{ id: number; created: string }>(
    "SELECT id, created FROM changes WHERE collection_rule = 'sealed_window'",
  );
  store.transaction(() => {
    for (const c of held) {
      if (!windowOf(windows, c.created)?.sealed) {
        store.run("UPDATE changes SET collection_rule = NULL, fetch_state = 'listed' WHERE id = ?", [c.id]);
      }
    }
  });
}
