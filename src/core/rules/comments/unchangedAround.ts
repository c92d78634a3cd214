import type { CommentUnit, Rule } from '../types';

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
  decide(comment) {
    return comment.changedAround === false ? { rule: this.id } : null;
  },
};
