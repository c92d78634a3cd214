// Both whole files of a stored DiffInfo, byte for byte, and where one example's hunk lies in them.
//
// A side of Gerrit's DiffInfo is the file's text split on "\n" (test/fake-gerrit/README.md): a file
// ending in "\n" has a last line "", one without has none, an empty file has no lines, and a CRLF
// line keeps its "\r". So a side's lines joined with "\n" are the file, and nothing here ever splits
// on "\r" or adds a newline of its own.
import type { ParsedDiff } from './diffInfo';
import { sideText } from './diffInfo';

export interface WholeFiles {
  /** Patch set N's file as Gerrit's lines (side A). */
  base: string[];
  /** Patch set N + 1's file as Gerrit's lines (side B). */
  after: string[];
}

/** Side A and side B whole, or null when Gerrit left lines out (a `skip`: their text was not sent). */
export function wholeFiles(diff: ParsedDiff): WholeFiles | null {
  const base: string[] = [];
  const after: string[] = [];
  for (const c of diff.chunks) {
    if (c.skipped) return null;
    for (const line of c.a) base.push(line);
    for (const line of c.b) after.push(line);
  }
  return { base, after };
}

/** One edit of the diff inside the example's hunk: side-A lines [aFrom, aTo) (0-based) become `lines`. */
export interface HunkEdit {
  aFrom: number;
  aTo: number;
  lines: readonly string[];
}

export interface HunkInFile {
  /** Side-A lines [aFrom, aTo) (0-based) the hunk covers. */
  aFrom: number;
  aTo: number;
  /** The hunk's side-B lines: what its side-A lines become. */
  lines: string[];
  /** The diff's edits inside the hunk, in file order (those Gerrit marked due_to_rebase included). */
  edits: HunkEdit[];
  /** The diff's edits outside the hunk, which this example does not apply. */
  editsOutside: number;
}

export interface StoredHunk {
  /** 1-based first line on each side, as the examples table holds them. */
  beforeStart: number;
  afterStart: number;
  beforeText: string;
  afterText: string;
}

/**
 * Finds the stored hunk in the diff: the run of diff entries (common lines one by one, edits whole)
 * that starts at (beforeStart, afterStart) and gives exactly beforeText and afterText the way the
 * build wrote them (diffInfo.sideText). An edit that only adds or removes the file's final newline
 * adds nothing to either text, so the texts cannot tell whether it follows the hunk or ends it: it is
 * taken into the hunk (the longest run that matches), so a hunk whose only edit is that one still has it.
 * Returns null when no run matches (the diff is not the one the example was built from).
 */
export function locateHunk(diff: ParsedDiff, hunk: StoredHunk): HunkInFile | null {
  const accA: string[] = [];
  const accB: string[] = [];
  const edits: HunkEdit[] = [];
  let started = false;
  let matched: { aLen: number; bLen: number; edits: number } | null = null;
  let editsTotal = 0;
  // Stop a run that can no longer match: it has more lines than the texts (plus a final "") hold.
  const maxA = lineBudget(hunk.beforeText);
  const maxB = lineBudget(hunk.afterText);
  const matches = () =>
    sideText(accA, hunk.beforeStart, diff.aLines) === hunk.beforeText &&
    sideText(accB, hunk.afterStart, diff.bLines) === hunk.afterText;
  let done = false;
  for (const c of diff.chunks) {
    if (!c.common) editsTotal++;
    if (done) continue;
    if (c.skipped) {
      if (started) done = true;
      continue;
    }
    if (c.common) {
      for (let k = 0; k < c.aLen && !done; k++) {
        if (!started && !(c.aStart + k === hunk.beforeStart && c.bStart + k === hunk.afterStart)) continue;
        started = true;
        accA.push(c.a[k]);
        accB.push(c.b[k]);
        done = step();
      }
      continue;
    }
    if (!started && !(c.aStart === hunk.beforeStart && c.bStart === hunk.afterStart)) continue;
    started = true;
    edits.push({
      aFrom: hunk.beforeStart - 1 + accA.length,
      aTo: hunk.beforeStart - 1 + accA.length + c.aLen,
      lines: c.b,
    });
    for (const line of c.a) accA.push(line);
    for (const line of c.b) accB.push(line);
    done = step();
  }
  if (!matched) return null;
  const m: { aLen: number; bLen: number; edits: number } = matched;
  return {
    aFrom: hunk.beforeStart - 1,
    aTo: hunk.beforeStart - 1 + m.aLen,
    lines: accB.slice(0, m.bLen),
    edits: edits.slice(0, m.edits),
    editsOutside: editsTotal - m.edits,
  };

  /** Records a match; true when the run should stop. */
  function step(): boolean {
    if (matches()) {
      matched = { aLen: accA.length, bLen: accB.length, edits: edits.length };
      return false; // a longer run may match too (see above)
    }
    return matched !== null || accA.length > maxA || accB.length > maxB;
  }
}

/** The most Gerrit lines a hunk text can stand for: its newlines, its last line, and a final "". */
function lineBudget(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n + 2;
}
