// From one file's diff (patch set N → N + 1) and the comments on it at patch set N: which comments
// the next patch set answered near their line, and the hunks those comments anchor.
//
// A comment's window is its line (or range start_line..end_line) widened by rules.aroundLines on
// side A (unchanged_around's aroundWindow, beside the parameter's declaration). An edit chunk touches
// the window when one of its A lines lies in it; a pure insertion (no A lines, placed before A line p)
// touches it when it sits between two lines of the window or right at its edge, i.e. lo ≤ p ≤ hi + 1.
//
// Edits Gerrit marks due_to_rebase (upstream code a rebase brought into N + 1) are not the author's
// answer: they never touch a window, so they neither make a comment `changedAround` nor start or end a
// hunk. A hunk that spans one keeps its lines, since that is what N + 1 holds, and counts them.
//
// A comment's hunk is the span from the first to the last edit chunk its window touches, plus up to
// rules.contextLines common lines on each side; context stops short of another edit (that edit was
// not commented) and of lines Gerrit skipped. Comments whose hunks share a line form one example.
// A commented line can lie outside its hunk (a pure insertion aroundLines away, a long range, or
// contextLines < aroundLines); the example keeps both sides' start lines so the inspector can tell.
//
// Positions are counted in "rows": each common line is one row and each edit chunk is one row, so
// hunks can overlap even where one side has no lines.
import { aroundWindow } from '../../rules/comments/unchangedAround';
import { sideText, textLineCount, type DiffChunk, type ParsedDiff } from './diffInfo';

export interface CommentSpan {
  /** First and last commented line on side A (line..line, or start_line..end_line). */
  first: number;
  last: number;
}

export interface FormedHunk {
  beforeStart: number;
  afterStart: number;
  beforeText: string;
  afterText: string;
  beforeLines: number;
  afterLines: number;
  editLinesBefore: number;
  editLinesAfter: number;
  /** Lines on both sides of the edits inside the hunk that Gerrit marked due_to_rebase. */
  rebaseEditedLines: number;
  /** Indexes (into the spans given) of the comments anchored in this hunk, ascending. */
  comments: number[];
}

export interface Anchoring {
  /** Per span: did N + 1 change anything within aroundLines of it? */
  changedAround: boolean[];
  hunks: FormedHunk[];
}

interface Layout {
  diff: ParsedDiff;
  rowStart: number[];
  rowCount: number[];
}

function layout(diff: ParsedDiff): Layout {
  const rowStart: number[] = [];
  const rowCount: number[] = [];
  let row = 0;
  for (const c of diff.chunks) {
    rowStart.push(row);
    const n = c.common && !c.skipped ? c.aLen : 1;
    rowCount.push(n);
    row += n;
  }
  return { diff, rowStart, rowCount };
}

function touches(c: DiffChunk, lo: number, hi: number): boolean {
  if (c.common || c.dueToRebase) return false;
  if (c.aLen === 0) return c.aStart >= lo && c.aStart <= hi + 1;
  return c.aStart <= hi && c.aStart + c.aLen - 1 >= lo;
}

/** Index of the chunk holding `row`. */
function chunkAtRow(l: Layout, row: number): number {
  let lo = 0;
  let hi = l.rowStart.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (l.rowStart[mid] <= row) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function isContextRow(l: Layout, row: number): boolean {
  if (row < 0 || l.rowStart.length === 0) return false;
  const i = chunkAtRow(l, row);
  const c = l.diff.chunks[i];
  return c.common && !c.skipped && row < l.rowStart[i] + l.rowCount[i];
}

interface Interval {
  r0: number;
  r1: number;
  comments: number[];
}

export function anchorComments(
  diff: ParsedDiff,
  spans: readonly CommentSpan[],
  rules: { aroundLines: number; contextLines: number },
): Anchoring {
  const l = layout(diff);
  const changedAround: boolean[] = [];
  const intervals: Interval[] = [];
  spans.forEach((span, index) => {
    const { from: lo, to: hi } = aroundWindow(span, rules);
    let firstEdit = -1;
    let lastEdit = -1;
    diff.chunks.forEach((c, i) => {
      if (touches(c, lo, hi)) {
        if (firstEdit < 0) firstEdit = i;
        lastEdit = i;
      }
    });
    changedAround.push(firstEdit >= 0);
    if (firstEdit < 0) return;
    let r0 = l.rowStart[firstEdit];
    let r1 = l.rowStart[lastEdit];
    for (let k = 0; k < rules.contextLines && isContextRow(l, r0 - 1); k++) r0--;
    for (let k = 0; k < rules.contextLines && isContextRow(l, r1 + 1); k++) r1++;
    intervals.push({ r0, r1, comments: [index] });
  });

  intervals.sort((x, y) => x.r0 - y.r0 || x.r1 - y.r1);
  const merged: Interval[] = [];
  for (const iv of intervals) {
    const last = merged[merged.length - 1];
    if (last && iv.r0 <= last.r1) {
      last.r1 = Math.max(last.r1, iv.r1);
      for (const c of iv.comments) last.comments.push(c);
    } else {
      merged.push({ r0: iv.r0, r1: iv.r1, comments: [...iv.comments] });
    }
  }
  return { changedAround, hunks: merged.map((iv) => hunkText(l, iv)) };
}

function hunkText(l: Layout, iv: Interval): FormedHunk {
  const before: string[] = [];
  const after: string[] = [];
  let editLinesBefore = 0;
  let editLinesAfter = 0;
  let rebaseEditedLines = 0;
  let beforeStart = -1;
  let afterStart = -1;
  for (let i = chunkAtRow(l, iv.r0); i < l.diff.chunks.length && l.rowStart[i] <= iv.r1; i++) {
    const c = l.diff.chunks[i];
    if (c.skipped) continue; // never reached: context stops at skips, and the fetch asks for whole files
    if (c.common) {
      const from = Math.max(iv.r0, l.rowStart[i]) - l.rowStart[i];
      const to = Math.min(iv.r1, l.rowStart[i] + l.rowCount[i] - 1) - l.rowStart[i];
      if (beforeStart < 0) {
        beforeStart = c.aStart + from;
        afterStart = c.bStart + from;
      }
      for (let k = from; k <= to; k++) {
        before.push(c.a[k]);
        after.push(c.b[k]);
      }
    } else {
      if (beforeStart < 0) {
        beforeStart = c.aStart;
        afterStart = c.bStart;
      }
      for (const line of c.a) before.push(line);
      for (const line of c.b) after.push(line);
      if (c.dueToRebase) {
        rebaseEditedLines += c.aLen + c.bLen;
      } else {
        editLinesBefore += c.aLen;
        editLinesAfter += c.bLen;
      }
    }
  }
  const { diff } = l;
  const beforeText = sideText(before, beforeStart, diff.aLines);
  const afterText = sideText(after, afterStart, diff.bLines);
  return {
    beforeStart,
    afterStart,
    beforeText,
    afterText,
    beforeLines: textLineCount(beforeText),
    afterLines: textLineCount(afterText),
    editLinesBefore,
    editLinesAfter,
    rebaseEditedLines,
    comments: iv.comments.sort((x, y) => x - y),
  };
}
