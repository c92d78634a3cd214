// The shares part of an organization's section: the registered halves' pass or fail, the
// suggested-edit shares on the built examples (before dedup) per window and half with their
// denominators and trend, the fence-sensitivity line, target_in_comment on the built examples
// without a suggested edit, and the per-window suffix mix. Text goes in through textContent only.
import { el, grid } from './elements';
import type { OrgReport } from '../../src/core/build/reports/funnelReport';
import { cellText, halvesCheckLine, trendLine } from '../../src/core/publish/export/sharesText';

export function sharesSection(org: string, o: OrgReport): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (o.halves || o.halvesCheck) {
    const check = el('p', `Registered halves: ${halvesCheckLine(o.halvesCheck)}`, 'halves-check');
    check.dataset.pass = o.halvesCheck ? String(o.halvesCheck.pass) : 'unregistered';
    out.push(el('h3', 'Registered halves'), check);
  }
  const s = o.shares;
  if (s) {
    const halves = Object.values(s.windows).some((w) => w.a !== undefined);
    out.push(
      el('h3', 'Suggested edits before dedup (built examples)'),
      grid(
        [
          'window',
          'suggested edits of built',
          ...(halves ? ['half a', 'half b'] : []),
          'target_in_comment of built without one',
        ],
        [
          ...Object.entries(s.windows).map(([name, w]) => ({
            cells: [
              name,
              w.sealed ? 'sealed, not counted' : cellText(w.all, 'suggested_edit'),
              ...(halves ? [cellText(w.a, 'suggested_edit'), cellText(w.b, 'suggested_edit')] : []),
              w.sealed ? 'sealed, not counted' : cellText(w.all, 'target_in_comment'),
            ],
          })),
          {
            cells: [
              'all',
              cellText(s.all, 'suggested_edit'),
              ...(halves ? ['', ''] : []),
              cellText(s.all, 'target_in_comment'),
            ],
          },
        ],
        `${org} suggested edits`,
      ),
    );
    const trend = trendLine(s);
    if (trend) out.push(el('p', `Share over the window before: ${trend}`, 'share-trend'));
    out.push(el('p', `Fence sensitivity: ${s.fence.line}`, 'fence-sensitivity'));
  }
  const windows = Object.entries(o.windows).filter(([, w]) => !w.sealed && w.suffixes);
  if (windows.length) {
    out.push(
      el('h3', 'File-suffix mix per window (kept)'),
      grid(
        ['window', 'suffixes'],
        windows.map(([name, w]) => ({
          cells: [
            name,
            Object.entries(w.suffixes!)
              .map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`)
              .join(', ') || 'none',
          ],
        })),
        `${org} suffix mix`,
      ),
    );
  }
  return out;
}
