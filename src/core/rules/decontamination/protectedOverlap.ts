import type { ProtectedUnit, Rule } from '../types';

/**
 * The example overlaps a protected reference (a registered set, or for a train example another window
 * of the corpus) under the matching policy (rules.protected…; src/core/decontam/policy.ts). Decided for
 * the whole corpus at once by src/core/decontam; this rule reads what it found, so the funnel stays one
 * ordered list. The evidence names the reference, the policy and the matched span of the example.
 */
export const protectedOverlap: Rule<ProtectedUnit> = {
  id: 'protected_overlap',
  stage: 'decontamination',
  unit: 'examples',
  description: 'overlaps a protected reference (another benchmark, or a dev/test window)',
  decide(example) {
    const o = example.overlap;
    if (!o) return null;
    return {
      rule: this.id,
      evidence: {
        reference_set: o.set, reference_id: o.id, reference_field: o.referenceField, policy: o.policy, side: o.side,
        ...(o.commentId !== undefined ? { comment: o.commentId } : {}),
        span_start: o.start, span_end: o.end,
        ...(o.jaccard !== undefined ? { jaccard: Math.round(o.jaccard * 1e6) / 1e6 } : {}),
      },
    };
  },
};
