import type { CommentUnit, Rule } from '../types';

/** On the parent side of the diff: code the change did not write. */
export const parentSide: Rule<CommentUnit> = {
  id: 'parent_side',
  stage: 'comments',
  unit: 'comments',
  description: 'on the parent side of the diff',
  decide(comment) {
    return comment.side === 'PARENT' ? { rule: this.id } : null;
  },
};
