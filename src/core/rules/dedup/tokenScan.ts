// Tokenizer shared by MinHash, fingerprints and the exact shingle sets: whitespace-separated runs,
// read straight from the raw text (normalisation changes only whitespace, so the tokens are the same),
// recorded as 32-bit hashes plus offsets, without creating a string per token.
import { fmix32, FNV1A_OFFSET, FNV1A_PRIME, murmurRound } from './hash32';
import { isWhitespaceCode } from './normalize';

// Markers folded into the fingerprint (see `fingerprint`).
const NEWLINE_MARK = 0x0a0a_0a0a;
const INDENT = 0x2020_2020;
const SIDE = 0x0000_0001;
/** The second fold is a cheap FNV-style lane; fingerprints only propose, SHA-256 decides. */
const FOLD2_PRIME = 0x0100_0193;

// Code-unit classes; ASCII through a table, the rest through isWhitespaceCode.
const TOKEN = 0;
const SPACE = 1;
const NEWLINE = 2;
const ASCII_KIND = Uint8Array.from({ length: 0x80 }, (_, c) =>
  c === 0x0a ? NEWLINE : isWhitespaceCode(c) ? SPACE : TOKEN,
);

export class TokenBuffer {
  count = 0;
  hashes: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  /**
   * Two 32-bit folds of everything normalisation keeps: the tokens, the line breaks and whether a
   * line with tokens was indented. Equal normalised texts therefore always have equal folds.
   */
  private fold1 = 0;
  private fold2 = 0;

  constructor(capacity = 1024) {
    this.hashes = new Int32Array(Math.max(16, capacity));
    this.starts = new Int32Array(this.hashes.length);
    this.ends = new Int32Array(this.hashes.length);
    this.reset();
  }

  /** Empties the buffer and restarts the fingerprint. */
  reset(): void {
    this.count = 0;
    this.fold1 = 0x1b87_3593;
    this.fold2 = 0x6a09_e667;
  }

  /** Appends the tokens of `text`, recording their offsets plus `offset`. */
  scan(text: string, offset = 0): void {
    // A text of L code units holds at most ceil(L / 2) tokens: size once, then run on locals.
    this.reserve(this.count + ((text.length + 1) >> 1));
    const { hashes, starts, ends } = this;
    let n = this.count;
    let fold1 = this.fold1;
    let fold2 = this.fold2;
    let h = FNV1A_OFFSET;
    let start = -1;
    let lineHasToken = false;
    let indented = false;
    const end = text.length;
    for (let i = 0; i < end; i++) {
      const c = text.charCodeAt(i);
      const kind = c < 0x80 ? ASCII_KIND[c] : isWhitespaceCode(c) ? SPACE : TOKEN;
      if (kind === TOKEN) {
        if (start < 0) {
          start = i;
          if (!lineHasToken && indented) {
            fold1 = murmurRound(fold1, INDENT);
            fold2 = Math.imul(fold2 ^ INDENT, FOLD2_PRIME);
          }
          lineHasToken = true;
        }
        h = Math.imul(h ^ c, FNV1A_PRIME);
        continue;
      }
      if (start >= 0) {
        const mixed = fmix32(h); // FNV-1a's low bits are weak; mix once per token
        hashes[n] = mixed;
        starts[n] = start + offset;
        ends[n++] = i + offset;
        fold1 = murmurRound(fold1, mixed);
        fold2 = Math.imul(fold2 ^ mixed, FOLD2_PRIME);
        start = -1;
        h = FNV1A_OFFSET;
      }
      if (kind === NEWLINE) {
        fold1 = murmurRound(fold1, NEWLINE_MARK);
        fold2 = Math.imul(fold2 ^ NEWLINE_MARK, FOLD2_PRIME);
        lineHasToken = false;
        indented = false;
      } else if (!lineHasToken) {
        indented = true;
      }
    }
    if (start >= 0) {
      const mixed = fmix32(h);
      hashes[n] = mixed;
      starts[n] = start + offset;
      ends[n++] = end + offset;
      fold1 = murmurRound(fold1, mixed);
      fold2 = Math.imul(fold2 ^ mixed, FOLD2_PRIME);
    }
    this.count = n;
    this.fold1 = fold1;
    this.fold2 = fold2;
  }

  /** Marks the boundary between the before and the after side in the fingerprint. */
  endSide(): void {
    this.fold1 = murmurRound(this.fold1, SIDE);
    this.fold2 = Math.imul(this.fold2 ^ SIDE, FOLD2_PRIME);
  }

  /**
   * 53-bit fingerprint of the normalised text scanned since `reset`: equal normalised texts give equal
   * fingerprints; different ones almost never do (callers confirm equality with SHA-256).
   */
  fingerprint(): number {
    return (fmix32(this.fold1 ^ this.count) >>> 0) * 2 ** 21 + (fmix32(this.fold2) >>> 11);
  }

  private reserve(capacity: number): void {
    if (capacity <= this.hashes.length) return;
    const size = Math.max(capacity, 2 * this.hashes.length);
    const grow = (a: Int32Array): Int32Array => {
      const b = new Int32Array(size);
      b.set(a.subarray(0, this.count));
      return b;
    };
    this.hashes = grow(this.hashes);
    this.starts = grow(this.starts);
    this.ends = grow(this.ends);
  }
}

/** Number of shingles of a text with n tokens: n - k + 1, or one shorter shingle when n < k. */
export function shingleCount(tokens: number, k: number): number {
  return tokens === 0 ? 0 : tokens < k ? 1 : tokens - k + 1;
}

const SHINGLE_SEED = 0x5eed_0001;

/** Hash of tokens [start, start + width): murmur3_32 rounds over the token hashes, then fmix32. */
export function shingleHash(tokenHashes: Int32Array, start: number, width: number): number {
  let h = SHINGLE_SEED;
  for (let j = 0; j < width; j++) h = murmurRound(h, tokenHashes[start + j]);
  return fmix32(h ^ (width << 2));
}
