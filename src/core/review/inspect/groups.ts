// What the inspector's tree shows: per organization and window, the kept examples and every rule
// that removed something, with counts straight from the build's decisions.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';
import type { StoredWindow } from '../../ground/config/windows';
import type { DatasetFunnel, FunnelRow } from '../../build/reports/funnelReport';
import { recordedFunnel } from '../../build/reports/storedFunnel';
import { FUNNEL } from '../../rules/funnel';
import { isSwitchedOff } from '../../rules/switchedOff';

export interface RuleCount {
  stage: string;
  rule: string;
  unit: string;
  count: number;
  /** The funnel does not count this rule here: why (count is then what the build's decisions hold). */
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
  const funnel = recordedFunnel(store, buildId);
  return funnel ? groupsFromFunnel(store, buildId, funnel) : countGroups(store, buildId);
}

/** Examples kept by the build, every organization and window (the no-window group included). */
export function keptCount(store: CorpusStore, buildId: number): number {
  return treeGroups(store, buildId).reduce((n, o) => n + o.windows.reduce((m, w) => m + w.kept, 0), 0);
}

function groupsFromFunnel(store: CorpusStore, buildId: number, funnel: DatasetFunnel): OrgGroup[] {
  const windows = store.all<StoredWindow>('SELECT * FROM windows ORDER BY from_date');
  const orgs = store.all<{ org: string }>('SELECT org FROM hosts ORDER BY org').map((r) => r.org);
  // A rule not counted on the host gets a node too, so the tree says so rather than leaving it out (as if 0);
  // a rule the config switched off does not (funnelNotes.ts, switchedOff).
  // A not-counted node lists what the build's decisions hold for it (nothing, for a rule that could not run).
  const removedRules = (org: string, window: string | null, rows: readonly FunnelRow[]): RuleCount[] =>
    rows
      .filter((r) => (r.removed === null ? r.notCounted !== undefined && !isSwitchedOff(r.notCounted) : r.removed > 0))
      .map((r) => ({
        stage: r.stage,
        rule: r.rule,
        unit: r.unit,
        count: r.removed ?? decisionsOf(store, buildId, org, window, r.stage, r.rule),
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
        rules: removedRules(org, w.name, report?.funnel ?? []),
      };
    });
    if (o) {
      const outside = outsideWindows(store, buildId, org, o);
      // A build that did not count outside_windows: its decisions say how many examples it kept there.
      const kept =
        o.counters.outside_windows ??
        Number(
          store.scalar(
            "SELECT count(*) FROM decisions WHERE build_id = ? AND org = ? AND window IS NULL AND unit = 'examples' AND rule = 'kept'",
            [buildId, org],
          ),
        );
      if (kept > 0 || outside.some((r) => r.removed !== null && r.removed > 0))
        groups.push({
          org,
          window: null,
          sealed: false,
          sealHash: null,
          fetched: true,
          kept,
          rules: removedRules(org, null, outside),
        });
    }
    return { org, windows: groups, ...(o?.probe ? { probe: o.probe.text } : {}) };
  });
}

/**
 * Units in no window: the organization's count less every window's. A rule not counted for the
 * organization is not counted here either; where only a window's row is not counted, the difference is
 * unknown and this build's decisions in no window say it.
 */
function outsideWindows(
  store: CorpusStore,
  buildId: number,
  org: string,
  o: { funnel: readonly FunnelRow[]; windows: Record<string, { funnel: FunnelRow[] }> },
): FunnelRow[] {
  return o.funnel.map((r) => {
    if (r.removed === null) return r;
    const inWindows = Object.values(o.windows).map(
      (w) => w.funnel.find((x) => x.stage === r.stage && x.rule === r.rule)?.removed ?? null,
    );
    const removed = inWindows.every((n) => n !== null)
      ? r.removed - inWindows.reduce((a, n) => a + n, 0)
      : decisionsOf(store, buildId, org, null, r.stage, r.rule);
    return { ...r, removed };
  });
}

/** Units of `org` in `window` (null: in none) that the build's decisions say `rule` removed. */
function decisionsOf(
  store: CorpusStore,
  buildId: number,
  org: string,
  window: string | null,
  stage: string,
  rule: string,
): number {
  return Number(
    store.scalar(
      'SELECT count(*) FROM decisions WHERE build_id = ? AND org = ? AND window IS ? AND stage = ? AND rule = ?',
      [buildId, org, window, stage, rule],
    ),
  );
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
