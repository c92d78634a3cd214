import type { CommentUnit, Rule } from '../types';

/**
 * The comment was deleted on the host: Gerrit replaced its text with a deletion notice naming the
 * administrator, or the change's comments no longer hold it. The fetch stores the fact, never the notice
 * (src/core/gerrit/commentVersions.ts); the text from before stays in comment_versions for the builds
 * that published it, and no new build keeps it as a reviewer's comment.
 */
export const deletedOnHost: Rule<CommentUnit> = {
  id: 'deleted_on_host',
  stage: 'comments',
  unit: 'comments',
  description: 'deleted on the host (its text replaced by a deletion notice, or no longer served)',
  notSwitchable: 'the host no longer holds its text, so it cannot be kept as a reviewer comment',
  decide(comment) {
    return comment.deletedOnHost ? { rule: this.id, evidence: { deleted_since: comment.deletedOnHost } } : null;
  },
};
