import type { ExampleUnit, Rule } from '../types';

// Gerrit's "Suggest edit" fence (USER_SUGGESTION_START_PATTERN in polygerrit-ui gr-comment.ts is
// "```suggestion\n"). Anchored to a line of its own: the fence, then only spaces or tabs, then the end
// of the line (a CRLF line's "\r" is tolerated).
const FENCE = /^```suggestion[ \t]*\r?$/m;

export function opensSuggestionFence(message: string): boolean {
  return FENCE.test(message);
}

/**
 * Any attached comment opens a suggested edit, by a fence or by Gerrit's structured fix_suggestions
 * (what newer Gerrit UIs store for "Suggest edit"): the target is the reviewer's text, already in the
 * prompt. Looks at every attached comment, including those the comment rules removed.
 */
export const suggestedEdit: Rule<ExampleUnit> = {
  id: 'suggested_edit',
  stage: 'examples',
  unit: 'examples',
  description: 'a comment holds a Gerrit suggested edit',
  decide(example) {
    const c = example.comments.find((x) => x.hasFixSuggestion || opensSuggestionFence(x.message));
    return c
      ? { rule: this.id, evidence: { form: c.hasFixSuggestion ? 'fix_suggestions' : 'suggestion fence' } }
      : null;
  },
};
