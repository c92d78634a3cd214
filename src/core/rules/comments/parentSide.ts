import type { CommentUnit, Rule } from '../types';

/** On the parent side of the diff: code the change did not write. */
export const parentSide: Rule<CommentUnit> = {
  id: 'parent_side',
  stage: 'comments',
  unit: 'comments',
  description: 'on the parent side of the diff',
  notSwitchable: 'a comment it removes cannot anchor a hunk, so no example could hold it',
  decide(comment) {
    return comment.side === 'PARENT' ? { rule: this.id } : null;
  },
};
