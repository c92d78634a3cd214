// Gerrit's DiffInfo (patch set N against N + 1 of one file) as a list of chunks with line numbers.
// Side A is patch set N, side B is N + 1. Lines arrive without "\n"; a CRLF line keeps its "\r", so
// joining lines with "\n" gives the file's bytes back.

export interface DiffChunk {
  /** Same text on both sides (an `ab` chunk, or lines Gerrit skipped). */
  common: boolean;
  /** Gerrit's `skip`: common lines whose text it did not send. */
  skipped: boolean;
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
  /** Lines per side. */
  aLines: number;
  bLines: number;
  /** The side's last line has no "\n" after it. */
  aNoFinalNewline: boolean;
  bNoFinalNewline: boolean;
}

interface RawChunk {
  ab?: unknown;
  a?: unknown;
  b?: unknown;
  skip?: unknown;
}

/**
 * Whether a side's file ends without a newline. Real Gerrit's DiffInfo cannot say; the fake Gerrit
 * of the tests adds `x_no_newline_at_end: { a: bool, b: bool }` (test/fake-gerrit/README.md), and a
 * DiffInfo without it reads as ending in a newline.
 */
function noFinalNewline(info: Record<string, unknown>, side: 'a' | 'b'): boolean {
  const marker = info.x_no_newline_at_end;
  return typeof marker === 'object' && marker !== null && (marker as Record<string, unknown>)[side] === true;
}

function lines(value: unknown, what: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((l) => typeof l === 'string')) throw new Error(`DiffInfo ${what} is not a list of lines`);
  return value as string[];
}

/** Parses stored DiffInfo JSON. Throws on anything that is not a DiffInfo. */
export function parseDiffInfo(json: string): ParsedDiff {
  const info = JSON.parse(json) as Record<string, unknown>;
  if (typeof info !== 'object' || info === null || !Array.isArray(info.content)) throw new Error('DiffInfo has no content list');
  const chunks: DiffChunk[] = [];
  let aLine = 1;
  let bLine = 1;
  for (const raw of info.content as RawChunk[]) {
    if (typeof raw !== 'object' || raw === null) throw new Error('DiffInfo content holds a non-object');
    if (raw.skip !== undefined) {
      const skip = raw.skip as number | { left?: number; right?: number };
      const aLen = typeof skip === 'number' ? skip : Number(skip.left ?? 0);
      const bLen = typeof skip === 'number' ? skip : Number(skip.right ?? aLen);
      if (!Number.isInteger(aLen) || !Number.isInteger(bLen) || aLen < 0 || bLen < 0) throw new Error('DiffInfo skip is not a line count');
      chunks.push({ common: true, skipped: true, aStart: aLine, bStart: bLine, aLen, bLen, a: [], b: [] });
      aLine += aLen;
      bLine += bLen;
      continue;
    }
    if (raw.ab !== undefined) {
      const ab = lines(raw.ab, 'ab');
      if (ab.length === 0) continue;
      chunks.push({ common: true, skipped: false, aStart: aLine, bStart: bLine, aLen: ab.length, bLen: ab.length, a: ab, b: ab });
      aLine += ab.length;
      bLine += ab.length;
      continue;
    }
    const a = lines(raw.a, 'a');
    const b = lines(raw.b, 'b');
    if (a.length === 0 && b.length === 0) continue;
    const prev = chunks[chunks.length - 1];
    if (prev && !prev.common) {
      // Consecutive edit entries ({a} then {b}) are one edit.
      chunks[chunks.length - 1] = { ...prev, aLen: prev.aLen + a.length, bLen: prev.bLen + b.length, a: [...prev.a, ...a], b: [...prev.b, ...b] };
    } else {
      chunks.push({ common: false, skipped: false, aStart: aLine, bStart: bLine, aLen: a.length, bLen: b.length, a, b });
    }
    aLine += a.length;
    bLine += b.length;
  }
  return { chunks, aLines: aLine - 1, bLines: bLine - 1, aNoFinalNewline: noFinalNewline(info, 'a'), bNoFinalNewline: noFinalNewline(info, 'b') };
}
