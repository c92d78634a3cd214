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
    // The edit's line counts: 0 before is a pure addition, 0 after a pure deletion.
    if (hunk.editLinesBefore === 0 || hunk.editLinesAfter === 0)
      return { rule: this.id, evidence: { editBefore: hunk.editLinesBefore, editAfter: hunk.editLinesAfter } };
    return null;
  },
};
