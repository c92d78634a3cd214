// The matching policy of protected_overlap, read from the rules config (the rule's declaration,
// rules/decontamination/protectedOverlap.ts, holds each parameter's meaning and default). The exact and substring matches are on by default; the Clean-PR paper's options are off.
import type { RulesConfig } from '../../ground/config/types';

/** The policies, in the order they are tried; the first that matches names the removal. */
export const POLICY_NAMES = [
  'whole_side',
  'side_substring',
  'file_sha256',
  'shared_ngram',
  'token_jaccard',
  'whole_comment',
  'comment_substring',
] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

export interface MatchingPolicy {
  wholeSide: boolean;
  sideSubstring: boolean;
  wholeComment: boolean;
  /** Shared run of word-like tokens between comments; 0: off. */
  commentTokens: number;
  fileSha256: boolean;
  /** Shared run of whitespace tokens between sides; 0: off. */
  ngramTokens: number;
  /** Token-set Jaccard between sides; 0: off. */
  tokenJaccard: number;
  /** Offered only as off: there is no AST matcher (docs/decontamination.md). */
  ast: false;
  /**
   * What a comment match removes: the whole example (protected_overlap, the default), or only the comment
   * (protected_comment, rules.protectedCommentLevel). A code match always removes the example.
   */
  commentMatchRemoves: 'example' | 'comment';
}

export function matchingPolicy(rules: RulesConfig): MatchingPolicy {
  return {
    wholeSide: rules.protectedWholeSide,
    sideSubstring: rules.protectedSideSubstring,
    wholeComment: rules.protectedWholeComment,
    commentTokens: rules.protectedCommentTokens,
    fileSha256: rules.protectedFileSha256,
    ngramTokens: rules.protectedNgramTokens,
    tokenJaccard: rules.protectedTokenJaccard,
    ast: false,
    commentMatchRemoves: rules.protectedCommentLevel ? 'comment' : 'example',
  };
}

/** The policy the example pass uses: without the comment policies when comments are protected one by one. */
export function examplePolicy(policy: MatchingPolicy): MatchingPolicy {
  return policy.commentMatchRemoves === 'comment' ? { ...policy, wholeComment: false, commentTokens: 0 } : policy;
}

/** The comment policies alone, for the comment pass (protected_comment). */
export function commentOnlyPolicy(policy: MatchingPolicy): MatchingPolicy {
  return { ...policy, wholeSide: false, sideSubstring: false, fileSha256: false, ngramTokens: 0, tokenJaccard: 0 };
}
