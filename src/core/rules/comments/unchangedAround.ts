import type { CommentUnit, Rule } from '../types';
import { commentSpan } from './commentSpan';

/**
 * Patch set N + 1 changed nothing within rules.aroundLines of the comment's line or range. The build
 * decides `changedAround` from the diff (see build/anchoring.ts); without a diff it is null, this rule
 * stands aside, and `fetch_error` (the last comment rule) removes the comment instead.
 */
export const unchangedAround: Rule<CommentUnit> = {
  id: 'unchanged_around',
  stage: 'comments',
  unit: 'comments',
  description: 'the next patch set changed nothing near it',
  decide(comment, ctx) {
    if (comment.changedAround !== false) return null;
    // The window the build checked (anchoring.ts): the commented lines widened by aroundLines on side A.
    const { first, last } = commentSpan(comment);
    const window = { from: Math.max(1, first - ctx.rules.aroundLines), to: last + ctx.rules.aroundLines };
    // fileUnchanged: no diff was read, since N + 1's files list leaves the file out.
    return { rule: this.id, evidence: comment.diff === 'unchanged' ? { ...window, fileUnchanged: true } : window };
  },
};
