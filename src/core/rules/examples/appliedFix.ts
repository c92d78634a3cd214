import type { ExampleUnit, Rule } from '../types';

/** Gerrit's one-click reply after a fix was applied; surrounding whitespace aside, the whole text. */
export function isAppliedFixReply(message: string): boolean {
  return message.trim() === 'Fix applied.';
}

/**
 * A comment is Gerrit's "Fix applied." reply. The owner posts it, so own_author removed it as a
 * comment; this rule therefore looks at every attached comment, removed or not.
 */
export const appliedFix: Rule<ExampleUnit> = {
  id: 'applied_fix',
  stage: 'examples',
  unit: 'examples',
  description: 'a comment is Gerrit\'s "Fix applied." reply',
  decide(example) {
    return example.comments.some((c) => isAppliedFixReply(c.message)) ? { rule: this.id } : null;
  },
};
