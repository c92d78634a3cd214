// How much of a host's answer we are willing to read. A crawl runs for days over answers nobody
// checked; one answer nested 10,000 levels deep, or a gigabyte long, must cost one change a counted
// fetch_error, never the crawl (docs/hostile-hosts.md). Each bound sits far above what Gerrit itself
// lets a change hold, so no answer of a real host meets it.

/** Bytes of one answer's body. Gerrit caps a change's comments and messages together at 3 MiB by default. */
export const MAX_RESPONSE_BYTES = 32 << 20;

/**
 * Nesting of one answer. The deepest Gerrit answer we ask for (a listing with DETAILED_ACCOUNTS:
 * list → change → revisions → revision → uploader → avatars → avatar) is 7 deep. JSON.parse reads any
 * depth, but JSON.stringify and every recursive walk over the value fail past a few thousand levels.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Characters of one comment's text. Gerrit refuses a comment over change.commentSizeLimit (16 KiB by
 * default; GerritCodeReview/gerrit 1a6ff1d62213fed0d5f53c89971961b3b0550933) and a robot comment over
 * change.robotCommentSizeLimit (1 MiB).
 */
export const MAX_COMMENT_CHARS = 1 << 20;

/** Comments of one change: Gerrit's change.maxComments is 5,000 by default (gerrit 7cac5d14a96a0c28878d392e9de2baa5fd7e3db8). */
export const MAX_COMMENTS_PER_CHANGE = 50_000;

/** Patch sets of one change: Gerrit's change.maxPatchSets is 1,000 by default (gerrit 31b41714e76ae9b2a69fccd98cf62ab2ed01a9fe). */
export const MAX_REVISIONS_PER_CHANGE = 10_000;

/** Characters of a name we store or match: a project, a branch, a Change-Id, an account's name or e-mail. */
export const MAX_NAME_CHARS = 4096;

/**
 * Why `value` is nested deeper than `maxDepth` (a scalar is depth 0, `[]` depth 1), or null. Walks
 * with a stack of its own, never recursion, so any depth JSON.parse accepted is measured safely; it
 * stops at the first container past the bound.
 */
export function nestingProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): string | null {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > maxDepth) return `nested more than ${maxDepth} levels deep`;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const child of children)
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
  }
  return null;
}

/** `n` bytes as a short figure for a reason: "32 MiB", "700 KiB". */
export function sizeText(n: number): string {
  return n >= 1 << 20 ? `${Math.round(n / (1 << 20))} MiB` : `${Math.round(n / 1024)} KiB`;
}
