import type { HunkUnit, Rule } from '../types';

/**
 * One side of the edit is empty: a pure addition or a pure deletion. Counted on the edit alone (the
 * changed chunks, not the context), summed over the hunk: a hunk holding a deletion and, elsewhere,
 * an addition has text on both sides and stays.
 */
export const oneSided: Rule<HunkUnit> = {
  id: 'one_sided',
  stage: 'hunks',
  unit: 'hunks',
  description: 'one side of the edit is empty (pure addition or deletion)',
  decide(hunk) {
    if (hunk.editLinesBefore === 0) return { rule: this.id, detail: 'pure addition' };
    if (hunk.editLinesAfter === 0) return { rule: this.id, detail: 'pure deletion' };
    return null;
  },
};
