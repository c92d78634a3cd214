// Gerrit's DiffInfo (patch set N against N + 1 of one file) as a list of chunks with line numbers.
// Side A is patch set N, side B is N + 1.
//
// How real Gerrit writes a side (test/fake-gerrit/README.md cites the source): the file's text split
// on "\n", so a file that ends in "\n" has one more line than it has lines, the empty string after the
// last newline, and meta_a/meta_b.lines count it; a file without a final newline has no such line;
// a CRLF line keeps its "\r". Joining a side's lines with "\n" therefore gives the file's bytes back,
// and nothing else is needed to know how a file ends.

export interface DiffChunk {
  /** Same text on both sides (an `ab` chunk, or lines Gerrit skipped). */
  common: boolean;
  /** Gerrit's `skip`: common lines whose text it did not send. */
  skipped: boolean;
  /**
   * Gerrit's `due_to_rebase`: an edit brought in by rebasing N + 1 onto a newer parent, not written by
   * the author. Never true for a common chunk.
   */
  dueToRebase: boolean;
  /** 1-based first line on each side. For an empty side: the line the other side's text sits before. */
  aStart: number;
  bStart: number;
  aLen: number;
  bLen: number;
  /** Texts; empty for skipped chunks. For a common chunk `a` and `b` are the same array. */
  a: readonly string[];
  b: readonly string[];
}

export interface ParsedDiff {
  chunks: DiffChunk[];
  /** Lines per side as Gerrit counts them (a final "" after the last newline included). */
  aLines: number;
  bLines: number;
}

interface RawChunk {
  ab?: unknown;
  a?: unknown;
  b?: unknown;
  skip?: unknown;
  due_to_rebase?: unknown;
}

function lines(value: unknown, what: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((l) => typeof l === 'string'))
    throw new Error(`DiffInfo ${what} is not a list of lines`);
  return value as string[];
}

/** Appends without spreading: a chunk can hold 150k lines, more than a call's arguments may. */
function concat(x: readonly string[], y: readonly string[]): string[] {
  const out = x.slice();
  for (const line of y) out.push(line);
  return out;
}

/**
 * Parses stored DiffInfo JSON. Throws on anything that is not a DiffInfo.
 *
 * An `{a, b, common: true}` entry (lines Gerrit's whitespace setting called equal although their bytes
 * differ; only in diffs fetched without whitespace=IGNORE_NONE) is read as the edit its bytes are.
 */
export function parseDiffInfo(json: string): ParsedDiff {
  return diffInfoChunks(JSON.parse(json));
}

/** parseDiffInfo of DiffInfo already parsed (DiffTexts.read gives a stored diff so). */
export function diffInfoChunks(parsed: unknown): ParsedDiff {
  const info = parsed as Record<string, unknown>;
  if (typeof info !== 'object' || info === null || !Array.isArray(info.content))
    throw new Error('DiffInfo has no content list');
  const chunks: DiffChunk[] = [];
  let aLine = 1;
  let bLine = 1;
  for (const raw of info.content as RawChunk[]) {
    if (typeof raw !== 'object' || raw === null) throw new Error('DiffInfo content holds a non-object');
    if (raw.skip !== undefined) {
      const skip = raw.skip as number | { left?: number; right?: number };
      const aLen = typeof skip === 'number' ? skip : Number(skip.left ?? 0);
      const bLen = typeof skip === 'number' ? skip : Number(skip.right ?? aLen);
      if (!Number.isInteger(aLen) || !Number.isInteger(bLen) || aLen < 0 || bLen < 0)
        throw new Error('DiffInfo skip is not a line count');
      chunks.push({
        common: true,
        skipped: true,
        dueToRebase: false,
        aStart: aLine,
        bStart: bLine,
        aLen,
        bLen,
        a: [],
        b: [],
      });
      aLine += aLen;
      bLine += bLen;
      continue;
    }
    if (raw.ab !== undefined) {
      const ab = lines(raw.ab, 'ab');
      if (ab.length === 0) continue;
      chunks.push({
        common: true,
        skipped: false,
        dueToRebase: false,
        aStart: aLine,
        bStart: bLine,
        aLen: ab.length,
        bLen: ab.length,
        a: ab,
        b: ab,
      });
      aLine += ab.length;
      bLine += ab.length;
      continue;
    }
    const a = lines(raw.a, 'a');
    const b = lines(raw.b, 'b');
    if (a.length === 0 && b.length === 0) continue;
    const dueToRebase = raw.due_to_rebase === true;
    const prev = chunks[chunks.length - 1];
    if (prev && !prev.common && prev.dueToRebase === dueToRebase) {
      // Consecutive edit entries of the same origin ({a} then {b}) are one edit.
      chunks[chunks.length - 1] = {
        ...prev,
        aLen: prev.aLen + a.length,
        bLen: prev.bLen + b.length,
        a: concat(prev.a, a),
        b: concat(prev.b, b),
      };
    } else {
      chunks.push({
        common: false,
        skipped: false,
        dueToRebase,
        aStart: aLine,
        bStart: bLine,
        aLen: a.length,
        bLen: b.length,
        a,
        b,
      });
    }
    aLine += a.length;
    bLine += b.length;
  }
  return { chunks, aLines: aLine - 1, bLines: bLine - 1 };
}

/**
 * The text of lines `first..first + count - 1` of a side that has `total` lines: the lines joined by
 * "\n", and a "\n" after the last one unless it is the side's last line (whose end Gerrit's split
 * already shows: "" after a final newline, the line itself when there is none).
 */
export function sideText(sideLines: readonly string[], first: number, total: number): string {
  if (sideLines.length === 0) return '';
  const last = first + sideLines.length - 1;
  return sideLines.join('\n') + (last < total ? '\n' : '');
}

/** Lines of a text as an editor counts them: a final newline ends the last line, it does not start one. */
export function textLineCount(text: string): number {
  if (text === '') return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}
