import type { ProtectedUnit, Rule } from '../types';

/**
 * The example overlaps a protected reference (a registered set, or for a train example another window
 * of the corpus, when decontam.crossWindow is on) under the matching policy (rules.protected…, or the
 * cross-window policy; src/core/rules/decontam/policy.ts, crossWindow.ts). Decided for
 * the whole corpus at once by src/core/rules/decontam; this rule reads what it found, so the funnel stays one
 * ordered list. The evidence names the reference, the policy and the matched span of the example.
 */
export const protectedOverlap: Rule<ProtectedUnit> = {
  id: 'protected_overlap',
  stage: 'decontamination',
  unit: 'examples',
  description: 'overlaps a protected reference (another benchmark, or with decontam.crossWindow another window)',
  notSwitchable:
    'it removes only what a registered reference set (`protect`) or `decontam.crossWindow` asks for, and those are its switches',
  // The matching policy: exact and substring matches on, the Clean-PR paper's options off (docs/decontamination.md). It is this rule's: protected_comment
  // applies its comment policies only when rules.protectedCommentLevel moves comment matches there.
  // AST matching is not offered (no AST matcher exists here).
  parameters: {
    protectedWholeSide: {
      type: 'boolean',
      default: true,
      description:
        "protected_overlap: a before or after side equal to a reference's before or after, whitespace collapsed (on by default).",
    },
    protectedSideSubstring: {
      type: 'boolean',
      default: true,
      description:
        'protected_overlap: a whole reference before or after side, whitespace collapsed, found inside a longer side on token boundaries; no minimum length (on by default).',
    },
    protectedWholeComment: {
      type: 'boolean',
      default: true,
      description:
        'protected_overlap: a kept comment equal to a reference comment, whitespace collapsed (on by default).',
    },
    protectedCommentTokens: {
      type: 'integer',
      minimum: 0,
      default: 5,
      description:
        'protected_overlap: a run of at least this many consecutive word-like tokens shared by a kept comment and a reference comment (default 5); 0 turns it off.',
    },
    protectedFileSha256: {
      type: 'boolean',
      default: false,
      description:
        'protected_overlap: the SHA-256 of the whole file at patch set N or N + 1 equals that of a reference before or after side, byte for byte (off by default).',
    },
    protectedNgramTokens: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description:
        'protected_overlap: any run of this many consecutive whitespace-separated tokens shared by a side and a reference side (15 is a common choice, docs/decontamination.md); 0 (the default) turns it off.',
    },
    protectedTokenJaccard: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0,
      description:
        'protected_overlap: Jaccard of the sets of distinct whitespace-separated tokens of one side and one reference side at least this (0.5 is a common choice, docs/decontamination.md); 0 (the default) turns it off.',
    },
  },
  decide(example) {
    const o = example.overlap;
    if (!o) return null;
    return {
      rule: this.id,
      evidence: {
        reference_set: o.set,
        reference_id: o.id,
        reference_field: o.referenceField,
        policy: o.policy,
        side: o.side,
        ...(o.commentId !== undefined ? { comment: o.commentId } : {}),
        span_start: o.start,
        span_end: o.end,
        ...(o.jaccard !== undefined ? { jaccard: Math.round(o.jaccard * 1e6) / 1e6 } : {}),
        // Another window's match: what matched, here and there (a registered set's text is never quoted).
        ...(o.quote ? { matched_text: o.quote.matched, reference_text: o.quote.reference } : {}),
      },
    };
  },
};
