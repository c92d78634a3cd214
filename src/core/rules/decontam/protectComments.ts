// Comment-level decontamination (rules.protectedCommentLevel): which comments overlap a protected
// reference comment, under the comment policies only (whole_comment, comment_substring). The same two
// passes as the example-level step (decontaminate.ts), one comment at a time:
// 1. every candidate comment against the registered sets' comments;
// 2. when cross-window decontamination is on, train comments against the comments still in every other
//    window (set "window:<name>"; the id is the other comment's key), which are the comment's
//    counterpart of "examples still in", under the cross-window policy.
// It runs in the comment stage, before hunks and examples exist, so pass 2 sees the comments of other
// windows that the comment rules kept, not only those whose example survives dedup; docs/decontamination.md says so.
import { twoPassMatches, type CrossWindowPass } from './decontaminate';
import { ProtectedMatcher, type ReferenceText } from './matcher';
import { commentOnlyPolicy, type MatchingPolicy } from './policy';

export interface CommentCandidate {
  key: string;
  window: string | null;
  message: string;
  /** Every comment rule kept it: only such a comment of another window protects train's. */
  kept: boolean;
}

export interface CommentMatch {
  set: string;
  id: string;
  policy: string;
  start: number;
  end: number;
  /** The part of the reference comment that matched. */
  referenceMatched: string;
}

/** candidate index → the reference comment it overlaps; candidates not in the map are kept. */
export function findProtectedComments(
  candidates: readonly CommentCandidate[],
  registered: readonly ReferenceText[],
  policy: MatchingPolicy,
  crossWindow?: CrossWindowPass,
): Map<number, CommentMatch> {
  const matchOne = (matcher: ProtectedMatcher, c: CommentCandidate): CommentMatch | null => {
    const m = matcher.match({ before: '', after: '', comments: [{ id: c.key, message: c.message }] });
    if (!m) return null;
    return { set: m.set, id: m.id, policy: m.policy, start: m.start, end: m.end, referenceMatched: m.referenceMatched };
  };

  return twoPassMatches(candidates, {
    registered: registered.filter((r) => r.field === 'comment'),
    policy: commentOnlyPolicy(policy),
    crossWindow: crossWindow && { ...crossWindow, policy: commentOnlyPolicy(crossWindow.policy) },
    // Only a comment the comment rules kept protects train's.
    windowTexts: (c, set) => (c.kept ? [{ set, id: c.key, field: 'comment', text: c.message }] : []),
    match: matchOne,
  });
}
