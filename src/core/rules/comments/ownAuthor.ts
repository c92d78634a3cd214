import type { CommentUnit, Rule } from '../types';

/** Written by the change's owner (compared as pseudonyms): it can describe the edit it precedes. */
export const ownAuthor: Rule<CommentUnit> = {
  id: 'own_author',
  stage: 'comments',
  unit: 'comments',
  description: "written by the change's owner",
  decide(comment) {
    return comment.author !== null && comment.author === comment.owner ? { rule: this.id } : null;
  },
};
