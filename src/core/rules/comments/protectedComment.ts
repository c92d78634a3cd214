import { switchedOff } from '../switchedOff';
import type { CommentUnit, Rule } from '../types';

/**
 * Comment-level decontamination (rules.protectedCommentLevel; off by default): a comment that would be
 * kept overlaps a reference comment (a registered set's, or for a train comment one kept in another
 * window) under the comment policies, whole_comment and comment_substring. Only the comment goes; its
 * example stays if another comment is left, and is nothing_left otherwise. The build's comment stage
 * finds the match (src/core/rules/decontam/protectComments.ts) after the other comment rules kept the comment;
 * this rule reads it, so the funnel stays one ordered list.
 */
/** Why protected_comment reads "not counted" while it is off: it decided nothing, which is not removing none. */
export const PROTECTED_COMMENT_OFF = switchedOff(
  'rules.protectedCommentLevel',
  'the default; a comment match removes its example',
);

export const protectedComment: Rule<CommentUnit> = {
  id: 'protected_comment',
  stage: 'comments',
  unit: 'comments',
  description: 'the comment overlaps a protected reference comment (comment-level decontamination, when configured)',
  notSwitchable: 'rules.protectedCommentLevel switches it',
  // The comment policies it applies are protected_overlap's (decontamination/protectedOverlap.ts).
  parameters: {
    protectedCommentLevel: {
      type: 'boolean',
      default: false,
      description:
        'protected_comment: when true, a comment match (whole_comment, comment_substring) removes only the comment, at the comments stage, not its example; an example left with no comment is nothing_left. Off (the default): it removes the example (docs/decontamination.md).',
    },
  },
  decide(comment) {
    const o = comment.protectedMatch;
    if (!o) return null;
    return {
      rule: this.id,
      evidence: {
        reference_set: o.set,
        reference_id: o.id,
        reference_field: 'comment',
        policy: o.policy,
        span_start: o.start,
        span_end: o.end,
        ...(o.quote ? { matched_text: o.quote.matched, reference_text: o.quote.reference } : {}),
      },
    };
  },
};
