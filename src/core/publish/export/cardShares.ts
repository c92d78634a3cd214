// The card's shares section (docs/publishing.md): the suggested-edit share per organization, window and registered half
// on the built examples (before dedup) with its denominators and its change between windows, the
// fence-sensitivity line, target_in_comment on the built examples without a suggested edit, the
// per-window file-suffix mix, and the registered halves' pass or fail. Host text goes through mdCode.
import type { DatasetFunnel } from '../../build/reports/funnelReport';
import { mdCode, mdHeader, mdRow, mdText } from '../../ground/text/markdown';
import { cellText, halvesCheckLine, trendLine } from './sharesText';

export function renderShares(funnel: DatasetFunnel, p: (...lines: string[]) => void): void {
  const orgs = Object.entries(funnel.organizations);
  p(
    '## Suggested edits before dedup',
    '',
    'Counted on the built examples: every hunk no hunk rule removed, before the example rules and the duplicate rules, so each share has the whole population as its denominator. ' +
      "An example counts when any of its comments carries a Gerrit suggested edit (the `suggested_edit` rule's own test), whichever rule then removed it. " +
      'The halves split every window as they split the one they are registered on.',
  );
  if (funnel.fenceSensitivity)
    p(
      `Fence sensitivity: ${mdText(funnel.fenceSensitivity.line)}. The looser pattern takes any case, indentation and spaces after the backticks, and Gerrit's own substring test (\`\`\`\`\`suggestion\` followed by a line break, anywhere in the comment).`,
    );
  for (const [org, o] of orgs) orgShares(org, o, p);
  suffixMix(orgs, p);
  registeredHalves(orgs, p);
}

type Orgs = [string, DatasetFunnel['organizations'][string]][];

/** One organization's suggested-edit and target_in_comment shares per window and half. */
function orgShares(org: string, o: DatasetFunnel['organizations'][string], p: (...lines: string[]) => void): void {
  const s = o.shares;
  if (!s) {
    p(`${mdCode(org)}: not counted (this build recorded no shares).`);
    return;
  }
  const halves = Object.values(s.windows).some((w) => w.a !== undefined);
  p(
    `### ${mdCode(org)}`,
    '',
    ...mdHeader([
      'window',
      'suggested edits of built',
      ...(halves ? ['half a', 'half b'] : []),
      '`target_in_comment` of built without one',
    ]),
    ...Object.entries(s.windows).map(([name, w]) =>
      mdRow([
        mdCode(name, { inTable: true }),
        w.sealed ? 'sealed, not counted' : cellText(w.all, 'suggested_edit'),
        ...(halves ? [cellText(w.a, 'suggested_edit'), cellText(w.b, 'suggested_edit')] : []),
        w.sealed ? 'sealed, not counted' : cellText(w.all, 'target_in_comment'),
      ]),
    ),
    mdRow([
      'all',
      cellText(s.all, 'suggested_edit'),
      ...(halves ? ['', ''] : []),
      cellText(s.all, 'target_in_comment'),
    ]),
  );
  const trend = trendLine(s);
  p(
    ...(trend ? [`Share over the window before: ${mdCode(trend)}.`] : []),
    `Fence sensitivity: ${mdText(s.fence.line)}.`,
  );
}

/** The kept examples' file-suffix mix, per organization and window. */
function suffixMix(orgs: Orgs, p: (...lines: string[]) => void): void {
  p(
    '## File-suffix mix per window',
    '',
    'Kept examples of each window by file suffix (the file name when it has none), most first.',
  );
  for (const [org, o] of orgs) {
    p(
      `${mdCode(org)}:`,
      '',
      ...Object.entries(o.windows).map(
        ([name, w]) =>
          `- ${mdCode(name)}: ${
            w.sealed
              ? 'sealed, not counted'
              : !w.suffixes
                ? 'not counted'
                : Object.entries(w.suffixes)
                    .map(([suffix, k]) => `${mdCode(suffix)} ${k.toLocaleString('en-US')}`)
                    .join(', ') || 'none'
          }`,
      ),
    );
  }
}

/** Each organization's registered halves, and whether this build passes their check. */
function registeredHalves(orgs: Orgs, p: (...lines: string[]) => void): void {
  p(
    '## Registered halves',
    '',
    'A split is registered like a sealed window: the hash of its definition, the time, the size floor (the smaller half at registration), the suffix-mix ceiling (the total variation measured at registration) and the matched suffix. Every later build is checked against them.',
  );
  for (const [org, o] of orgs) {
    if (!o.halves && !o.halvesCheck) continue;
    const c = o.halvesCheck;
    p(
      `${mdCode(org)}: ${!c ? 'not registered.' : c.pass ? 'pass.' : 'fail.'}`,
      ...(c ? ['', `- ${mdCode(halvesCheckLine(c))}`, ...c.failures.map((f) => `- failed: ${mdCode(f)}`)] : []),
    );
  }
}
