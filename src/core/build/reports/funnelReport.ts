// dataset-funnel.json: per organization and per window, how many units each rule removed (every rule,
// in funnel order, even 0), the counters, and the examples kept per window.
import type { WindowConfig } from '../../ground/config/types';
import { FUNNEL } from '../../rules/funnel';
import { ORG_COUNTERS, WINDOW_COUNTERS, type CounterName } from '../../rules/counters';
import type { Stage, UnitKind } from '../../rules/types';
import type { HalvesReport } from '../halves/halvesReport';
import type { FenceSensitivity, HalvesCheck, SharesReport } from './sharesTypes';
import type { MatchingPolicy } from '../../rules/decontam/policy';
import { NOT_COUNTED, overlapText, type ProbeReport } from './funnelNotes';
import type { CrossWindowReport } from './crossWindowReport';

export interface FunnelRow {
  stage: Stage;
  rule: string;
  unit: UnitKind;
  /** null: not counted by this build. */
  removed: number | null;
  /** Why `removed` is null: what the host lacked (present exactly when removed is null, outside sealed windows). */
  notCounted?: string;
  /** `removed` is a count, but a part of the rule could not run on this host: why (the count is a lower bound). */
  partly?: string;
}

/** Named counts; null = not counted (reported as "not counted", never as 0). */
export type Counters = Record<string, number | null>;

export interface WindowReport {
  /** Present (true) only for a sealed window, which is not built. */
  sealed?: true;
  /** Examples kept in the window; null for a sealed window. */
  examples: number | null;
  /** The same funnel, restricted to units whose change was created in this window. */
  funnel: FunnelRow[];
  counters: Counters;
  /** Counter → why it is null (a sealed window's, not built). */
  notCounted?: Record<string, string>;
  /** The overlap note in words, with its number (counters.nothing_left_overlap). */
  overlap: string;
  /** Kept examples by file suffix (the per-window mix); absent for a sealed window. */
  suffixes?: Record<string, number>;
}

export interface OrgReport {
  funnel: FunnelRow[];
  counters: Counters;
  /** Counter → why it is null on this host. */
  notCounted?: Record<string, string>;
  /** The overlap note in words, with its number (counters.nothing_left_overlap). */
  overlap: string;
  /** The comment-count probe as the fetch recorded it; absent when the host was never probed. */
  probe?: ProbeReport;
  windows: Record<string, WindowReport>;
  /** Present when the config registers halves. */
  halves?: HalvesReport;
  /** The registered halves' criteria and this build's pass or fail (halvesRegistry.ts); absent: none registered. */
  halvesCheck?: HalvesCheck;
  /** Suggested-edit shares and target_in_comment on the built examples, before dedup (builtShares.ts). */
  shares?: SharesReport;
}

/**
 * How the build decontaminated (protected_overlap): the registered sets' matching policy, the registered
 * reference sets, the windows protected against train (`automatic`: empty while cross-window
 * decontamination is off) and the cross-window choice with its own policy. The dataset card renders
 * exactly this shape; its counts are the funnel's protected_overlap rows.
 */
export interface DecontaminationReport {
  policy: MatchingPolicy & { projectBlocklist: string[] };
  references: { name: string; sha256: string; items: number; registered_at: string }[];
  automatic: string[];
  /** Present in every build since decontam.crossWindow (before it, `automatic` alone said what ran). */
  crossWindow?: CrossWindowReport;
  note: string;
}

export const DECONTAMINATION_NOTE =
  'Decontamination is not a guarantee: it removes the overlap these matching rules can detect, ' +
  'and any semantic, paraphrased or near-duplicate overlap they do not detect can remain.';

export interface DatasetFunnel {
  corpus: string;
  build: number;
  rulesVersion: string;
  createdAt: string;
  organizations: Record<string, OrgReport>;
  /** Present in every build since protected_overlap. */
  decontamination?: DecontaminationReport;
  /** The fence-sensitivity line over every organization's built examples (builtShares.ts). */
  fenceSensitivity?: FenceSensitivity;
  /** What every view of this funnel warns about first (cross-window decontamination removing more than a tenth of a window); absent: nothing. */
  warnings?: string[];
}

// The counters (names, order, what each counts) are declared in rules/counters.ts.
export { ORG_COUNTERS, WINDOW_COUNTERS, type CounterName };

const NO_WINDOW = '\0none';

/**
 * Which rows a note (not counted, partly counted) is on: every row of the organization (its own and
 * each window's, the default), the organization's own row only, or one window's row only. A note whose
 * numbers differ per window (no_comments's) is given once for the organization and once per window.
 */
export type NoteScope = 'every' | 'org' | { window: string };
const EVERY = '\0every';
const ORG_ROW = '\0org';
const scopeKey = (scope: NoteScope) => (scope === 'every' ? EVERY : scope === 'org' ? ORG_ROW : scope.window);

/** Accumulates removals, kept examples and counters while the build runs. */
export class FunnelTally {
  private readonly removed = new Map<string, number>();
  private readonly counters = new Map<string, number>();
  private readonly kept = new Map<string, number>();
  /** `${org}\0${scope}\0${rule or counter}` the build could not count there → why. */
  private readonly uncounted = new Map<string, string>();
  /** `${org}\0${scope}\0${rule}` counted only in part there → why (reasons joined). */
  private readonly partial = new Map<string, string>();
  private readonly probes = new Map<string, ProbeReport>();
  readonly orgs = new Set<string>();

