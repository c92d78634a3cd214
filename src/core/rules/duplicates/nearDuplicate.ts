import type { RulesConfig } from '../../ground/config/types';
import type { DuplicateUnit, Rule } from '../types';

/**
 * A MinHash/LSH match on normalised before+after text, confirmed by exact Jaccard (≥ rules.nearDuplicateJaccard).
 * Decided for the whole organization at once by the dedup module (src/core/rules/dedup); this rule reads
 * what it found, so the funnel stays one ordered list.
 */
export const nearDuplicate: Rule<DuplicateUnit> = {
  id: 'near_duplicate',
  stage: 'duplicates',
  unit: 'examples',
  description: 'MinHash near duplicate of an earlier example',
  // The MinHash and LSH parameters are this rule's alone, though the build's worker computes the sketches.
  parameters: {
    nearDuplicateJaccard: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.85,
      description:
        'near_duplicate: exact Jaccard on shingle sets that confirms an LSH candidate (more than 0, at most 1).',
    },
    minhashPermutations: {
      type: 'integer',
      minimum: 1,
      default: 128,
      description: 'near_duplicate: MinHash permutations computed per example.',
    },
    lshBands: {
      type: 'integer',
      minimum: 1,
      default: 16,
      description:
        'near_duplicate: LSH bands; bands × rows ≤ minhashPermutations. 16 × 8 finds ≈ 99.4% of pairs at J = 0.85 and ≈ 100% at J ≥ 0.9.',
    },
    lshRows: {
      type: 'integer',
      minimum: 1,
      default: 8,
      description: 'near_duplicate: MinHash values per LSH band.',
    },
    shingleTokens: {
      type: 'integer',
      minimum: 1,
      default: 5,
      description: 'near_duplicate: tokens per shingle of the normalised before + after text.',
    },
  },
  // Each band reads its own rows of the signature, so the bands cannot need more values than it holds.
  checkParameters({
    lshBands,
    lshRows,
    minhashPermutations,
  }: Pick<RulesConfig, 'lshBands' | 'lshRows' | 'minhashPermutations'>) {
    if (lshBands * lshRows <= minhashPermutations) return undefined;
    return {
      parameter: 'lshBands',
      problem: `× lshRows must not exceed minhashPermutations (${lshBands} × ${lshRows} > ${minhashPermutations})`,
    };
  },
  decide(example) {
    const found = example.duplicate;
    if (found?.rule !== this.id) return null;
    // jaccard: the exact Jaccard of the two shingle sets (not the MinHash estimate), as the dedup confirmed it.
    return { rule: this.id, evidence: { twin: found.keptKey ?? null, jaccard: found.jaccard ?? null } };
  },
};
