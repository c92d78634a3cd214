import type { CommentUnit, Rule } from '../types';

/** A file comment: neither a line nor a range anchors it (Gerrit sends line 0 or none). */
export const noLine: Rule<CommentUnit> = {
  id: 'no_line',
  stage: 'comments',
  unit: 'comments',
  description: 'no line anchor (a file-level comment)',
  notSwitchable: 'a comment it removes cannot anchor a hunk, so no example could hold it',
  decide(comment) {
    const line = comment.line ?? 0;
    const start = comment.startLine ?? 0;
    return line <= 0 && start <= 0 ? { rule: this.id } : null;
  },
};
