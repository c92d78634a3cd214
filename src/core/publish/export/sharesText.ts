// The suggested-edit shares and the registered halves' check as short plain-text lines, shared by the CLI
// table (funnelTable.ts) and the webview: the per-window suffix mix (top few), the suggested-edit share
// per window and half with its denominators and how it moves between windows, the fence-sensitivity
// line, target_in_comment on the built examples without a suggested edit, and pass or fail.
import type { ShareCell, SharesReport } from '../../build/reports/builtShares';
import type { HalvesCheck } from '../../build/halves/halvesRegistry';
import type { OrgReport } from '../../build/reports/funnelReport';

const n = (v: number) => v.toLocaleString('en-US');
/** "3 of 40 (7.5%)"; a window with nothing built has no share, which is not 0%. */
export const ofShare = (part: number, whole: number) =>
  `${n(part)} of ${n(whole)}${whole ? ` (${((100 * part) / whole).toFixed(1)}%)` : ', no share'}`;

const SUFFIXES_SHOWN = 3;

/** "pilot .py 3, .cpp 1; train …": the top few suffixes of each unsealed window's kept examples. */
export function suffixMixLine(o: OrgReport): string | null {
  const parts = Object.entries(o.windows)
    .filter(([, w]) => !w.sealed && w.suffixes)
    .map(([name, w]) => {
      const entries = Object.entries(w.suffixes!);
      const top = entries
        .slice(0, SUFFIXES_SHOWN)
        .map(([s, k]) => `${s} ${n(k)}`)
        .join(', ');
      return `${name} ${top || 'none'}${entries.length > SUFFIXES_SHOWN ? `, ${entries.length - SUFFIXES_SHOWN} more` : ''}`;
    });
  return parts.length ? parts.join('; ') : null;
}

export type Measure = 'suggested_edit' | 'target_in_comment';

/** One cell: suggested edits of the built examples, or target_in_comment of those without one. */
export function cellText(c: ShareCell | null | undefined, measure: Measure): string {
  if (!c) return 'not counted';
  return measure === 'suggested_edit'
    ? ofShare(c.suggested_edit, c.built)
    : `${n(c.target_in_comment)} of ${n(c.without_suggested_edit)}`;
}

/** "all …; pilot …; train … [a …, b …]; test sealed". */
export function sharesLine(s: SharesReport, measure: Measure): string {
  const windows = Object.entries(s.windows).map(([name, w]) => {
    if (w.sealed) return `${name} sealed, not counted`;
    const halves = w.a !== undefined ? ` [a ${cellText(w.a, measure)}, b ${cellText(w.b, measure)}]` : '';
    return `${name} ${cellText(w.all, measure)}${halves}`;
  });
  return [`all ${cellText(s.all, measure)}`, ...windows].join('; ');
}

const times = (r: number | null | undefined) => (r === null || r === undefined ? 'undefined' : `×${r}`);

/** "pilot→train ×0.6, train→dev ×3.2 [a ×6.5, b ×33]": each window's share over the one before. */
export function trendLine(s: SharesReport): string | null {
  if (s.trend.length === 0) return null;
  return s.trend
    .map((t) => `${t.from}→${t.to} ${times(t.all)}${'a' in t ? ` [a ${times(t.a)}, b ${times(t.b)}]` : ''}`)
    .join(', ');
}

export function halvesCheckLine(c: HalvesCheck | undefined): string {
  if (!c) return 'not registered (review-corpus halves register --org <org>)';
  const r = c.registered;
  const criteria = `registered ${r.registeredAt} from build ${r.build}: size floor ${n(r.sizeFloor)}, suffix TVD ceiling ${r.suffixTvdCeiling}, matched suffix ${r.matchedSuffix ?? 'none'}`;
  return c.pass ? `pass (${criteria})` : `FAIL: ${c.failures.join('; ')} (${criteria})`;
}

/** The funnel table's section for one organization. */
export function sharesLines(o: OrgReport): string[] {
  const out: string[] = [];
  const mix = suffixMixLine(o);
  if (mix) out.push(`  suffix mix (kept, top ${SUFFIXES_SHOWN}): ${mix}`);
  if (o.shares) {
    out.push(`  suggested edits (built examples, before dedup): ${sharesLine(o.shares, 'suggested_edit')}`);
    const trend = trendLine(o.shares);
    if (trend) out.push(`  suggested-edit share over the window before: ${trend}`);
    out.push(`  fence sensitivity: ${o.shares.fence.line}`);
    out.push(
      `  target_in_comment on built examples without a suggested edit: ${sharesLine(o.shares, 'target_in_comment')}`,
    );
  }
  if (o.halves || o.halvesCheck) out.push(`  registered halves: ${halvesCheckLine(o.halvesCheck)}`);
  return out;
}
