import type { DuplicateUnit, Rule } from '../types';

/**
 * The same change under two numbers (same Change-Id): the earliest is kept.
 * Decided for the whole organization at once by the dedup module (src/core/dedup); this rule reads
 * what it found, so the funnel stays one ordered list.
 */
export const sameChange: Rule<DuplicateUnit> = {
  id: 'same_change',
  stage: 'duplicates',
  unit: 'examples',
  description: 'the same change under another number (same Change-Id)',
  decide(example) {
    const found = example.duplicate;
    return found?.rule === this.id ? { rule: this.id, detail: found.keptKey ? `kept ${found.keptKey}` : undefined } : null;
  },
};
