import type { DuplicateUnit, Rule } from '../types';

/**
 * A normalised before-hunk seen in at least rules.boilerplateMinChanges distinct changes.
 * Decided for the whole organization at once by the dedup module (src/core/dedup); this rule reads
 * what it found, so the funnel stays one ordered list.
 */
export const boilerplate: Rule<DuplicateUnit> = {
  id: 'boilerplate',
  stage: 'duplicates',
  unit: 'examples',
  description: 'shared boilerplate hunk (e.g. a licence header)',
  decide(example) {
    const found = example.duplicate;
    return found?.rule === this.id ? { rule: this.id, detail: found.keptKey ? `kept ${found.keptKey}` : undefined } : null;
  },
};
