import type { CommentUnit, Rule } from '../types';

/**
 * The host would not return the diff the comment needs (stored with an error, or not stored at all).
 * Last of the comment rules, so only comments that would otherwise anchor an example land here.
 */
export const commentFetchError: Rule<CommentUnit> = {
  id: 'fetch_error',
  stage: 'comments',
  unit: 'comments',
  description: 'the host would not return the diff it needs',
  notSwitchable: 'without the diff no hunk can be formed',
  decide(comment) {
    return comment.diff === 'missing' || comment.diff === 'error'
      ? { rule: this.id, evidence: { diff: comment.diff } }
      : null;
  },
};
