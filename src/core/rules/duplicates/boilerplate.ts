import type { DuplicateUnit, Rule } from '../types';

/**
 * A normalised before-hunk seen in at least rules.boilerplateMinChanges distinct changes.
 * Decided for the whole organization at once by the dedup module (src/core/rules/dedup); this rule reads
 * what it found, so the funnel stays one ordered list.
 */
export const boilerplate: Rule<DuplicateUnit> = {
  id: 'boilerplate',
  stage: 'duplicates',
  unit: 'examples',
  description: 'shared boilerplate hunk (e.g. a licence header)',
  parameters: {
    boilerplateMinChanges: {
      type: 'integer',
      minimum: 2,
      default: 5,
      description: 'boilerplate: a before-hunk seen in this many distinct changes is removed everywhere.',
    },
  },
  decide(example) {
    const found = example.duplicate;
    if (found?.rule !== this.id) return null;
    // sha256: of the normalised before-hunk the examples share (base64); changes: how many distinct changes carry it.
    return {
      rule: this.id,
      evidence: { sha256: found.boilerplate?.sha256 ?? null, changes: found.boilerplate?.changes ?? null },
    };
  },
};
