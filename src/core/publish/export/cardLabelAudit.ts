// The card's "Label audit" section: with a drawn audit sample, its parameters and strata, then per
// organization what label-audit-<org>.json holds (valid shares with counts, κ, the shares on the
// exported build's kept set, the cross-tab sentences). Without a sample, the labels the file records
// by rater, or that there are none.
import type { LabelAuditReport } from '../../review/labels/labelAudit';
import type { labelReport } from '../../review/labels/labels';
import { labelAuditFile } from './labelAuditFiles';
import type { OrgRaterAgreement } from '../../review/labels/auditAgreement';
import { figureText } from '../../review/quality/raterAgreement';
import { mdCode, mdCount, mdHeader, mdRow, mdText } from '../../ground/text/markdown';

const numeric = (from: number, count: number) => new Set(Array.from({ length: count }, (_, i) => i + from));
const share = (s: number | null) => (s === null ? 'none labelled' : s.toFixed(3));
const kappa = (k: number | null) => (k === null ? 'undefined' : k.toFixed(3));

export function renderLabelAudit(
  audit: LabelAuditReport | undefined,
  labels: ReturnType<typeof labelReport>,
  p: (...lines: string[]) => void,
): void {
  p('## Label audit');
  if (!audit) {
    renderLabels(labels, p);
    return;
  }
  const s = audit.sample;
  p(
    `A seeded sample of ${mdCount(s.items)} kept examples of build ${s.buildId} (asked ${mdCount(s.size)}, seed ${mdCode(s.seed)}, drawn ${mdCode(s.drawnAt)}, items sha256 ${mdCode(s.itemsSha256)}), ` +
      'stratified by organization and window with proportional allocation (largest remainder), so the same items went to every rater. ' +
      `"Valid" is the label "answers": the rewrite answers its comment; a share is valid over labelled, "unsure" included. The shares are then recomputed on the items build ${audit.build} keeps.`,
    '',
    ...mdHeader(['organization', 'window', 'kept examples', 'in the sample'], new Set([2, 3])),
    ...s.strata.map((x) =>
      mdRow([
        mdCode(x.org, { inTable: true }),
        x.window === null ? '(no window)' : mdCode(x.window, { inTable: true }),
        mdCount(x.population),
        mdCount(x.drawn),
      ]),
    ),
  );
  for (const o of audit.organizations) {
    const keptBy = new Map(o.kept_set.raters.map((r) => [r.rater, r]));
    p(
      `### ${mdCode(o.org)}`,
      '',
      `${mdCount(o.items)} items, ${mdCount(o.scored)} scored; ${mdCode(labelAuditFile(o.org))} holds the numbers and the cross-tabs.`,
      '',
      ...mdHeader(
        [
          'rater',
          'kind',
          'labelled',
          'answers',
          'does not',
          'unsure',
          'valid share',
          `on build ${o.kept_set.build}'s ${o.kept_set.items} kept`,
        ],
        numeric(2, 6),
      ),
      ...o.raters.map((r) => {
        const k = keptBy.get(r.rater);
        return mdRow([
          mdCode(r.rater, { inTable: true }),
          r.kind,
          r.scored,
          r.answers,
          r.does_not,
          r.unsure,
          share(r.valid_share),
          k ? `${share(k.valid_share)} (${k.scored})` : 'none labelled',
        ]);
      }),
    );
    if (o.agreement.length) {
      p(
        "Agreement on the items both labelled (Cohen's κ):",
        '',
        ...mdHeader(['rater', 'rater', 'both labelled', 'κ'], new Set([2, 3])),
        ...o.agreement.map((a) =>
          mdRow([mdCode(a.rater_a, { inTable: true }), mdCode(a.rater_b, { inTable: true }), a.both, kappa(a.kappa)]),
        ),
      );
    }
    if (o.rater_agreement) renderRaterAgreement(o.rater_agreement, p);
    p(...o.summary.map((line) => `- ${mdText(line)}`));
  }
}

const GROUPS = { humans: 'human', models: 'model', all: 'all' } as const;

/** Fleiss' κ and Krippendorff's α among all raters, per window and rater kind, with their intervals. */
function renderRaterAgreement(a: OrgRaterAgreement, p: (...lines: string[]) => void): void {
  const rows = a.scopes.flatMap((s) => s.groups.filter((g) => g.rater_count >= 2).map((g) => ({ s, g })));
  if (rows.length === 0) {
    p('Agreement among all raters: not measured, fewer than two raters labelled these items.', '');
    return;
  }
  p(
    `Agreement among all raters (Fleiss' κ and nominal Krippendorff's α, each label value a category, a rater who did not label an item a missing rating; ` +
      `in brackets the 95% interval of a percentile bootstrap over items, ${mdCount(a.bootstrap.resamples)} draws seeded by ${mdCode(a.bootstrap.seed)}; see docs/agreement.md):`,
    '',
    ...mdHeader(
      [
        'window',
        'raters',
        'items',
        "Fleiss' κ",
        "Krippendorff's α",
        ...a.values.map((v) => `κ ${v.replace('_', ' ')}`),
      ],
      new Set([2]),
    ),
    ...rows.map(({ s, g }) =>
      mdRow([
        s.all_windows ? 'all' : s.window === null ? '(no window)' : mdCode(s.window, { inTable: true }),
        `${GROUPS[g.raters]} (${g.rater_count})`,
        g.items,
        figureText(g.fleiss_kappa),
        figureText(g.alpha.nominal!),
        ...(g.per_value ?? []).map((v) => figureText(v.fleiss_kappa)),
      ]),
    ),
    '',
  );
}

function renderLabels(labels: ReturnType<typeof labelReport>, p: (...lines: string[]) => void): void {
  const { raters, agreement } = labels;
  if (raters.length === 0) {
    p(
      'Not run: the corpus file records no label. (A label says whether the rewrite answers its comment: "answers", "does not" or "unsure".)',
    );
    return;
  }
  p(
    'No audit sample is drawn (`review-corpus audit sample`). Labels recorded in the corpus file, by rater (pseudonyms): does the rewrite answer its comment?',
    '',
    ...mdHeader(['rater', 'labelled', 'answers', 'does not', 'unsure', 'answers share'], numeric(1, 5)),
    ...raters.map((r) =>
      mdRow([
        mdCode(r.rater, { inTable: true }),
        r.total,
        r.counts.answers,
        r.counts.does_not,
        r.counts.unsure,
        r.answersShare.toFixed(3),
      ]),
    ),
  );
  if (agreement.length) {
    p(
      "Agreement between raters on the examples both labelled (Cohen's κ):",
      '',
      ...mdHeader(['rater', 'rater', 'both labelled', 'κ'], new Set([2, 3])),
      ...agreement.map((a) =>
        mdRow([mdCode(a.raterA, { inTable: true }), mdCode(a.raterB, { inTable: true }), a.both, kappa(a.kappa)]),
      ),
    );
  }
}
