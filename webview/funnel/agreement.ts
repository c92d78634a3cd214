// The agreement among all raters at once (Fleiss' κ, Krippendorff's α), beside the pairwise κ: in the
// label audit per organization, and in the comment quality per label. Computed in a worker process
// after the rest of the page; until then each part says it is computing. Text goes in through
// textContent only (el, grid).
import { el, grid } from './elements';
import type { OrgRaterAgreement } from '../../src/core/review/labels/auditAgreement';
import type { QualityRaterAgreement } from '../../src/core/review/quality/qualityRaterAgreement';
import { figureText, type GroupFigures } from '../../src/core/review/quality/raterAgreement';

const GROUPS = { humans: 'human', models: 'model', all: 'all' } as const;
const scopeText = (s: { all_windows: boolean; window: string | null }) =>
  s.all_windows ? 'all windows' : (s.window ?? '(no window)');
const measured = (g: GroupFigures) => g.rater_count >= 2;

function waiting(part: HTMLElement, what: string, error?: string): HTMLElement {
  part.append(el('p', error ? `${what}: not computed (${error}).` : `Computing ${what}…`, 'meta'));
  return part;
}

/** The label audit's figures of one organization; `a` undefined: still computing, or failed with `error`. */
export function auditAgreementPart(org: string, a: OrgRaterAgreement | undefined, error?: string): HTMLElement {
  const part = el('div', undefined, 'rater-agreement');
  part.dataset.agreementOrg = org;
  part.append(el('h4', 'Agreement among all raters'));
  if (!a) return waiting(part, 'the agreement among all raters', error);
  const rows = a.scopes.flatMap((s) => s.groups.filter(measured).map((g) => ({ s, g })));
  if (rows.length === 0) {
    part.append(el('p', 'Not measured: fewer than two raters labelled these items.'));
    return part;
  }
  part.append(
    el(
      'p',
      `Fleiss' κ and nominal Krippendorff's α; each label value a category, a label not given a missing rating. ` +
        `In brackets the 95% interval (bootstrap over items, seed "${a.bootstrap.seed}").`,
      'meta',
    ),
    grid(
      [
        'window',
        'raters',
        'items',
        "Fleiss' κ",
        "Krippendorff's α",
        ...a.values.map((v) => `κ ${v.replace('_', ' ')}`),
      ],
      rows.map(({ s, g }) => ({
        cells: [
          scopeText(s),
          `${GROUPS[g.raters]} (${g.rater_count})`,
          g.items.toLocaleString('en-US'),
          figureText(g.fleiss_kappa),
          figureText(g.alpha.nominal!),
          ...(g.per_value ?? []).map((v) => figureText(v.fleiss_kappa)),
        ],
      })),
      `${org} agreement among all raters`,
    ),
  );
  return part;
}

/** The comment quality's figures per label and window; `q` undefined: still computing, or failed. */
export function qualityAgreementPart(q: QualityRaterAgreement | undefined, error?: string): HTMLElement {
  const part = el('div', undefined, 'rater-agreement');
  part.dataset.qualityAgreement = '';
  part.append(el('h3', 'Agreement among all raters'));
  if (!q) return waiting(part, 'the agreement among all raters', error);
  const rows = q.scopes.flatMap((s) =>
    s.labels.flatMap((l) => l.groups.filter(measured).map((g) => ({ s, label: l.label, g }))),
  );
  if (rows.length === 0) {
    part.append(el('p', 'Not measured: no comment was rated by two raters.'));
    return part;
  }
  part.append(
    el(
      'p',
      "Fleiss' κ (each value a category); Krippendorff's α nominal for civility, type and nature (each type and nature label has it or has it not), " +
        `ordinal and interval for the 1–10 scores. A rater who did not rate a comment is a missing rating. In brackets the 95% interval (bootstrap over comments, seed "${q.bootstrap.seed}").`,
      'meta',
    ),
    grid(
      ['window', 'label', 'raters', 'comments', "Fleiss' κ", 'α nominal', 'α ordinal', 'α interval'],
      rows.map(({ s, label, g }) => ({
        cells: [
          scopeText(s),
          label,
          `${GROUPS[g.raters]} (${g.rater_count})`,
          g.items.toLocaleString('en-US'),
          figureText(g.fleiss_kappa),
          ...(['nominal', 'ordinal', 'interval'] as const).map((l) => (g.alpha[l] ? figureText(g.alpha[l]) : '–')),
        ],
      })),
      'quality agreement among all raters',
    ),
  );
  return part;
}
