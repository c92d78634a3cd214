// What the inspector's tree shows: per organization and window, the kept examples and every rule
// that removed something, with counts straight from the build's decisions.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';
import type { StoredWindow } from '../../ground/config/windows';
import type { DatasetFunnel, FunnelRow } from '../../build/reports/funnelReport';
import { FUNNEL } from '../../rules/funnel';
import { isSwitchedOff } from '../../rules/switchedOff';

export interface RuleCount {
  stage: string;
  rule: string;
  unit: string;
  count: number;
  /** The rule could not run on this host: why (count is then 0 and means nothing). */
  notCounted?: string;
  /** The count leaves out a part of the rule that could not run on this host: why. */
  partly?: string;
}

export interface WindowGroup {
  org: string;
  /** null: units whose change falls in no window (e.g. created before the corpus start). */
  window: string | null;
  sealed: boolean;
  sealHash: string | null;
  /** Fetched at least once: such a window can no longer be sealed (config/windows.ts, sealWindow). */
  fetched: boolean;
  kept: number;
  rules: RuleCount[];
}

export interface OrgGroup {
  org: string;
  windows: WindowGroup[];
  /** The comment-count probe's line, as the build's funnel records it. */
  probe?: string;
}

export function latestBuildId(store: CorpusStore): number | undefined {
  const id = store.scalar('SELECT max(id) FROM builds WHERE finished_at IS NOT NULL');
  return id === null || id === undefined ? undefined : Number(id);
}

/** The latest finished build, or a one-line error saying there is none yet. */
export function requireBuild(store: CorpusStore): number {
  const id = latestBuildId(store);
  if (id === undefined) throw new UserError(`${store.file}: no build yet; run review-corpus build --db ${store.file}`);
  return id;
}

/** Stage order of the funnel, so rule nodes appear in the order the rules ran. */
const STAGE_ORDER = ['collection', 'comments', 'hunks', 'examples', 'duplicates', 'decontamination', 'windows'];

/**
 * The tree's groups with their counts. Read from the build's funnel (recorded per organization and
 * window at build time), which costs nothing; counting the decisions table instead takes a second
 * at 100k examples, on every refresh. Falls back to counting when a build has no funnel.
 */
export function treeGroups(store: CorpusStore, buildId: number): OrgGroup[] {
  const json = store.scalar('SELECT funnel FROM builds WHERE id = ?', [buildId]);
  return typeof json === 'string'
    ? groupsFromFunnel(store, JSON.parse(json) as DatasetFunnel)
    : countGroups(store, buildId);
}

/** Examples kept by the build, every organization and window (the no-window group included). */
export function keptCount(store: CorpusStore, buildId: number): number {
  return treeGroups(store, buildId).reduce((n, o) => n + o.windows.reduce((m, w) => m + w.kept, 0), 0);
}

function groupsFromFunnel(store: CorpusStore, funnel: DatasetFunnel): OrgGroup[] {
  const windows = store.all<StoredWindow>('SELECT * FROM windows ORDER BY from_date');
  const orgs = store.all<{ org: string }>('SELECT org FROM hosts ORDER BY org').map((r) => r.org);
  // A rule not counted on the host gets a node too, so the tree says so rather than leaving it out (as if 0);
  // a rule the config switched off does not (funnelNotes.ts, switchedOff).
  const removedRules = (rows: readonly FunnelRow[]): RuleCount[] =>
    rows
      .filter((r) => (r.removed ?? 0) > 0 || (r.removed === null && r.notCounted && !isSwitchedOff(r.notCounted)))
      .map((r) => ({
        stage: r.stage,
        rule: r.rule,
        unit: r.unit,
        count: r.removed ?? 0,
        ...(r.removed === null && r.notCounted ? { notCounted: r.notCounted } : r.partly ? { partly: r.partly } : {}),
      }));
  return orgs.map((org) => {
    const o = funnel.organizations[org];
    const groups: WindowGroup[] = windows.map((w) => {
      const report = o?.windows[w.name];
      return {
        org,
        window: w.name,
        sealed: w.sealed === 1,
        sealHash: w.seal_hash,
        fetched: w.fetched === 1,
        kept: report?.examples ?? 0,
        rules: removedRules(report?.funnel ?? []),
      };
    });
    if (o) {
      // Units in no window: the organization's totals less every window's.
      const outside = o.funnel.map((r) => ({
        ...r,
        removed:
          (r.removed ?? 0) -
          Object.values(o.windows).reduce(
            (n, w) => n + (w.funnel.find((x) => x.stage === r.stage && x.rule === r.rule)?.removed ?? 0),
            0,
          ),
      }));
      const kept = o.counters.outside_windows ?? 0;
      if (kept > 0 || outside.some((r) => r.removed > 0))
        groups.push({
          org,
          window: null,
          sealed: false,
          sealHash: null,
          fetched: true,
          kept,
          rules: removedRules(outside),
        });
    }
    return { org, windows: groups, ...(o?.probe ? { probe: o.probe.text } : {}) };
  });
}

/** The same groups counted from the decisions table (the reference the funnel must agree with). */
export function countGroups(store: CorpusStore, buildId: number): OrgGroup[] {
  const ruleOrder = FUNNEL.map((r) => `${r.stage}/${r.rule}`);
  const windows = store.all<StoredWindow>('SELECT * FROM windows ORDER BY from_date');
  const rows = store.all<{ org: string; window: string | null; stage: string; unit: string; rule: string; n: number }>(
    'SELECT org, window, stage, unit, rule, count(*) AS n FROM decisions WHERE build_id = ? GROUP BY org, window, stage, unit, rule',
    [buildId],
  );
  const orgs = [...new Set(store.all<{ org: string }>('SELECT org FROM hosts ORDER BY org').map((r) => r.org))];
  const rank = (r: RuleCount) => {
    const i = ruleOrder.indexOf(`${r.stage}/${r.rule}`);
    return STAGE_ORDER.indexOf(r.stage) * 1000 + (i < 0 ? 999 : i);
  };
  return orgs.map((org) => {
    const byWindow = new Map<string | null, WindowGroup>();
    for (const w of windows) {
      byWindow.set(w.name, {
        org,
        window: w.name,
        sealed: w.sealed === 1,
        sealHash: w.seal_hash,
        fetched: w.fetched === 1,
        kept: 0,
        rules: [],
      });
    }
    for (const r of rows.filter((x) => x.org === org)) {
      let g = byWindow.get(r.window);
      if (!g) {
        g = { org, window: r.window, sealed: false, sealHash: null, fetched: true, kept: 0, rules: [] };
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