  /**
   * A rule or counter that cannot be decided from what this host recorded: its rows in `scope` read
   * null ("not counted"), never 0.
   */
  notCounted(org: string, ruleOrCounter: string, reason: string, scope: NoteScope = 'every'): void {
    this.orgs.add(org);
    addNote(this.uncounted, `${org}\0${scopeKey(scope)}\0${ruleOrCounter}`, reason);
  }

  /** A rule whose count stands, but part of which could not run on this host: its rows in `scope` say why. */
  partly(org: string, rule: string, reason: string, scope: NoteScope = 'every'): void {
    this.orgs.add(org);
    addNote(this.partial, `${org}\0${scopeKey(scope)}\0${rule}`, reason);
  }

  /** The note on one row: the organization's (window undefined) or a window's, with those on every row first. */
  private note(map: Map<string, string>, org: string, window: string | undefined, key: string): string | undefined {
    const notes = [map.get(`${org}\0${EVERY}\0${key}`), map.get(`${org}\0${window ?? ORG_ROW}\0${key}`)];
    const found = notes.filter((n) => n !== undefined);
    return found.length ? found.join('; ') : undefined;
  }

  probe(org: string, report: ProbeReport): void {
    this.orgs.add(org);
    this.probes.set(org, report);
  }

  remove(org: string, window: string | null, stage: Stage, rule: string, n = 1): void {
    this.orgs.add(org);
    const key = `${org}\0${window ?? NO_WINDOW}\0${stage}\0${rule}`;
    this.removed.set(key, (this.removed.get(key) ?? 0) + n);
  }

  count(org: string, window: string | null, counter: CounterName, n = 1): void {
    this.orgs.add(org);
    const key = `${org}\0${window ?? NO_WINDOW}\0${counter}`;
    this.counters.set(key, (this.counters.get(key) ?? 0) + n);
  }

  keep(org: string, window: string | null): void {
    this.orgs.add(org);
    const key = `${org}\0${window ?? NO_WINDOW}`;
    this.kept.set(key, (this.kept.get(key) ?? 0) + 1);
  }

  private sum(map: Map<string, number>, prefix: string, suffix: string): number {
    let n = 0;
    for (const [key, v] of map) if (key.startsWith(prefix) && key.endsWith(suffix)) n += v;
    return n;
  }

  private funnel(org: string, window: string | undefined): FunnelRow[] {
    return FUNNEL.map((s) => {
      const removed =
        window === undefined
          ? this.sum(this.removed, `${org}\0`, `\0${s.stage}\0${s.rule}`)
          : (this.removed.get(`${org}\0${window}\0${s.stage}\0${s.rule}`) ?? 0);
      const why = this.note(this.uncounted, org, window, s.rule);
      const partly = this.note(this.partial, org, window, s.rule);
      return {
        stage: s.stage,
        rule: s.rule,
        unit: s.unit,
        removed: why !== undefined ? null : removed,
        ...(why !== undefined ? { notCounted: why } : partly !== undefined ? { partly } : {}),
      };
    });
  }

  report(
    meta: { corpus: string; build: number; rulesVersion: string; createdAt: string },
    windows: readonly WindowConfig[],
  ): DatasetFunnel {
    const organizations: Record<string, OrgReport> = {};
    for (const org of [...this.orgs].sort()) {
      const counters: Counters = {};
      const notCounted: Record<string, string> = {};
      for (const c of ORG_COUNTERS) {
        const why = this.note(this.uncounted, org, undefined, c);
        counters[c] = why !== undefined ? null : this.sum(this.counters, `${org}\0`, `\0${c}`);
        if (why !== undefined) notCounted[c] = why;
      }
      const byWindow: Record<string, WindowReport> = {};
      for (const w of windows) {
        const windowCounters: Counters = {};
        for (const c of WINDOW_COUNTERS)
          windowCounters[c] = w.sealed ? null : (this.counters.get(`${org}\0${w.name}\0${c}`) ?? 0);
        const overlap = overlapText(windowCounters.nothing_left_overlap);
        byWindow[w.name] = w.sealed
          ? {
              sealed: true,
              examples: null,
              funnel: this.funnel(org, w.name),
              counters: windowCounters,
              notCounted: Object.fromEntries(WINDOW_COUNTERS.map((c) => [c, NOT_COUNTED.sealed])),
              overlap,
            }
          : {
              examples: this.kept.get(`${org}\0${w.name}`) ?? 0,
              funnel: this.funnel(org, w.name),
              counters: windowCounters,
              overlap,
            };
      }
      const probe = this.probes.get(org);
      organizations[org] = {
        funnel: this.funnel(org, undefined),
        counters,
        ...(Object.keys(notCounted).length ? { notCounted } : {}),
        overlap: overlapText(counters.nothing_left_overlap),
        ...(probe ? { probe } : {}),
        windows: byWindow,
      };
    }
    return { ...meta, organizations };
  }
}

function addNote(map: Map<string, string>, key: string, reason: string): void {
  const was = map.get(key);
  map.set(key, was ? `${was}; ${reason}` : reason);
}
