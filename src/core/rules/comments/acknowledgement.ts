import type { CommentUnit, Rule } from '../types';

/**
 * Case, whitespace and trailing punctuation do not matter: "Done.", " done!! " and "DONE" are one
 * acknowledgement. Only trailing punctuation goes, so "+1" stays "+1".
 */
export function normaliseAcknowledgement(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim().replace(/[\s.!?,;:…]+$/u, '');
}

/** The whole text, normalised, is one of rules.acknowledgements ("Done", "Ack", "LGTM", "+1", …). */
export const acknowledgement: Rule<CommentUnit> = {
  id: 'acknowledgement',
  stage: 'comments',
  unit: 'comments',
  description: 'its whole text is an acknowledgement',
  decide(comment, ctx) {
    const text = normaliseAcknowledgement(comment.message);
    return ctx.acknowledgements.has(text) ? { rule: this.id, evidence: { text } } : null;
  },
};
