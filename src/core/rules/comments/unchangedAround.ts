import type { RulesConfig } from '../../ground/config/types';
import type { CommentUnit, Rule } from '../types';
import { commentSpan } from './commentSpan';

/**
 * The side-A lines patch set N + 1 must touch for a comment to count as answered: the commented lines
 * widened by rules.aroundLines (the window may start before line 1). The build applies it to the diff
 * (build/stages/anchoring.ts), since only the build holds the diff; this rule records it as evidence.
 */
export function aroundWindow(
  span: { first: number; last: number },
  rules: Pick<RulesConfig, 'aroundLines'>,
): { from: number; to: number } {
  return { from: span.first - rules.aroundLines, to: span.last + rules.aroundLines };
}

/**
 * Patch set N + 1 changed nothing within rules.aroundLines of the comment's line or range. The build
 * decides `changedAround` from the diff (see build/stages/anchoring.ts); without a diff it is null, this
 * rule stands aside, and `fetch_error` (the last comment rule) removes the comment instead.
 */
export const unchangedAround: Rule<CommentUnit> = {
  id: 'unchanged_around',
  stage: 'comments',
  unit: 'comments',
  description: 'the next patch set changed nothing near it',
  notSwitchable: 'without an edit near the comment there is no hunk to form an example from',
  parameters: {
    aroundLines: {
      type: 'integer',
      minimum: 0,
      default: 3,
      description: 'unchanged_around: lines on each side of a comment that the next patch set must touch.',
    },
  },
  decide(comment, ctx) {
    if (comment.changedAround !== false) return null;
    // The window the build checked, from line 1 at the least (a file has no line 0 to show).
    const checked = aroundWindow(commentSpan(comment), ctx.rules);
    const window = { from: Math.max(1, checked.from), to: checked.to };
    // fileUnchanged: no diff was read, since N + 1's files list leaves the file out.
    return { rule: this.id, evidence: comment.diff === 'unchanged' ? { ...window, fileUnchanged: true } : window };
  },
};
