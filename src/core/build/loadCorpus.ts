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
import { eachPaged } from './paged';

export interface ChangeRec {
  id: number;
  hostId: number;
  org: string;
  number: number;
  changeKey: string | null;
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
  for (const h of store.all<{ id: number; org: string }>('SELECT id, org FROM hosts')) orgs.set(h.id, h.org);

  const bots = new Set<string>();
  store.each('SELECT host_id, pseudonym FROM accounts WHERE is_bot = 1', [], (r) => bots.add(`${r.host_id}\0${r.pseudonym}`));

  const changes = new Map<number, ChangeRec>();
  await eachPaged(store,
    'SELECT id, host_id, number, change_key, created, owner, collection_rule, fetch_error FROM changes WHERE id > ?',
    (r) => {
      const org = orgs.get(Number(r.host_id)) ?? String(r.host_id);
      const created = String(r.created);
      const window = windowOf(windows, created);
      const unit = {
        org, number: Number(r.number), created,
        collectionRule: r.collection_rule === null ? null : String(r.collection_rule),
        fetchError: r.fetch_error === null ? null : String(r.fetch_error),
        inSealedWindow: window?.sealed === true,
      };
      changes.set(Number(r.id), {
        id: Number(r.id), hostId: Number(r.host_id), org, number: unit.number, changeKey: r.change_key === null ? null : String(r.change_key), created,
        owner: r.owner === null ? null : String(r.owner), window, removal: firstRemoval(COLLECTION_RULES, unit, ctx), patchSets: new Map(),
      });
    }, signal);

  store.each('SELECT change_id, patch_set, kind FROM revisions', [], (r) => {
    const change = changes.get(Number(r.change_id));
    if (change && !change.removal) change.patchSets.set(Number(r.patch_set), r.kind === null ? null : String(r.kind));
  });

  const confirmedFlags = new Set<string>();
  store.each("SELECT example_key FROM flags WHERE status = 'confirmed'", [], (r) => confirmedFlags.add(String(r.example_key)));
  return { config, windows, ctx, orgs, bots, changes, confirmedFlags };
}
