// Reads the stored records the build needs into in-memory indexes: config, windows, hosts, bot
// accounts, changes (with their collection decision), revisions and confirmed flags.
import { effectiveWindows, windowOf } from '../../ground/config/windows';
import { validateCorpusConfig } from '../../rules/corpusJson/loadConfig';
import type { CorpusConfig, WindowConfig } from '../../ground/config/types';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';
import { normaliseAcknowledgement } from '../../rules/comments/acknowledgement';
import { COLLECTION_RULES, firstRemoval } from '../../rules/funnel';
import type { Removal, RuleContext } from '../../rules/types';
import { eachPaged, eachRow } from './paged';
import type { SqlValue } from 'sql.js';
import { withStoredCrossWindow } from '../../rules/decontam/crossWindow';

export interface ChangeRec {
  id: number;
  hostId: number;
  org: string;
  number: number;
  changeKey: string | null;
  project: string;
  created: string;
  owner: string | null;
  window: WindowConfig | undefined;
  removal: Removal | null;
  /** Its status was stored before the fetch kept it, so not_merged could not check it. */
  statusUnrecorded: boolean;
  /** Its merge time (ChangeInfo.submitted, ISO 8601); null: not merged, or fetched before schema 15. */
  merged: string | null;
  /** Patch set → revision kind (null: not recorded). Filled for kept changes only. */
  patchSets: Map<number, string | null>;
}

export interface BotFacts {
  /** accounts.service_user: 1, 0, or NULL (not recorded: stored before schema 2). */
  serviceUser: boolean | null;
  /** accounts.bot_pattern. */
  pattern: string | null;
}

/** What CommentUnit says of its author's bot status (bot_account reads it for its evidence). */
export function authorBotFacts(
  corpus: Pick<LoadedCorpus, 'botFacts'>,
  hostId: number,
  author: string | null,
): { authorServiceUser: boolean | null; authorBotPattern: string | null } {
  const facts = author === null ? undefined : corpus.botFacts.get(`${hostId}\0${author}`);
  return { authorServiceUser: facts ? facts.serviceUser : false, authorBotPattern: facts?.pattern ?? null };
}

export interface LoadedCorpus {
  config: CorpusConfig;
  windows: WindowConfig[];
  ctx: RuleContext;
  /** host id → org */
  orgs: Map<number, string>;
  /** `${hostId}\0${pseudonym}` of accounts tagged bots. */
  bots: Set<string>;
  /** `${hostId}\0${pseudonym}` of accounts the host tagged SERVICE_USER. */
  serviceUsers: Set<string>;
  /** `${hostId}\0${pseudonym}` of bots → why they are bots, as the fetch recorded it (bot_account's evidence). */
  botFacts: Map<string, BotFacts>;
  /** Orgs whose account tags are unknown, so bot_account's tag part cannot run there (reports/hostGaps.ts). */
  withoutAccountTags: Set<string>;
  /** Orgs with an account (not a bot by tag or list) whose names no fetch matched against the bot-name patterns. */
  withoutNameChecks: Set<string>;
  /** Per org: listed records the fetch could not store as a change (no usable number); fetch_errors with no key. */
  rejectedListings: Map<string, number>;
  /** Per org: listings the fetch ended before the host said it had no more (listing_cut_short). */
  listingCuts: Map<string, number>;
  changes: Map<number, ChangeRec>;
}

/**
 * The stored config (meta "config"), validated the way corpus.json is. One stored before
 * `decontam.crossWindow` existed reads as it ran then: cross-window decontamination on (crossWindow.ts).
 */
