import type { CommentUnit, Rule } from '../types';

/** Gerrit's pseudo-files: the commit message, the patch set as a whole, a merge's parent list. */
export const PSEUDO_FILES: ReadonlySet<string> = new Set(['/COMMIT_MSG', '/PATCHSET_LEVEL', '/MERGE_LIST']);

export const pseudoFile: Rule<CommentUnit> = {
  id: 'pseudo_file',
  stage: 'comments',
  unit: 'comments',
  description: 'on the commit message, the patch set as a whole or the merge list',
  notSwitchable: 'a comment it removes cannot anchor a hunk, so no example could hold it',
  decide(comment) {
    return PSEUDO_FILES.has(comment.path) ? { rule: this.id } : null;
  },
};
