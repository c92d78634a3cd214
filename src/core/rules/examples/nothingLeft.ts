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
    return example.comments.every((c) => c.removedBy !== null) ? { rule: this.id } : null;
  },
};
