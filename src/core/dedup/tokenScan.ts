// Tokenizer shared by MinHash and the exact shingle sets: whitespace-separated runs, read straight
// from the raw text (normalisation changes only whitespace, so the tokens are the same), recorded as
// 32-bit hashes plus offsets, without creating a string per token.
import { fmix32, FNV1A_OFFSET, FNV1A_PRIME, murmurRound } from './hash32';
import { isWhitespaceCode } from './normalize';

export class TokenBuffer {
  count = 0;
  hashes: Int32Array;
  starts: Int32Array;
  ends: Int32Array;

  constructor(capacity = 1024) {
    this.hashes = new Int32Array(Math.max(16, capacity));
    this.starts = new Int32Array(this.hashes.length);
    this.ends = new Int32Array(this.hashes.length);
  }

  /** Appends the tokens of `text`, recording their offsets plus `offset`. */
  scan(text: string, offset = 0): void {
    let h = FNV1A_OFFSET;
    let start = -1;
    const end = text.length;
    for (let i = 0; i < end; i++) {
      const c = text.charCodeAt(i);
      // Fast path: printable ASCII is never whitespace.
      if ((c > 0x20 && c < 0xa0) || !isWhitespaceCode(c)) {
        if (start < 0) start = i;
        h = Math.imul(h ^ c, FNV1A_PRIME);
      } else if (start >= 0) {
        this.push(h, start + offset, i + offset);
        start = -1;
        h = FNV1A_OFFSET;
      }
    }
    if (start >= 0) this.push(h, start + offset, end + offset);
  }

  private push(h: number, start: number, end: number): void {
    const n = this.count;
    if (n === this.hashes.length) {
      this.hashes = grow(this.hashes);
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
    }
    this.hashes[n] = fmix32(h); // FNV-1a's low bits are weak; mix once per token
    this.starts[n] = start;
    this.ends[n] = end;
    this.count = n + 1;
  }
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

const SHINGLE_SEED = 0x5eed_0001;

/** Number of shingles of a text with n tokens: n - k + 1, or one shorter shingle when n < k. */
export function shingleCount(tokens: number, k: number): number {
  return tokens === 0 ? 0 : tokens < k ? 1 : tokens - k + 1;
}

/** Hash of tokens [start, start + width): murmur3_32 rounds over the token hashes, then fmix32. */
export function shingleHash(tokenHashes: Int32Array, start: number, width: number): number {
  let h = SHINGLE_SEED;
  for (let j = 0; j < width; j++) h = murmurRound(h, tokenHashes[start + j]);
  return fmix32(h ^ (width << 2));
}
