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
    if (found?.rule !== this.id) return null;
    // jaccard: the exact Jaccard of the two shingle sets (not the MinHash estimate), as the dedup confirmed it.
    return { rule: this.id, evidence: { twin: found.keptKey ?? null, jaccard: found.jaccard ?? null } };
  },
};
