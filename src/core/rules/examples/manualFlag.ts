import type { ExampleUnit, Rule } from '../types';

/** A user confirmed a flag on this example in the inspector (flags.status = 'confirmed'). */
export const manualFlag: Rule<ExampleUnit> = {
  id: 'manual_flag',
  stage: 'examples',
  unit: 'examples',
  description: 'a user confirmed a flag on it',
  decide(example) {
    return example.flagConfirmed ? { rule: this.id } : null;
  },
};
