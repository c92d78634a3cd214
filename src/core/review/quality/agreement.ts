// Agreement on CuREV's framework (section 3.4, Table 5), over the comments both raters answered:
// - civility: Cohen's κ over Civil/Uncivil;
// - type and nature, multi-label: each label one-vs-rest (has it / has it not) as its own binary
//   Cohen's κ, plus their mean over the labels where κ is defined (a macro average);
// - relevance, clarity and conciseness (1..10): Cohen's κ, and quadratic-weighted κ with weights
//   (i − j)² on the score values themselves (not on the ranks of the scores that occur).
// κ is null when it is undefined: no pair, or chance agreement is total (both raters never vary).
// Pairs: judge against each human rater (quality_labels), and judge against judge (two models).
import type { CorpusStore } from '../../ground/store/corpusStore';
import { readAllJudgments, readQualityLabels } from '../../build/judgments/judgmentStore';
import { JUDGE_NATURES, JUDGE_TYPES, type JudgeAnswer } from '../../build/judgments/types';
import { cohensKappa, quadraticKappa } from '../../ground/stats/kappa';

// Re-exported: agreement.test.ts checks them from here.
export { cohensKappa, quadraticKappa };

export const SCORE_NAMES = ['relevance', 'clarity', 'conciseness'] as const;
export type ScoreName = (typeof SCORE_NAMES)[number];

export interface LabelSetAgreement {
  perLabel: Record<string, number | null>;
  /** Mean of the defined per-label κ; null when none is. */
  mean: number | null;
}

export interface AnswerAgreement {
  raterA: string;
  raterB: string;
  kind: 'judge-human' | 'judge-judge';
  /** Comments both answered. */
  items: number;
  civility: number | null;
  type: LabelSetAgreement;
  nature: LabelSetAgreement;
  scores: Record<ScoreName, { kappa: number | null; quadratic: number | null }>;
}

function oneVsRest(
  pairs: [JudgeAnswer, JudgeAnswer][],
  labels: readonly string[],
  pick: (a: JudgeAnswer) => readonly string[],
): LabelSetAgreement {
  const perLabel: Record<string, number | null> = {};
  for (const l of labels)
    perLabel[l] = cohensKappa(pairs.map(([a, b]) => [pick(a).includes(l), pick(b).includes(l)] as const));
  const defined = Object.values(perLabel).filter((k): k is number => k !== null);
  return { perLabel, mean: defined.length ? defined.reduce((s, k) => s + k, 0) / defined.length : null };
}

/** Agreement of two raters' answers, keyed by comment key; only keys both hold count. */
export function answerAgreement(
  a: ReadonlyMap<string, JudgeAnswer>,
  b: ReadonlyMap<string, JudgeAnswer>,
  names: Pick<AnswerAgreement, 'raterA' | 'raterB' | 'kind'>,
): AnswerAgreement {
  const pairs: [JudgeAnswer, JudgeAnswer][] = [];
  for (const [key, x] of [...a].sort(([k1], [k2]) => (k1 < k2 ? -1 : 1))) {
    const y = b.get(key);
    if (y) pairs.push([x, y]);
  }
  const scores = Object.fromEntries(
    SCORE_NAMES.map((s) => [
      s,
      {
        kappa: cohensKappa(pairs.map(([x, y]) => [x[s], y[s]] as const)),
        quadratic: quadraticKappa(pairs.map(([x, y]) => [x[s], y[s]] as const)),
      },
    ]),
  ) as AnswerAgreement['scores'];
  return {
    ...names,
    items: pairs.length,
    civility: cohensKappa(pairs.map(([x, y]) => [x.civility, y.civility] as const)),
    type: oneVsRest(pairs, JUDGE_TYPES, (x) => x.type),
    nature: oneVsRest(pairs, JUDGE_NATURES, (x) => x.nature),
    scores,
  };
}

/** Answers by rater and comment: each model's latest judged answer, and each person's quality label. */
export function answersByRater(store: CorpusStore): {
  models: Map<string, Map<string, JudgeAnswer>>;
  humans: Map<string, Map<string, JudgeAnswer>>;
} {
  const models = new Map<string, Map<string, JudgeAnswer>>();
  for (const j of readAllJudgments(store, { judgedOnly: true })) {
    if (!j.answer) continue;
    if (!models.has(j.model)) models.set(j.model, new Map());
    models.get(j.model)!.set(j.commentKey, j.answer);
  }
  const humans = new Map<string, Map<string, JudgeAnswer>>();
  for (const l of readQualityLabels(store)) {
    if (!humans.has(l.rater)) humans.set(l.rater, new Map());
    humans.get(l.rater)!.set(l.commentKey, l.answer);
  }
  return { models, humans };
}

/** Every judge-vs-human and judge-vs-judge pair in the file: each model's latest judged answer per comment. */
export function qualityAgreement(store: CorpusStore): AnswerAgreement[] {
  const { models, humans } = answersByRater(store);
  const out: AnswerAgreement[] = [];
  const modelNames = [...models.keys()].sort();
  for (const m of modelNames)
    for (const h of [...humans.keys()].sort())
      out.push(answerAgreement(models.get(m)!, humans.get(h)!, { raterA: m, raterB: h, kind: 'judge-human' }));
  for (let i = 0; i < modelNames.length; i++) {
    for (let k = i + 1; k < modelNames.length; k++) {
      out.push(
        answerAgreement(models.get(modelNames[i])!, models.get(modelNames[k])!, {
          raterA: modelNames[i],
          raterB: modelNames[k],
          kind: 'judge-judge',
        }),
      );
    }
  }
  return out;
}
