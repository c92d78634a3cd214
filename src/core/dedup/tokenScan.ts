// Tokenizer shared by MinHash, fingerprints and the exact shingle sets: whitespace-separated runs,
// read straight from the raw text (normalisation changes only whitespace, so the tokens are the same),
// recorded as 32-bit hashes plus offsets, without creating a string per token.
import { fmix32, FNV1A_OFFSET, FNV1A_PRIME, murmurRound } from './hash32';
import { isWhitespaceCode } from './normalize';

// Markers folded into the line-structure fingerprint (see `scan`).
const NEWLINE = 0x0a0a_0a0a;
const INDENT = 0x2020_2020;
const SIDE = 0x0000_0001;

export class TokenBuffer {
  count = 0;
  hashes: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  /**
   * Two independent 32-bit folds of everything normalisation keeps: the tokens, the line breaks and
   * whether a line with tokens was indented. Equal normalised texts therefore always have equal folds.
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
    let h = FNV1A_OFFSET;
    let start = -1;
    let lineHasToken = false;
    let indented = false;
    const end = text.length;
    for (let i = 0; i < end; i++) {
      const c = text.charCodeAt(i);
      // Fast path: printable ASCII is never whitespace.
      if ((c > 0x20 && c < 0xa0) || !isWhitespaceCode(c)) {
        if (start < 0) {
          start = i;
          if (!lineHasToken && indented) this.foldIn(INDENT);
          lineHasToken = true;
        }
        h = Math.imul(h ^ c, FNV1A_PRIME);
        continue;
      }
      if (start >= 0) {
        this.push(h, start + offset, i + offset);
        start = -1;
        h = FNV1A_OFFSET;
      }
      if (c === 0x0a) {
        this.foldIn(NEWLINE);
        lineHasToken = false;
        indented = false;
      } else if (!lineHasToken) {
        indented = true;
      }
    }
    if (start >= 0) this.push(h, start + offset, end + offset);
  }

  /** Marks the boundary between the before and the after side in the fingerprint. */
  endSide(): void {
    this.foldIn(SIDE);
  }

  /**
   * 53-bit fingerprint of the normalised text scanned since `reset`: equal normalised texts give equal
   * fingerprints; different ones almost never do (callers confirm equality with SHA-256).
   */
  fingerprint(): number {
    return (fmix32(this.fold1 ^ this.count) >>> 0) * 2 ** 21 + (fmix32(this.fold2) >>> 11);
  }

  private foldIn(word: number): void {
    this.fold1 = murmurRound(this.fold1, word);
    this.fold2 = murmurRound(this.fold2, Math.imul(word ^ 0x5bd1_e995, 0x2c1b_3c6d));
  }

  private push(h: number, start: number, end: number): void {
    const n = this.count;
    if (n === this.hashes.length) {
      this.hashes = grow(this.hashes);
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
    }
    const mixed = fmix32(h); // FNV-1a's low bits are weak; mix once per token
    this.hashes[n] = mixed;
    this.starts[n] = start;
    this.ends[n] = end;
    this.count = n + 1;
    this.foldIn(mixed);
  }
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
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
