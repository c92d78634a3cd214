// The matching policy of protected_overlap, read from the rules config (ruleParameters.ts holds each
// parameter's meaning and default). Seed 003's defaults are on; seed 004's options are off.
import type { RulesConfig } from '../config/types';

/** The policies, in the order they are tried; the first that matches names the removal. */
export const POLICY_NAMES = ['whole_side', 'side_substring', 'file_sha256', 'shared_ngram', 'token_jaccard', 'whole_comment', 'comment_substring'] as const;
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
  /** Offered only as off: there is no AST matcher (seed 003 disables it). */
  ast: false;
  /** What a match removes: always the whole example (a comment-only removal is not offered). */
  removes: 'example';
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
    removes: 'example',
  };
}