export function storedConfig(store: CorpusStore): CorpusConfig {
  const text = store.getMeta('config');
  if (text === undefined)
    throw new UserError(`${store.file}: no corpus config stored (meta "config"); fetch first or pass a config`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${store.file}: stored config is not valid JSON (${(e as Error).message})`);
  }
  return withStoredCrossWindow(validateCorpusConfig(raw, `${store.file} (stored config)`), raw);
}

/**
 * The full effective config build `buildId` was built with (builds.config); undefined for a build
 * written before builds recorded it. Validated again, so a recorded config this code cannot read is
 * one line naming the build.
 */
export function recordedConfig(store: CorpusStore, buildId: number): CorpusConfig | undefined {
  const text = store.scalar('SELECT config FROM builds WHERE id = ?', [buildId]);
  if (typeof text !== 'string') return undefined;
  return validateCorpusConfig(JSON.parse(text), `${store.file} (build ${buildId}'s recorded config)`);
}

export function ruleContext(config: CorpusConfig): RuleContext {
  const hostBotTemplates = new Map<string, RegExp[]>();
  for (const host of config.hosts) {
    hostBotTemplates.set(
      host.org,
      (host.botTemplates ?? []).map((source, i) => {
        try {
          return new RegExp(source);
        } catch (e) {
          throw new UserError(`hosts[${host.org}].botTemplates[${i}] is not a valid regex (${(e as Error).message})`);
        }
      }),
    );
  }
  return {
    start: config.start,
    rules: config.rules,
    acknowledgements: new Set(config.rules.acknowledgements.map(normaliseAcknowledgement)),
    hostBotTemplates,
  };
}

/**
 * A stored time the build can compare: how the fetch stores Gerrit's (fetchRecords.gerritTime), or the
 * same date and time in Gerrit's own form. Anything else (raw host text older files may hold) is none.
 */
const STORED_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[T ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?Z?$/;

/**
 * A stored time as the fetch writes it (ISO 8601 with milliseconds), so two times compare as strings;
 * null for none, or for anything that is no time. Older files, and Gerrit's own form, are read too.
 */
export function storedIsoTime(value: SqlValue): string | null {
  if (value === null) return null;
  const text = String(value);
  if (!STORED_TIME.test(text)) return null;
  const [date, rest] = text.replace(/Z$/, '').split(/[T ]/);
  const [hms, fraction = ''] = rest.split('.');
  return `${date}T${hms}.${`${fraction}000`.slice(0, 3)}Z`;
}

export async function loadCorpus(
  store: CorpusStore,
  config: CorpusConfig,
  signal?: AbortSignal,
): Promise<LoadedCorpus> {
  const windows = effectiveWindows(store, config);
  const ctx = ruleContext(config);
  const orgs = new Map<number, string>();
  eachRow(store, 'SELECT id, org FROM hosts', [], ([id, org]) => orgs.set(Number(id), String(org)));
  const accounts = loadAccountFacts(store);

  const changes = new Map<number, ChangeRec>();
  await eachPaged(
    store,
    'SELECT id, host_id, number, change_key, created, owner, collection_rule, fetch_error, project, fetch_state, status, submitted, gone_from_host, gone_reason FROM changes WHERE id > ?',
    (row) => {
      const change = readChange(row, orgs, windows, ctx);
      changes.set(change.id, change);
    },
    signal,
  );

  eachRow(store, 'SELECT change_id, patch_set, kind FROM revisions', [], ([changeId, patchSet, kind]) => {
    const change = changes.get(Number(changeId));
    if (change && !change.removal) change.patchSets.set(Number(patchSet), kind === null ? null : String(kind));
  });

  const rejectedListings = new Map<string, number>();
  const listingCuts = new Map<string, number>();
  eachRow(
    store,
    "SELECT h.org, f.name, f.value FROM fetch_counters f JOIN hosts h ON h.id = f.host_id WHERE f.name IN ('rejected_listing_records', 'listing_cut_short')",
    [],
    ([org, name, n]) => (name === 'listing_cut_short' ? listingCuts : rejectedListings).set(String(org), Number(n)),
  );
  return { config, windows, ctx, orgs, ...accounts, rejectedListings, listingCuts, changes };
}

/** The accounts' bot facts, and the hosts whose records cannot decide them all. */
function loadAccountFacts(
  store: CorpusStore,
): Pick<LoadedCorpus, 'bots' | 'serviceUsers' | 'botFacts' | 'withoutAccountTags' | 'withoutNameChecks'> {
  const bots = new Set<string>();
  const botFacts = new Map<string, BotFacts>();
  eachRow(
    store,
    'SELECT host_id, pseudonym, service_user, bot_pattern FROM accounts WHERE is_bot = 1',
    [],
    ([host, pseudonym, serviceUser, pattern]) => {
      bots.add(`${host}\0${pseudonym}`);
      botFacts.set(`${host}\0${pseudonym}`, {
        serviceUser: serviceUser === null ? null : Number(serviceUser) === 1,
        pattern: pattern === null ? null : String(pattern),
      });
    },
  );
  const serviceUsers = new Set<string>();
  eachRow(store, 'SELECT host_id, pseudonym FROM accounts WHERE service_user = 1', [], ([host, pseudonym]) =>
    serviceUsers.add(`${host}\0${pseudonym}`),
  );
  const withoutAccountTags = new Set<string>();
  eachRow(store, "SELECT org FROM hosts WHERE account_tags IS NULL OR account_tags != 'supported'", [], ([org]) =>
    withoutAccountTags.add(String(org)),
  );
  // Accounts stored before names were matched (or only ever seen by id) may be bots by name unseen;
  // a fetch that sees them again with their names decides (fetchRecords.account).
  const withoutNameChecks = new Set<string>();
  eachRow(
    store,
    'SELECT DISTINCT h.org FROM accounts a JOIN hosts h ON h.id = a.host_id WHERE a.names_checked IS NULL AND a.is_bot = 0',
    [],
    ([org]) => withoutNameChecks.add(String(org)),
  );
  return { bots, botFacts, serviceUsers, withoutAccountTags, withoutNameChecks };
}

/** One changes row as the build sees it, with the collection rules decided. */
function readChange(
  [
    id,
    hostId,
    number,
    changeKey,
    createdValue,
    owner,
    collectionRule,
    fetchError,
    project,
    fetchState,
    status,
    submitted,
    goneAt,
    goneReason,
  ]: SqlValue[],
  orgs: ReadonlyMap<number, string>,
  windows: LoadedCorpus['windows'],
  ctx: RuleContext,
): ChangeRec {
  const org = orgs.get(Number(hostId)) ?? String(hostId);
  // Only a time the fetch read strictly is compared or windowed (older files may hold raw host text).
  const stored = String(createdValue);
  const created = STORED_TIME.test(stored) ? stored : '';
  const window = created === '' ? undefined : windowOf(windows, created);
  const unit = {
    org,
    number: Number(number),
    created,
    status: status === null ? null : String(status),
    collectionRule: collectionRule === null ? null : String(collectionRule),
    // A change listed but not yet read (an interrupted fetch) has no comments to build from.
    fetchError:
      fetchError !== null
        ? String(fetchError)
        : created === ''
          ? `unreadable created time ${JSON.stringify(stored.slice(0, 80))}`
          : collectionRule === null && fetchState !== 'done'
            ? 'not fetched yet: the fetch was interrupted; run it again to resume'
            : null,
    inSealedWindow: window?.sealed === true,
    project: String(project),
    goneFromHost: goneAt === null ? null : { at: String(goneAt), status: String(goneReason ?? '') },
  };
  return {
    id: Number(id),
    hostId: Number(hostId),
    org,
    number: unit.number,
    changeKey: changeKey === null ? null : String(changeKey),
    project: String(project),
    created,
    owner: owner === null ? null : String(owner),
    window,
    removal: firstRemoval(COLLECTION_RULES, unit, ctx),
    patchSets: new Map(),
    statusUnrecorded: status === null,
    merged: storedIsoTime(submitted),
  };
}
