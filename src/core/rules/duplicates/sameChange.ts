import type { DuplicateUnit, Rule } from '../types';

/**
 * The same change under two numbers (same Change-Id): the earliest is kept.
 * Decided for the whole organization at once by the dedup module (src/core/rules/dedup); this rule reads
 * what it found, so the funnel stays one ordered list.
 */
export const sameChange: Rule<DuplicateUnit> = {
  id: 'same_change',
  stage: 'duplicates',
  unit: 'examples',
  description: 'the same change under another number (same Change-Id)',
  decide(example) {
    const found = example.duplicate;
    if (found?.rule !== this.id) return null;
    // twin: the kept change's earliest finally-kept example (its earliest one when none is kept).
    return { rule: this.id, evidence: { twin: found.keptKey ?? null } };
  },
};
