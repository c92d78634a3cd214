// Finds suspected reviewer-written targets that the strict rules miss, so the inspector can flag
// them where they stand. Each flag carries its reason and the spans that match, in the comment and
// on the after side; a user confirms (→ manual_flag at the next build) or rejects it.
import { opensSuggestionFence } from '../../rules/examples/suggestedEdit';
import { commentsHoldingTarget, normaliseLines, normalisedTarget } from '../stages/targetInComment';

export type FlagReason = 'suggestion_fence_variant' | 'fenced_after_side' | 'fix_applied_variant' | 'target_in_comment';

export interface TextSpan {
  start: number;
  end: number;
}

export interface DetectedFlag {
  reason: FlagReason;
  commentId: number;
  /** Character offsets into the comment's message. */
  commentSpan: TextSpan;
  /** 0-based, inclusive line range of the after side that the comment already holds, when known. */
  afterLines?: { start: number; end: number };
  detail: string;
}

export interface FlagInput {
  before: string;
  after: string;
  comments: readonly { id: number; message: string }[];
}

// A fence the strict rule misses: another case, spaces inside, or ```suggest.
const LOOSE_FENCE = /^[ \t]*```[ \t]*suggest(?:ion)?\b.*$/gim;
const OPENING_FENCE = /^[ \t]*```/;
const CLOSING_FENCE = /^[ \t]*```[ \t]*\r?$/;

/**
 * Fenced blocks, each from an opening line (```, maybe with an info string) to the next bare ```
 * line, in one pass over the lines. A lazy regex over the whole text rescans to the end for every
 * unclosed fence, which a hostile comment of many fences turns quadratic.
 */
export function fencedBlocks(message: string): { start: number; end: number; body: string }[] {
  const blocks: { start: number; end: number; body: string }[] = [];
  let open: { start: number; bodyStart: number } | undefined;
  for (let at = 0; at <= message.length;) {
    const nl = message.indexOf('\n', at);
    const lineEnd = nl < 0 ? message.length : nl;
    const line = message.slice(at, lineEnd);
    if (open && CLOSING_FENCE.test(line)) {
      blocks.push({ start: open.start, end: lineEnd, body: message.slice(open.bodyStart, at) });
      open = undefined;
    } else if (!open && nl >= 0 && OPENING_FENCE.test(line)) {
      open = { start: at, bodyStart: nl + 1 };
    }
    if (nl < 0) break;
    at = nl + 1;
  }
  return blocks;
}
const FIX_APPLIED_LOOSE = /^\s*fix(?:es)?\s+applied\b.{0,20}$/is;

/**
 * `known` passes what the caller computed already for target_in_comment: the normalised target and
 * the comments holding it (commentsHoldingTarget).
 */
export function detectFlags(input: FlagInput, known?: { target: string; holding: readonly number[] }): DetectedFlag[] {
  const flags: DetectedFlag[] = [];
  const targetLines = lineRangeOfTarget(input.before, input.after);
  const normalisedAfter = known?.target ?? normalisedTarget(input.before, input.after);
  for (const c of input.comments) {
    if (!opensSuggestionFence(c.message)) {
      for (const m of c.message.matchAll(LOOSE_FENCE)) {
        flags.push({
          reason: 'suggestion_fence_variant',
          commentId: c.id,
          commentSpan: span(m),
          afterLines: targetLines,
          detail: m[0].trim(),
        });
        break;
      }
    }
    for (const block of fencedBlocks(c.message)) {
      const body = normaliseLines(block.body);
      if (body.length > 0 && body === normalisedAfter) {
        flags.push({
          reason: 'fenced_after_side',
          commentId: c.id,
          commentSpan: { start: block.start, end: block.end },
          afterLines: targetLines,
          detail: 'a fenced block equals the after side',
        });
        break;
      }
    }
    if (c.message.trim() !== 'Fix applied.' && FIX_APPLIED_LOOSE.test(c.message)) {
      flags.push({
        reason: 'fix_applied_variant',
        commentId: c.id,
        commentSpan: { start: 0, end: c.message.length },
        detail: c.message.trim(),
      });
    }
  }
  const holding =
    known?.holding ??
    commentsHoldingTarget(
      input.before,
      input.after,
      input.comments.map((c) => c.message),
      normalisedAfter,
    );
  if (holding.length > 0) {
    const c = input.comments[holding[0]];
    const first = normalisedAfter.split('\n')[0];
    const at = c.message.indexOf(first);
    flags.push({
      reason: 'target_in_comment',
      commentId: c.id,
      afterLines: targetLines,
      commentSpan: at >= 0 ? { start: at, end: at + first.length } : { start: 0, end: c.message.length },
      detail: `the comment holds the after side (${normalisedAfter.length} characters)`,
    });
  }
  return flags;
}

function span(m: RegExpMatchArray): TextSpan {
  return { start: m.index ?? 0, end: (m.index ?? 0) + m[0].length };
}

/** The lines of the after side that differ from the before side (the author's answer). */
function lineRangeOfTarget(before: string, after: string): { start: number; end: number } | undefined {
  const b = before.split('\n');
  const a = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const end = a.length - 1 - tail;
  return end >= head ? { start: head, end } : undefined;
}
