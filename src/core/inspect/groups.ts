// What the inspector's tree shows: per organization and window, the kept examples and every rule
// that removed something, with counts straight from the build's decisions.
import type { CorpusStore } from '../store/corpusStore';
import type { StoredWindow } from '../config/windows';

export interface RuleCount {
  stage: string;
  rule: string;
  unit: string;
  count: number;
}

export interface WindowGroup {
  org: string;
  /** null: units whose change falls in no window (e.g. created before the corpus start). */
  window: string | null;
  sealed: boolean;
  sealHash: string | null;
  kept: number;
  rules: RuleCount[];
}

export interface OrgGroup {
  org: string;
  windows: WindowGroup[];
}

export function latestBuildId(store: CorpusStore): number | undefined {
  const id = store.scalar('SELECT max(id) FROM builds WHERE finished_at IS NOT NULL');
  return id === null || id === undefined ? undefined : Number(id);
}

/** Stage order of the funnel, so rule nodes appear in the order the rules ran. */
const STAGE_ORDER = ['collection', 'comments', 'hunks', 'examples', 'duplicates', 'windows'];

export function treeGroups(store: CorpusStore, buildId: number, ruleOrder: readonly string[] = []): OrgGroup[] {
  const windows = store.all<StoredWindow>('SELECT * FROM windows ORDER BY from_date');
  const rows = store.all<{ org: string; window: string | null; stage: string; unit: string; rule: string; n: number }>(
    'SELECT org, window, stage, unit, rule, count(*) AS n FROM decisions WHERE build_id = ? GROUP BY org, window, stage, unit, rule',
    [buildId],
  );
  const orgs = [...new Set(store.all<{ org: string }>('SELECT org FROM hosts ORDER BY org').map((r) => r.org))];
  const rank = (r: RuleCount) => {
    const i = ruleOrder.indexOf(r.rule);
    return STAGE_ORDER.indexOf(r.stage) * 1000 + (i < 0 ? 999 : i);
  };
  return orgs.map((org) => {
    const byWindow = new Map<string | null, WindowGroup>();
    for (const w of windows) {
      byWindow.set(w.name, { org, window: w.name, sealed: w.sealed === 1, sealHash: w.seal_hash, kept: 0, rules: [] });
    }
    for (const r of rows.filter((x) => x.org === org)) {
      let g = byWindow.get(r.window);
      if (!g) {
        g = { org, window: r.window, sealed: false, sealHash: null, kept: 0, rules: [] };
        byWindow.set(r.window, g);
      }
      if (r.rule === 'kept') {
        if (r.unit === 'examples') g.kept += r.n;
      } else {
        g.rules.push({ stage: r.stage, rule: r.rule, unit: r.unit, count: r.n });
      }
    }
    for (const g of byWindow.values()) g.rules.sort((a, b) => rank(a) - rank(b));
    return { org, windows: [...byWindow.values()] };
  });
}

/** The rule ids in funnel order, as the build recorded them. */
export function funnelRuleOrder(store: CorpusStore, buildId: number): string[] {
  const json = store.scalar('SELECT funnel FROM builds WHERE id = ?', [buildId]);
  if (typeof json !== 'string') return [];
  const funnel = JSON.parse(json) as { organizations?: Record<string, { funnel?: { rule: string }[] }> };
  const first = Object.values(funnel.organizations ?? {})[0];
  return (first?.funnel ?? []).map((r) => r.rule);
}
