import type { DuplicateUnit, Rule } from '../types';

/**
 * A MinHash/LSH match on normalised before+after text, confirmed by exact Jaccard (≥ rules.nearDuplicateJaccard).
 * Decided for the whole organization at once by the dedup module (src/core/dedup); this rule reads
 * what it found, so the funnel stays one ordered list.
 */
export const nearDuplicate: Rule<DuplicateUnit> = {
  id: 'near_duplicate',
  stage: 'duplicates',
  unit: 'examples',
  description: 'MinHash near duplicate of an earlier example',
  decide(example) {
    const found = example.duplicate;
    return found?.rule === this.id ? { rule: this.id, detail: found.keptKey ? `kept ${found.keptKey}` : undefined } : null;
  },
};
