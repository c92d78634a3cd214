import type { CommentUnit, Rule } from '../types';

/** No later patch set answered it: patch set N + 1 does not exist (or N is unknown). */
export const noSuccessor: Rule<CommentUnit> = {
  id: 'no_successor',
  stage: 'comments',
  unit: 'comments',
  description: 'no later patch set answered it',
  notSwitchable: 'a comment it removes cannot anchor a hunk, so no example could hold it',
  decide(comment) {
    return comment.patchSet === null || !comment.hasNextPatchSet ? { rule: this.id } : null;
  },
};
