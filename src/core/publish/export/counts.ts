// counts.csv: for each organization and each rule of the funnel, the units that reached the rule, the
// units it removed and the units left after it, each in the rule's own unit.
//
// The units change between stages: changes, then the comments of the kept changes, then the hunks the
// next patch set edited around anchored comments, then those hunks as examples. So the chain
// "a row's remaining is the next row's input" holds within one unit kind, and from the last hunk rule
// to the first example rule (a hunk no hunk rule removed is an example). From changes to comments and
// from comments to hunks the counts are of different things and are not equal: a kept change holds any
// number of comments, and a hunk carries every comment anchored in it, removed ones included (which is
// why nothing_left overlaps the comment rules).
//
// Every row's `removed` is the funnel's (dataset-funnel.json), so the two files agree. A rule the
// build did not count on a host has an empty `removed`, never 0, and `removed_note` beside it says why
// ("not counted: …"; a count that leaves out part of its rule says "partly counted: …" there); a rule the
// config switched off has `off`. Their input and remaining are still the units that passed them, read
// from the build's decisions, so the rows after them stay whole.
import type { CorpusStore } from '../../ground/store/corpusStore';
import type { DatasetFunnel, FunnelRow } from '../../build/reports/funnelReport';
import type { UnitKind } from '../../rules/types';
import { isSwitchedOff } from '../../rules/switchedOff';

export interface CountRow {
  org: string;
  stage: string;
  rule: string;
  unit: UnitKind;
  input: number;
  /** null: the build did not count this rule on this host ("not counted"). */
  removed: number | null;
  /** The config switched the rule off: `removed` is null and reads "off" (counts.csv writes `off`). */
  off?: true;
  /** Why `removed` is empty ("not counted: …") or a lower bound ("partly counted: …"); null: neither. */
  removedNote: string | null;
  remaining: number;
}

/** The note beside a funnel row's count, in the words of the funnel (funnelNotes.ts). */
export function removedNote(r: Pick<FunnelRow, 'removed' | 'notCounted' | 'partly'>): string | null {
  if (r.removed === null) return `not counted: ${r.notCounted ?? 'no reason recorded'}`;
  return r.partly ? `partly counted: ${r.partly}` : null;
}

/** Per organization, what the build's decisions say. */
export interface DecisionTotals {
  /** Units left after the last rule of each kind. */
  remaining: Record<UnitKind, number>;
  /** `${stage}\0${rule}` → units that rule's decisions removed. */
  removed: Map<string, number>;
}

export const UNIT_KINDS: readonly UnitKind[] = ['changes', 'comments', 'hunks', 'examples'];

/**
 * What each unit kind has left at its end, from the decisions of `buildId`: kept changes, kept
 * comments, hunks no hunk rule removed (every one of them became an example), kept examples.
 */
export function decisionTotals(store: CorpusStore, buildId: number): Map<string, DecisionTotals> {
  const out = new Map<string, DecisionTotals>();
  const of = (org: string) => {
    let t = out.get(org);
    if (!t) out.set(org, (t = { remaining: { changes: 0, comments: 0, hunks: 0, examples: 0 }, removed: new Map() }));
    return t;
  };
  store.each(
    'SELECT org, unit, stage, rule, count(*) AS n FROM decisions WHERE build_id = ? GROUP BY org, unit, stage, rule',
    [buildId],
    (r) => {
      const t = of(String(r.org));
      const unit = String(r.unit);
      const n = Number(r.n);
      if (unit === 'examples') t.remaining.hunks += n;
      if (r.rule === 'kept') {
        if (unit === 'changes' || unit === 'comments' || unit === 'examples') t.remaining[unit] += n;
      } else {
        const key = `${r.stage}\0${r.rule}`;
        t.removed.set(key, (t.removed.get(key) ?? 0) + n);
      }
    },
  );
  return out;
}

/**
 * The rows of counts.csv, in funnel order per organization. Walks each unit kind back from what its
 * last rule left: a rule's input is what it left plus what it removed (the funnel's count, or for a
 * rule not counted on this host, what its decisions removed).
 */
export function countRows(funnel: DatasetFunnel, totals: ReadonlyMap<string, DecisionTotals>): CountRow[] {
  const rows: CountRow[] = [];
  for (const [org, report] of Object.entries(funnel.organizations)) {
    const t = totals.get(org);
    const byUnit = new Map<UnitKind, CountRow[]>();
    const orgRows = report.funnel.map((r: FunnelRow): CountRow => {
      const row: CountRow = {
        org,
        stage: r.stage,
        rule: r.rule,
        unit: r.unit,
        input: 0,
        removed: r.removed,
        ...(r.removed === null && isSwitchedOff(r.notCounted) ? { off: true as const } : {}),
        removedNote: removedNote(r),
        remaining: 0,
      };
      byUnit.set(r.unit, [...(byUnit.get(r.unit) ?? []), row]);
      return row;
    });
    for (const [unit, unitRows] of byUnit) {
      let left = t?.remaining[unit] ?? 0;
      for (let i = unitRows.length - 1; i >= 0; i--) {
        const row = unitRows[i];
        row.remaining = left;
        row.input = left + (row.removed ?? t?.removed.get(`${row.stage}\0${row.rule}`) ?? 0);
        left = row.input;
      }
    }
    rows.push(...orgRows);
  }
  return rows;
}

/** RFC 4180 quoting, only where a field needs it. */
const csvField = (v: string | number | null) => {
  const s = v === null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export const COUNTS_HEADER = ['org', 'stage', 'rule', 'unit', 'input', 'removed', 'removed_note', 'remaining'] as const;

export function countsCsv(rows: readonly CountRow[]): string {
  const lines = [COUNTS_HEADER.join(',')];
  for (const r of rows)
    lines.push(
      [r.org, r.stage, r.rule, r.unit, r.input, r.off ? 'off' : r.removed, r.removedNote, r.remaining]
        .map(csvField)
        .join(','),
    );
  return lines.join('\n') + '\n';
}
