import type { CommentUnit, Rule } from '../types';

/**
 * Case, whitespace and trailing punctuation do not matter: "Done.", " done!! " and "DONE" are one
 * acknowledgement. Only trailing punctuation goes, so "+1" stays "+1".
 */
export function normaliseAcknowledgement(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!?,;:…]+$/u, '');
}

/** The whole text, normalised, is one of rules.acknowledgements ("Done", "Ack", "LGTM", "+1", …). */
export const acknowledgement: Rule<CommentUnit> = {
  id: 'acknowledgement',
  stage: 'comments',
  unit: 'comments',
  description: 'its whole text is an acknowledgement',
  // nothing_left reads the same list (an example left with only acknowledgements); it is this rule's.
  parameters: {
    acknowledgements: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      default: ['done', 'ack', 'acknowledged', 'lgtm', '+1', 'thanks', 'thank you', 'fixed', 'will do', 'ok', 'okay'],
      description:
        'acknowledgement: whole comment texts, compared after normalising case, whitespace and trailing punctuation.',
    },
  },
  decide(comment, ctx) {
    const text = normaliseAcknowledgement(comment.message);
    return ctx.acknowledgements.has(text) ? { rule: this.id, evidence: { text } } : null;
  },
};
