import type { DuplicateUnit, Rule } from '../types';

/**
 * The normalised before and after text equals an earlier example.
 * Decided for the whole organization at once by the dedup module (src/core/dedup); this rule reads
 * what it found, so the funnel stays one ordered list.
 */
export const exactDuplicate: Rule<DuplicateUnit> = {
  id: 'exact_duplicate',
  stage: 'duplicates',
  unit: 'examples',
  description: 'normalised before and after identical to an earlier example',
  decide(example) {
    const found = example.duplicate;
    return found?.rule === this.id ? { rule: this.id, detail: found.keptKey ? `kept ${found.keptKey}` : undefined } : null;
  },
};
