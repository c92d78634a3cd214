// Reads the stored records the build needs into in-memory indexes: config, windows, hosts, bot
// accounts, changes (with their collection decision), revisions and confirmed flags.
import { effectiveWindows, windowOf } from '../config/windows';
import { validateCorpusConfig } from '../config/loadConfig';
import type { CorpusConfig, WindowConfig } from '../config/types';
import type { CorpusStore } from '../store/corpusStore';
import { UserError } from '../store/errors';
import { normaliseAcknowledgement } from '../rules/comments/acknowledgement';
import { COLLECTION_RULES, firstRemoval } from '../rules/funnel';
import type { Removal, RuleContext } from '../rules/types';
import { eachPaged, eachRow } from './paged';

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
  /** Patch set → revision kind (null: not recorded). Filled for kept changes only. */
  patchSets: Map<number, string | null>;
}

export interface LoadedCorpus {
  config: CorpusConfig;
  windows: WindowConfig[];
  ctx: RuleContext;
  /** host id → org */
  orgs: Map<number, string>;
  /** `${hostId}\0${pseudonym}` of accounts tagged bots. */
  bots: Set<string>;
  changes: Map<number, ChangeRec>;
  confirmedFlags: Set<string>;
}

/** The stored config (meta "config"), validated the way corpus.json is. */
export function storedConfig(store: CorpusStore): CorpusConfig {
  const text = store.getMeta('config');
  if (text === undefined) throw new UserError(`${store.file}: no corpus config stored (meta "config"); fetch first or pass a config`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${store.file}: stored config is not valid JSON (${(e as Error).message})`);
  }
  return validateCorpusConfig(raw, `${store.file} (stored config)`);
}

export function ruleContext(config: CorpusConfig): RuleContext {
  const hostBotTemplates = new Map<string, RegExp[]>();
  for (const host of config.hosts) {
    hostBotTemplates.set(host.org, (host.botTemplates ?? []).map((source, i) => {
      try {
        return new RegExp(source);
      } catch (e) {
        throw new UserError(`hosts[${host.org}].botTemplates[${i}] is not a valid regex (${(e as Error).message})`);
      }
    }));
  }
  return {
    start: config.start,
    rules: config.rules,
    acknowledgements: new Set(config.rules.acknowledgements.map(normaliseAcknowledgement)),
    hostBotTemplates,
  };
}

export async function loadCorpus(store: CorpusStore, config: CorpusConfig, signal?: AbortSignal): Promise<LoadedCorpus> {
  const windows = effectiveWindows(store, config);
  const ctx = ruleContext(config);
  const orgs = new Map<number, string>();
  eachRow(store, 'SELECT id, org FROM hosts', [], ([id, org]) => orgs.set(Number(id), String(org)));

  const bots = new Set<string>();
  eachRow(store, 'SELECT host_id, pseudonym FROM accounts WHERE is_bot = 1', [], ([host, pseudonym]) => bots.add(`${host}\0${pseudonym}`));

  const changes = new Map<number, ChangeRec>();
  await eachPaged(store,
    'SELECT id, host_id, number, change_key, created, owner, collection_rule, fetch_error, project, fetch_state FROM changes WHERE id > ?',
    ([id, hostId, number, changeKey, createdValue, owner, collectionRule, fetchError, project, fetchState]) => {
      const org = orgs.get(Number(hostId)) ?? String(hostId);
      const created = String(createdValue);
      const window = windowOf(windows, created);
      const unit = {
        org, number: Number(number), created,
        collectionRule: collectionRule === null ? null : String(collectionRule),
        // A change listed but not yet read (an interrupted fetch) has no comments to build from.
        fetchError: fetchError !== null ? String(fetchError)
          : collectionRule === null && fetchState !== 'done' ? 'not fetched yet: the fetch was interrupted; run it again to resume' : null,
        inSealedWindow: window?.sealed === true,
      };
      changes.set(Number(id), {
        id: Number(id), hostId: Number(hostId), org, number: unit.number, changeKey: changeKey === null ? null : String(changeKey), project: String(project), created,
        owner: owner === null ? null : String(owner), window, removal: firstRemoval(COLLECTION_RULES, unit, ctx), patchSets: new Map(),
      });
    }, signal);

  eachRow(store, 'SELECT change_id, patch_set, kind FROM revisions', [], ([changeId, patchSet, kind]) => {
    const change = changes.get(Number(changeId));
    if (change && !change.removal) change.patchSets.set(Number(patchSet), kind === null ? null : String(kind));
  });

  const confirmedFlags = new Set<string>();
  eachRow(store, "SELECT example_key FROM flags WHERE status = 'confirmed'", [], ([key]) => confirmedFlags.add(String(key)));
  return { config, windows, ctx, orgs, bots, changes, confirmedFlags };
}
