// Exact shingle sets for confirming LSH candidates. Shingles are found by their 32-bit hash, but two
// shingles count as the same only when their tokens are equal character for character, so a hash
// collision can never inflate or deflate a Jaccard value.
import { shingleCount, shingleHash, TokenBuffer } from './tokenScan';

export class ShingleSet {
  /** Number of distinct shingles. */
  readonly size: number;
  private readonly width: number;
  private readonly text: string;
  private readonly tokenStarts: Int32Array;
  private readonly tokenEnds: Int32Array;
  /** Distinct shingles: hash and first token index, in order of first occurrence. */
  private readonly hashes: Int32Array;
  private readonly firsts: Int32Array;
  /** Open-addressing table over `hashes`: slot → index into hashes/firsts, or -1. */
  private readonly table: Int32Array;

  /** The set of `shingleTokens`-token shingles of normalised(before) + "\n" + normalised(after). */
  constructor(before: string, after: string, shingleTokens: number) {
    // The tokens of the normalised text are those of the raw text (only whitespace differs).
    const text = `${before}\n${after}`;
    const tokens = new TokenBuffer(text.length >> 3); // grows if the guess is short
    tokens.scan(text);
    this.text = text;
    this.tokenStarts = tokens.starts.slice(0, tokens.count);
    this.tokenEnds = tokens.ends.slice(0, tokens.count);
    this.width = Math.min(shingleTokens, tokens.count);
    const count = shingleCount(tokens.count, shingleTokens);
    let capacity = 16;
    while (capacity < 2 * count) capacity *= 2;
    this.table = new Int32Array(capacity).fill(-1);
    const hashes = (this.hashes = new Int32Array(count));
    const firsts = (this.firsts = new Int32Array(count));
    let size = 0;
    for (let i = 0; i < count; i++) {
      const h = shingleHash(tokens.hashes, i, this.width);
      if (this.find(h, this, i) >= 0) continue;
      let slot = h & (capacity - 1);
      while (this.table[slot] >= 0) slot = (slot + 1) & (capacity - 1);
      this.table[slot] = size;
      hashes[size] = h;
      firsts[size++] = i;
    }
    this.size = size;
    this.hashes = hashes.slice(0, size);
    this.firsts = firsts.slice(0, size);
  }

  /** |A ∩ B| / |A ∪ B|; 0 when both are empty. */
  jaccard(other: ShingleSet): number {
    if (this.size === 0 && other.size === 0) return 0;
    const [small, large] = this.size <= other.size ? [this, other] : [other, this];
    let shared = 0;
    if (small.width === large.width) {
      for (let d = 0; d < small.size; d++) if (large.find(small.hashes[d], small, small.firsts[d]) >= 0) shared++;
    }
    return shared / (this.size + other.size - shared);
  }

  /** Index of the distinct shingle equal to `from`'s shingle at token `first`, or -1. */
  private find(h: number, from: ShingleSet, first: number): number {
    const mask = this.table.length - 1;
    for (let slot = h & mask; this.table[slot] >= 0; slot = (slot + 1) & mask) {
      const d = this.table[slot];
      if (this.hashes[d] === h && this.sameTokens(this.firsts[d], from, first)) return d;
    }
    return -1;
  }

  private sameTokens(mine: number, from: ShingleSet, theirs: number): boolean {
    for (let t = 0; t < this.width; t++) {
      const s1 = this.tokenStarts[mine + t];
      const s2 = from.tokenStarts[theirs + t];
      const length = this.tokenEnds[mine + t] - s1;
      if (from.tokenEnds[theirs + t] - s2 !== length) return false;
      for (let c = 0; c < length; c++) if (this.text.charCodeAt(s1 + c) !== from.text.charCodeAt(s2 + c)) return false;
    }
    return true;
  }
}
