import type { CommentUnit, Rule } from '../types';

/**
 * CuREV's filter (the CuREV paper, section 4.1): a comment the judge scored below the relevance threshold
 * (default 4) goes, because rephrasing cannot make it relevant. Off by default (judge.irrelevantComment):
 * the rules are fixed before any outcome is read (docs/rules.md), and a judge's score is an outcome. The build sets
 * the stored judgment on the unit (core/build/judgments/irrelevance.ts) after the other comment rules kept it; a
 * comment without one is kept and counted as irrelevant_unjudged.
 */
export const irrelevantComment: Rule<CommentUnit> = {
  id: 'irrelevant_comment',
  stage: 'comments',
  unit: 'comments',
  description:
    'the judge scored its relevance below the threshold (CuREV filtering; only when judge.irrelevantComment is on)',
  notSwitchable: 'judge.irrelevantComment switches it',
  decide(comment) {
    const j = comment.judgeRelevance;
    if (!j || j.relevance >= j.below) return null;
    return { rule: this.id, evidence: { relevance: j.relevance, below: j.below, model: j.model } };
  },
};
