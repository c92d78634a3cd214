// Agreement among all raters of comment quality at once (the judge's framework, judgments/types.ts):
// human raters (quality_labels), model raters (each model's latest judged answer) and both, per label
// and per window of the comment's example in the build. Each label is rated on its own: civility a
// category; each type and nature label a category of its own, has it or has it not (the answers are
// multi-label); relevance, clarity and conciseness 1..10 scores, ordinal and interval α. Beside the
// pairwise κ of agreement.ts.
import type { CorpusStore } from '../../ground/store/corpusStore';
import type { Level } from '../../ground/stats/manyRaters';
import { CIVILITIES, JUDGE_NATURES, JUDGE_TYPES, type JudgeAnswer } from '../../build/judgments/types';
import { commentKey } from '../../build/stages/decisionKeys';
import { keptCommentsSql } from '../judge/judgeItems';
import type { RaterKind } from '../labels/importLabels';
import { BOOTSTRAP, figureText, groupFigures, type GroupFigures, type LabelSpec, type Rater } from './raterAgreement';
import { answersByRater, SCORE_NAMES } from './agreement';

/** What the answers are rated as, as plain data (the inspector hands it to a worker process). */
export interface QualityAgreementInput {
  /** The window of each kept comment of the build (a rated comment not kept counts in "all windows" only). */
  windows: [string, string | null][];
  raters: { name: string; kind: RaterKind; answers: [string, JudgeAnswer][] }[];
}

export interface QualityLabelFigures {
  label: string;
  groups: GroupFigures[];
}

export interface QualityScope {
  all_windows: boolean;
  window: string | null;
  /** Comments rated by any rater here. */
  items: number;
  labels: QualityLabelFigures[];
}

export interface QualityRaterAgreement {
  bootstrap: typeof BOOTSTRAP & { seed: string };
  scopes: QualityScope[];
}

/** What `audit report` writes the figures to. */
export const QUALITY_AGREEMENT_FILE = 'quality-agreement.json';

/** The seed of the quality figures' bootstrap: fixed, so the same answers give the same intervals. */
export const QUALITY_SEED = 'quality-agreement';

export function qualityAgreementInput(store: CorpusStore, buildId: number | undefined): QualityAgreementInput {
  const { models, humans } = answersByRater(store);
  const windows = new Map<string, string | null>();
  if (buildId !== undefined && models.size + humans.size >= 2)
    store.each(keptCommentsSql('h.org, c.number, cm.gerrit_id, e.window'), [buildId], (r) => {
      const key = commentKey(String(r.org), Number(r.number), String(r.gerrit_id));
      if (!windows.has(key)) windows.set(key, r.window === null ? null : String(r.window));
    });
  const raters = (m: Map<string, Map<string, JudgeAnswer>>, kind: RaterKind) =>
    [...m].sort(([a], [b]) => a.localeCompare(b)).map(([name, answers]) => ({ name, kind, answers: [...answers] }));
  return { windows: [...windows], raters: [...raters(humans, 'human'), ...raters(models, 'model')] };
}

type Pick = (a: JudgeAnswer) => string | number;
const SCORES = Array.from({ length: 10 }, (_, i) => i + 1);
const LABELS: { spec: LabelSpec<string | number>; pick: Pick }[] = [
  { spec: { label: 'civility', values: CIVILITIES, levels: ['nominal'] }, pick: (a) => a.civility },
  ...JUDGE_TYPES.map((t) => ({
    spec: { label: `type ${t}`, values: ['yes', 'no'], levels: ['nominal'] as Level[] },
    pick: (a: JudgeAnswer) => (a.type.includes(t) ? 'yes' : 'no'),
  })),
  ...JUDGE_NATURES.map((n) => ({
    spec: { label: `nature ${n}`, values: ['yes', 'no'], levels: ['nominal'] as Level[] },
    pick: (a: JudgeAnswer) => (a.nature.includes(n) ? 'yes' : 'no'),
  })),
  ...SCORE_NAMES.map((s) => ({
    spec: { label: s, values: SCORES, levels: ['ordinal', 'interval'] as Level[], scale: SCORES },
    pick: (a: JudgeAnswer) => a[s],
  })),
];

export function qualityRaterAgreement(input: QualityAgreementInput): QualityRaterAgreement {
  const window = new Map(input.windows);
  const keys = [...new Set(input.raters.flatMap((r) => r.answers.map(([k]) => k)))].sort();
  const names = [...new Set(keys.filter((k) => window.has(k)).map((k) => window.get(k)!))];
  const windows = names.sort((a, b) => (a ?? '').localeCompare(b ?? ''));
  const perLabel = LABELS.map(({ spec, pick }) => ({
    spec,
    raters: input.raters.map((r): Rater<string | number> => ({
      name: r.name,
      kind: r.kind,
      ratings: new Map(r.answers.map(([k, a]) => [k, pick(a)])),
    })),
  }));
  const scope = (all: boolean, w: string | null): QualityScope => {
    const inScope = keys.filter((k) => all || (window.has(k) && window.get(k) === w));
    const at = all ? 'all windows' : `window ${w ?? '(none)'}`;
    return {
      all_windows: all,
      window: all ? null : w,
      items: inScope.length,
      labels: perLabel.map(({ spec, raters }) => ({
        label: spec.label,
        groups: groupFigures(inScope, raters, spec, `${QUALITY_SEED}\n${at}`),
      })),
    };
  };
  return {
    bootstrap: { ...BOOTSTRAP, seed: QUALITY_SEED },
    scopes: keys.length === 0 ? [] : [scope(true, null), ...windows.map((w) => scope(false, w))],
  };
}

const GROUP_WORDS = { humans: 'human raters', models: 'model raters', all: 'all raters' } as const;

/** One line per window, label and rater group with two raters or more, as `audit report` prints them. */
export function qualityAgreementLines(q: QualityRaterAgreement): string[] {
  return q.scopes.flatMap((s) =>
    s.labels.flatMap((l) =>
      l.groups
        .filter((g) => g.rater_count >= 2)
        .map(
          (g) =>
            `comment quality, ${s.all_windows ? 'all windows' : `window ${s.window ?? '(none)'}`}, ${l.label}, ${GROUP_WORDS[g.raters]} (${g.rater_count}, ${g.items} comments rated twice or more): ` +
            `Fleiss' κ ${figureText(g.fleiss_kappa)}` +
            (['nominal', 'ordinal', 'interval'] as const)
              .filter((level) => g.alpha[level])
              .map((level) => `, ${level} α ${figureText(g.alpha[level]!)}`)
              .join(''),
        ),
    ),
  );
}

/** Whether any group of the figures had two raters or more. */
export const qualityMeasured = (q: QualityRaterAgreement): boolean =>
  q.scopes.some((s) => s.labels.some((l) => l.groups.some((g) => g.rater_count >= 2)));
