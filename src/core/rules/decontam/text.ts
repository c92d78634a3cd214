// The texts decontamination compares, and the offsets back into the raw text. Every match is found on
// a derived form (whitespace collapsed, or a token list) and reported as a span of the raw text, so the
// inspector can highlight exactly what matched.
import { isWhitespaceCode } from '../dedup/normalize';

/**
 * A text with every run of whitespace (line breaks included) made one space, and none at either end.
 * JavaScript's \s is exactly isWhitespaceCode (rules/dedup/normalize.ts). The way back to raw offsets is
 * worked out only for a match (most texts match nothing).
 */
export interface CollapsedText {
  raw: string;
  text: string;
}

export function collapseWhitespace(raw: string): CollapsedText {
  return { raw, text: raw.replace(/\s+/g, ' ').trim() };
}

/** The raw span [start, end) of collapsed characters [from, to) (to > from). */
export function rawSpan(c: CollapsedText, from: number, to: number): { start: number; end: number } {
  const { raw } = c;
  let i = 0;
  while (i < raw.length && isWhitespaceCode(raw.charCodeAt(i))) i++;
  // Walk raw and collapsed together: a collapsed space stands for a whole run of raw whitespace.
  let start = -1;
  for (let k = 0; k < to; k++) {
    if (k === from) start = i;
    if (k === to - 1) return { start, end: i + 1 };
    if (c.text.charCodeAt(k) === 0x20) {
      i++;
      while (i < raw.length && isWhitespaceCode(raw.charCodeAt(i))) i++;
    } else {
      i++;
    }
  }
  return { start: Math.max(start, 0), end: i };
}

/** A letter, digit, "_" or "$": a character that belongs to a word-like token. */
export function isWordCode(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0x80)
    return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x24;
  return WORD.test(text[i]);
}
const WORD = /[\p{L}\p{N}\p{M}]/u;

/** Tokens of a text as offsets into it: starts[i]..ends[i]. */
export interface Tokens {
  starts: Int32Array;
  ends: Int32Array;
  count: number;
}

/** Whitespace-separated runs (code: the tokens of the Clean-PR paper's n-grams and token sets). */
export function whitespaceTokens(text: string): Tokens {
  const starts: number[] = [];
  const ends: number[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isWhitespaceCode(text.charCodeAt(i));
    if (!space && start < 0) start = i;
    else if (space && start >= 0) {
      starts.push(start);
      ends.push(i);
      start = -1;
    }
  }
  return { starts: Int32Array.from(starts), ends: Int32Array.from(ends), count: starts.length };
}

/** Runs of letters, digits and "_" (prose: "word-like tokens"); punctuation between them is skipped. */
export function wordTokens(text: string): Tokens {
  const starts: number[] = [];
  const ends: number[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const word = i < text.length && isWordCode(text, i);
    if (word && start < 0) start = i;
    else if (!word && start >= 0) {
      starts.push(start);
      ends.push(i);
      start = -1;
    }
  }
  return { starts: Int32Array.from(starts), ends: Int32Array.from(ends), count: starts.length };
}

/** Whether token i of `a` (in text `at`) and token j of `b` (in text `bt`) are the same string. */
export function sameToken(at: string, a: Tokens, i: number, bt: string, b: Tokens, j: number): boolean {
  const len = a.ends[i] - a.starts[i];
  return len === b.ends[j] - b.starts[j] && at.startsWith(bt.slice(b.starts[j], b.ends[j]), a.starts[i]);
}
