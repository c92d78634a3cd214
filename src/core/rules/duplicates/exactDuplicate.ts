import type { DuplicateUnit, Rule } from '../types';

/**
 * The normalised before and after text equals an earlier example.
 * Decided for the whole organization at once by the dedup module (src/core/rules/dedup); this rule reads
 * what it found, so the funnel stays one ordered list.
 */
export const exactDuplicate: Rule<DuplicateUnit> = {
  id: 'exact_duplicate',
  stage: 'duplicates',
  unit: 'examples',
  description: 'normalised before and after identical to an earlier example',
  decide(example) {
    const found = example.duplicate;
    if (found?.rule !== this.id) return null;
    // Identical normalised text has the identical shingle set: its Jaccard with the twin is 1 by definition.
    return { rule: this.id, evidence: { twin: found.keptKey ?? null, jaccard: 1 } };
  },
};
