import type { CommentUnit, Rule } from '../types';

/**
 * Written after its change was merged. Patch set N + 1 existed before the comment did, so it cannot be
 * the comment's answer: the pair would label a rewrite with a comment it never answered. A later fetch
 * brings such comments in (a reply or a note after the merge moves the change's updated time). Decided
 * from the comment's own time against the change's merge time (ChangeInfo.submitted); a change fetched
 * before that time was stored has none, and its comments are kept.
 */
export const postMergeComment: Rule<CommentUnit> = {
  id: 'post_merge_comment',
  stage: 'comments',
  unit: 'comments',
  description: 'written after its change was merged, so no patch set answered it',
  decide(comment) {
    const { written, changeMerged } = comment;
    if (!written || !changeMerged || written <= changeMerged) return null;
    return { rule: this.id, evidence: { written, merged: changeMerged } };
  },
};
