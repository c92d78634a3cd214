import type { ExampleUnit, Rule } from '../types';

/**
 * After the comment rules, none of its comments is left (only the owner's replies, acknowledgements,
 * bots or bot templates). Those comments were already counted under their comment rule; the build
 * reports that overlap as the `nothing_left_overlap` counter.
 */
export const nothingLeft: Rule<ExampleUnit> = {
  id: 'nothing_left',
  stage: 'examples',
  unit: 'examples',
  description: 'no comment survived the comment rules',
  notSwitchable: 'an example needs a comment the comment rules kept; switch those rules off instead',
  decide(example) {
    if (!example.comments.every((c) => c.removedBy !== null)) return null;
    // Which rules took its comments, so a comparison of builds can say why an example left with nothing.
    const counts = new Map<string, number>();
    for (const c of example.comments) counts.set(c.removedBy!, (counts.get(c.removedBy!) ?? 0) + 1);
    const removedBy = [...counts]
      .sort(([x], [y]) => (x < y ? -1 : 1))
      .map(([rule, n]) => `${rule} ${n}`)
      .join(', ');
    return { rule: this.id, evidence: { comments_removed_by: removedBy } };
  },
};
