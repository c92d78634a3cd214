// dataset-funnel.json: per organization and per window, how many units each rule removed (every rule,
// in funnel order, even 0), the counters, and the examples kept per window.
import type { WindowConfig } from '../config/types';
import { FUNNEL } from '../rules/funnel';
import type { Stage, UnitKind } from '../rules/types';
import type { HalvesReport } from './halves';
import type { MatchingPolicy } from '../decontam/policy';

export interface FunnelRow {
  stage: Stage;
  rule: string;
  unit: UnitKind;
  /** null: not counted by this build. */
  removed: number | null;
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
}

export interface OrgReport {
  funnel: FunnelRow[];
  counters: Counters;
  windows: Record<string, WindowReport>;
  /** Present when the config registers halves. */
  halves?: HalvesReport;
}

/**
 * How the build decontaminated (protected_overlap): the effective matching policy, the registered
 * reference sets, and the windows protected against train automatically. The dataset card renders
 * exactly this shape; its counts are the funnel's protected_overlap rows.
 */
export interface DecontaminationReport {
  policy: MatchingPolicy & { projectBlocklist: string[] };
  references: { name: string; sha256: string; items: number; registered_at: string }[];
  automatic: string[];
  note: string;
}

export const DECONTAMINATION_NOTE = 'Decontamination is not a guarantee: it removes the overlap these matching rules can detect, '
  + 'and any semantic, paraphrased or near-duplicate overlap they do not detect can remain.';

export interface DatasetFunnel {
  corpus: string;
  build: number;
  rulesVersion: string;
  createdAt: string;
  organizations: Record<string, OrgReport>;
  /** Present in every build since protected_overlap. */
  decontamination?: DecontaminationReport;
}

/**
 * Counters of every organization:
 * - kind_unrecorded: examples that reached rebase_only with no revision kind for N + 1 (kept by it);
 * - nothing_left_overlap: comments removed by a comment rule that belong to a nothing_left example
 *   (the overlap between the comment funnel and nothing_left);
 * - target_in_comment: kept examples whose target appears in one of their comments (reported only);
 * - outside_windows: kept examples whose change falls in no window (kept, in no window);
 * - diff_unreadable: stored diffs that were not a readable DiffInfo (their comments: fetch_error);
 * - rebase_edited_examples: kept examples holding edits Gerrit marked due_to_rebase (kept on the after
 *   side, never counted as an answer), so a reading without them can be made again;
 * - status_unrecorded: changes stored before the fetch kept their status, which not_merged cannot check;
 * - listing_cut_short: listings the fetch ended before the host said it had no more (a page with no
 *   change not seen already, or maxListingPages), so the host may hold changes never listed;
 * - bot_account_service_user: comments bot_account removed whose author the host tagged SERVICE_USER;
 *   not counted for a host that could not send tags (before Gerrit 3.3) or whose tags were not recorded.
 * - bot_account_name_pattern: comments bot_account removed because a bot-name pattern named their
 *   author (neither tagged nor listed); not counted for a host holding an account whose names no
 *   fetch matched (stored before the patterns, or only ever seen by id) until a fetch sees it again.
 * Per window: kind_unrecorded, nothing_left_overlap, target_in_comment and rebase_edited_examples.
 */
export const ORG_COUNTERS = [
  'kind_unrecorded', 'nothing_left_overlap', 'target_in_comment', 'outside_windows', 'diff_unreadable', 'rebase_edited_examples', 'status_unrecorded',
  'bot_account_service_user', 'listing_cut_short', 'bot_account_name_pattern',
] as const;
export const WINDOW_COUNTERS = ['kind_unrecorded', 'nothing_left_overlap', 'target_in_comment', 'rebase_edited_examples'] as const;
export type CounterName = (typeof ORG_COUNTERS)[number];

const NO_WINDOW = '\0none';

/** Accumulates removals, kept examples and counters while the build runs. */
export class FunnelTally {
  private readonly removed = new Map<string, number>();
  private readonly counters = new Map<string, number>();
  private readonly kept = new Map<string, number>();
  /** `${org}\0${rule or counter}` the build could not count on that org's host. */
  private readonly uncounted = new Set<string>();
  readonly orgs = new Set<string>();

  /**
   * A rule or counter that cannot be decided from what this host recorded: its rows read null ("not
   * counted") for the org and each of its windows, never 0.
   */
  notCounted(org: string, ruleOrCounter: string): void {
    this.orgs.add(org);
    this.uncounted.add(`${org}\0${ruleOrCounter}`);
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
      const removed = window === undefined
        ? this.sum(this.removed, `${org}\0`, `\0${s.stage}\0${s.rule}`)
        : this.removed.get(`${org}\0${window}\0${s.stage}\0${s.rule}`) ?? 0;
      return { stage: s.stage, rule: s.rule, unit: s.unit, removed: this.uncounted.has(`${org}\0${s.rule}`) ? null : removed };
    });
  }

  report(meta: { corpus: string; build: number; rulesVersion: string; createdAt: string }, windows: readonly WindowConfig[]): DatasetFunnel {
    const organizations: Record<string, OrgReport> = {};
    for (const org of [...this.orgs].sort()) {
      const counters: Counters = {};
      for (const c of ORG_COUNTERS) counters[c] = this.uncounted.has(`${org}\0${c}`) ? null : this.sum(this.counters, `${org}\0`, `\0${c}`);
      const byWindow: Record<string, WindowReport> = {};
      for (const w of windows) {
        const windowCounters: Counters = {};
        for (const c of WINDOW_COUNTERS) windowCounters[c] = w.sealed ? null : this.counters.get(`${org}\0${w.name}\0${c}`) ?? 0;
        byWindow[w.name] = w.sealed
          ? { sealed: true, examples: null, funnel: this.funnel(org, w.name), counters: windowCounters }
          : { examples: this.kept.get(`${org}\0${w.name}`) ?? 0, funnel: this.funnel(org, w.name), counters: windowCounters };
      }
      organizations[org] = { funnel: this.funnel(org, undefined), counters, windows: byWindow };
    }
    return { ...meta, organizations };
  }
}
