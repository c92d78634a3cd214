// The funnel as an aligned plain-text table, one block per organization.

import type { DatasetFunnel, FunnelRow, OrgReport } from '../../build/reports/funnelReport';
import { PROBE_NOT_RUN } from '../../build/reports/funnelNotes';
import { sharesLines } from './sharesText';
import { notCountedCell, notCountedNote } from '../../rules/switchedOff';
import { crossWindowLine } from '../../build/reports/crossWindowReport';

const show = (v: number | null | undefined) =>
  v === null || v === undefined ? 'not counted' : v.toLocaleString('en-US');

/** A count that leaves out a part of its rule says so; "not counted" (or "off", for a rule switched off) is never a number. */
const shownRemoved = (r: FunnelRow) =>
  r.removed === null
    ? notCountedCell(r.notCounted)
    : r.partly
      ? `${show(r.removed)} (partly counted)`
      : show(r.removed);

/** Why each row or counter is not counted (or off), or counted only in part. */
function gapLines(o: OrgReport): string[] {
  const out: string[] = [];
  for (const r of o.funnel) {
    if (r.notCounted) out.push(`  ${notCountedNote(r.rule, r.notCounted)}`);
    else if (r.partly) out.push(`  partly counted: ${r.rule}: ${r.partly}`);
  }
  for (const [k, why] of Object.entries(o.notCounted ?? {})) out.push(`  not counted: ${k}: ${why}`);
  return out;
}

export function funnelTable(f: DatasetFunnel): string {
  const lines = [
    `corpus ${f.corpus}, build ${f.build}, rules ${f.rulesVersion.slice(0, 12)}, ${f.createdAt}`,
    ...(f.warnings ?? []).map((w) => `warning: ${w}`),
    crossWindowLine(f.decontamination?.crossWindow, f.decontamination?.automatic),
  ];
  for (const [org, o] of Object.entries(f.organizations)) {
    lines.push('', org);
    const rows = o.funnel.map((r) => [r.stage, r.rule, r.unit, shownRemoved(r)]);
    const widths = [0, 1, 2, 3].map((i) =>
      Math.max(...rows.map((r) => r[i].length), ['stage', 'rule', 'unit', 'removed'][i].length),
    );
    const fmt = (r: string[]) =>
      `  ${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2].padEnd(widths[2])}  ${r[3].padStart(widths[3])}`;
    lines.push(fmt(['stage', 'rule', 'unit', 'removed']), ...rows.map(fmt));
    lines.push(
      '  counters: ' +
        Object.entries(o.counters)
          .map(([k, v]) => `${k} ${show(v)}`)
          .join(', '),
    );
    lines.push(...gapLines(o));
    lines.push(`  comment-count probe: ${o.probe?.text ?? PROBE_NOT_RUN}`);
    if (o.overlap) lines.push(`  ${o.overlap}`);
    lines.push(
      '  windows: ' +
        Object.entries(o.windows)
          .map(([k, v]) => `${k} ${v.sealed ? 'sealed' : show(v.examples)}`)
          .join(', '),
    );
    lines.push(
      '  target_in_comment: ' +
        Object.entries(o.windows)
          .map(([k, v]) => `${k} ${show(v.counters.target_in_comment)}`)
          .join(', '),
    );
    if (o.halves) {
      const h = o.halves;
      const mix = (s: Record<string, number>) =>
        Object.entries(s)
          .map(([k, n]) => `${k} ${n}`)
          .join(' ') || '-';
      lines.push(
        `  halves of ${h.window} (by ${h.by}): a ${show(h.a.examples)} [${mix(h.a.suffixes)}] target_in_comment ${show(h.a.target_in_comment)}; ` +
          `b ${show(h.b.examples)} [${mix(h.b.suffixes)}] target_in_comment ${show(h.b.target_in_comment)}; unassigned ${show(h.unassigned)}; suffix TVD ${h.suffixTvd}`,
      );
    }
    lines.push(...sharesLines(o));
  }
  return lines.join('\n');
}
