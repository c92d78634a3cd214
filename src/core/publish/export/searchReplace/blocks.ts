// Search/Replace blocks for one example, after Clean-PR ("Pull Requests as a Training Signal for
// Repo-Level Code Editing"): each edit region of the example's hunk,
// regions at most mergeGapLines unchanged lines apart merged, and each region's SEARCH grown by one
// line of the base file at a time, above then below in turn, until it occurs exactly once in the
// base file. Anchors are minimal unique context, never line numbers.
//
// A region's SEARCH grows through unchanged lines only: it stops at the next region's edited lines
// (taking them would make the two blocks' searches overlap anyway). Two regions can still take the
// same unchanged lines between them, and a region boxed in by its neighbours can fail to become
// unique; verify.ts finds both.
import type { HunkEdit } from '../../../build/stages/wholeFiles';

export interface SearchReplaceBlock {
  search: string;
  replace: string;
}

interface Region {
  aFrom: number;
  aTo: number;
  lines: string[];
}

/** Merges edits (in file order) separated by at most `gap` unchanged base lines into one region. */
export function mergeRegions(base: readonly string[], edits: readonly HunkEdit[], gap: number): Region[] {
  const out: Region[] = [];
  for (const e of edits) {
    const last = out[out.length - 1];
    if (last && e.aFrom - last.aTo <= gap) {
      for (let i = last.aTo; i < e.aFrom; i++) last.lines.push(base[i]);
      for (const line of e.lines) last.lines.push(line);
      last.aTo = e.aTo;
    } else {
      out.push({ aFrom: e.aFrom, aTo: e.aTo, lines: [...e.lines] });
    }
  }
  return out;
}

/**
 * Character offsets of the base file's lines: start[i] is where line i begins, start[n] the file's
 * length (the last line has no "\n" after it: Gerrit's split puts a final "" there instead).
 */
export function lineStarts(lines: readonly string[]): number[] {
  const start = new Array<number>(lines.length + 1);
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    start[i] = at;
    at += lines[i].length + (i < lines.length - 1 ? 1 : 0);
  }
  start[lines.length] = at;
  return start;
}

/**
 * The block that turns base lines [from, to) into `lines`, as text. Every line but the file's last is
 * followed by "\n", so a block ending before the last line carries its lines' newlines on both sides.
 * A block reaching the end of the file carries the newline between the line before it and its first
 * line when only one side has lines there: appending to a file's last line adds it, deleting the
 * file's last lines removes it.
 */
export function blockText(
  base: string,
  starts: readonly number[],
  from: number,
  to: number,
  lines: readonly string[],
): SearchReplaceBlock {
  const n = starts.length - 1;
  if (to < n) {
    let replace = '';
    for (const line of lines) replace += line + '\n';
    return { search: base.slice(starts[from], starts[to]), replace };
  }
  const replace = lines.join('\n');
  if (from === to && lines.length > 0 && n > 0) return { search: '', replace: '\n' + replace };
  if (from < to && lines.length === 0 && from > 0) return { search: base.slice(starts[from] - 1), replace: '' };
  return { search: base.slice(starts[from]), replace };
}

/** Whether `needle` occurs exactly once in `hay`; overlapping occurrences count ("aa" is twice in "aaa"). */
export function occursOnce(hay: string, needle: string): boolean {
  if (needle === '') return hay === '';
  const first = hay.indexOf(needle);
  return first >= 0 && hay.indexOf(needle, first + 1) < 0;
}

/** The blocks of the example: one per merged region, each SEARCH grown until unique where it can be. */
export function makeBlocks(
  baseLines: readonly string[],
  edits: readonly HunkEdit[],
  mergeGapLines: number,
): SearchReplaceBlock[] {
  const base = baseLines.join('\n');
  const starts = lineStarts(baseLines);
  const regions = mergeRegions(baseLines, edits, mergeGapLines);
  return regions.map((r, i) => {
    const lo = i > 0 ? regions[i - 1].aTo : 0;
    const hi = i < regions.length - 1 ? regions[i + 1].aFrom : baseLines.length;
    let from = r.aFrom;
    let to = r.aTo;
    const text = () => {
      const lines = [...baseLines.slice(from, r.aFrom), ...r.lines, ...baseLines.slice(r.aTo, to)];
      return blockText(base, starts, from, to, lines);
    };
    let block = text();
    let above = true;
    while (!occursOnce(base, block.search)) {
      const up = from > lo;
      const down = to < hi;
      if (!up && !down) break;
      if ((above && up) || !down) from--;
      else to++;
      above = !above;
      block = text();
    }
    return block;
  });
}
