// The evaluation framework of CuREV ("Balancing Usefulness and Naturalness: An LLM-based Curation
// Pipeline for Code Review Comments"), section 3: what the judge answers for one review comment.
// Type and nature are multi-label; relevance, clarity and conciseness are integer scores 1..10.

export const JUDGE_TYPES = ['Refactoring', 'Bugfix', 'Testing', 'Logging', 'Documentation', 'Other'] as const;
export type JudgeType = (typeof JUDGE_TYPES)[number];

export const JUDGE_NATURES = ['Prescriptive', 'Descriptive', 'Clarification', 'Other'] as const;
export type JudgeNature = (typeof JUDGE_NATURES)[number];

export const CIVILITIES = ['Civil', 'Uncivil'] as const;
export type Civility = (typeof CIVILITIES)[number];

export interface JudgeAnswer {
  type: JudgeType[];
  nature: JudgeNature[];
  civility: Civility;
  /** 1..10 integers. */
  relevance: number;
  clarity: number;
  conciseness: number;
  /** The exemplary comment the judge wrote first, to calibrate against (the paper, section 3.3). */
  exemplaryComment?: string;
  /** The judge's rationale (the prompt asks for one: an implicit chain of thought). */
  rationale?: string;
}

/** The latest judgment of one comment by one model (and prompt version). */
export interface CommentJudgment {
  /** The comment's decision key (build/stages/decisionKeys.ts): org/change number/Gerrit comment id. */
  commentKey: string;
  model: string;
  promptVersion: string;
  /** 'unjudged': the endpoint's answer was invalid twice (or it failed); no answer is stored. */
  status: 'judged' | 'unjudged';
  answer?: JudgeAnswer;
  promptTokens?: number;
  completionTokens?: number;
  latencyMs?: number;
  judgedAt: string;
}

export type CommentQuality = 'high' | 'low' | 'irrelevant' | 'unjudged';
export const COMMENT_QUALITIES: readonly CommentQuality[] = ['high', 'low', 'irrelevant', 'unjudged'];

/** CuREV's thresholds (section 4.1), from the corpus config's judge.thresholds. */
export interface JudgeThresholds {
  /** Irrelevant when relevance is below this (CuREV: 4). */
  irrelevantBelow: number;
  /** High quality needs clarity at least this (CuREV: 7). */
  clarityMin: number;
  /** High quality needs conciseness at least this (CuREV: 7). */
  concisenessMin: number;
}

export const DEFAULT_THRESHOLDS: JudgeThresholds = { irrelevantBelow: 4, clarityMin: 7, concisenessMin: 7 };

/**
 * A comment's quality class. Irrelevance is checked first: CuREV drops irrelevant comments before
 * splitting the rest into high (civil, clear and concise enough) and low (uncivil, or either score low).
 */
export function qualityOf(j: CommentJudgment | undefined, t: JudgeThresholds = DEFAULT_THRESHOLDS): CommentQuality {
  if (!j || j.status !== 'judged' || !j.answer) return 'unjudged';
  const a = j.answer;
  if (a.relevance < t.irrelevantBelow) return 'irrelevant';
  return a.civility === 'Civil' && a.clarity >= t.clarityMin && a.conciseness >= t.concisenessMin ? 'high' : 'low';
}

/** A CuREV rewrite of one comment (the paper, section 4): 'curev' rewrites every relevant comment, 'curev+' only low-quality ones. */
export const REWRITE_MODES = ['curev', 'curev+'] as const;
export type RewriteMode = (typeof REWRITE_MODES)[number];

export interface CommentRewrite {
  commentKey: string;
  mode: RewriteMode;
  model: string;
  promptVersion: string;
  text: string;
  /** The comment keys of the high-quality exemplars the prompt carried (curev+ only). */
  exemplarKeys: string[];
  promptTokens?: number;
  completionTokens?: number;
  latencyMs?: number;
  rewrittenAt: string;
}

/** A hand label of a comment's quality, on the same framework; the rater is a pseudonym (privacy/localUser.ts). */
export interface QualityLabel {
  commentKey: string;
  rater: string;
  answer: JudgeAnswer;
  labelledAt: string;
}
