// The card's "Comment-quality agreement": when two raters or more rated comment quality (hand labels,
// judge models), Fleiss' κ and Krippendorff's α per label over all windows, with their intervals.
// `review-corpus audit report` writes every window's figures to quality-agreement.json.
import {
  QUALITY_AGREEMENT_FILE,
  qualityMeasured,
  type QualityRaterAgreement,
} from '../../review/quality/qualityRaterAgreement';
import { figureText } from '../../review/quality/raterAgreement';
import { mdCode, mdCount, mdHeader, mdRow } from '../../ground/text/markdown';

const GROUPS = { humans: 'human', models: 'model', all: 'all' } as const;

export function renderQualityAgreement(q: QualityRaterAgreement | undefined, p: (...lines: string[]) => void): void {
  if (!q || !qualityMeasured(q)) return;
  const all = q.scopes.find((s) => s.all_windows)!;
  p(
    '## Comment-quality agreement',
    `Agreement among all raters of comment quality, over all windows (${mdCount(all.items)} comments rated): Fleiss' κ (each value a category), ` +
      "Krippendorff's α nominal for civility and for each type and nature label (has it or has it not), ordinal and interval for the 1–10 scores; " +
      `a rater who did not rate a comment is a missing rating. In brackets the 95% interval of a percentile bootstrap over comments seeded by ${mdCode(q.bootstrap.seed)}. ` +
      `Per window: ${mdCode(QUALITY_AGREEMENT_FILE)} (\`review-corpus audit report\`); see docs/agreement.md.`,
    '',
    ...mdHeader(['label', 'raters', 'comments', "Fleiss' κ", 'α nominal', 'α ordinal', 'α interval'], new Set([2])),
    ...all.labels.flatMap((l) =>
      l.groups
        .filter((g) => g.rater_count >= 2)
        .map((g) =>
          mdRow([
            l.label,
            `${GROUPS[g.raters]} (${g.rater_count})`,
            g.items,
            figureText(g.fleiss_kappa),
            ...(['nominal', 'ordinal', 'interval'] as const).map((level) =>
              g.alpha[level] ? figureText(g.alpha[level]) : '–',
            ),
          ]),
        ),
    ),
    '',
  );
}
