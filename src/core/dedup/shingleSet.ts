// Exact shingle sets for confirming LSH candidates. Shingles are found by their 32-bit hash, but two
// shingles count as the same only when their tokens are equal character for character, so a hash
// collision can never inflate or deflate a Jaccard value.
import { shingleCount, shingleHash, TokenBuffer } from './tokenScan';

export class ShingleSet {
  /** Number of distinct shingles. */
  readonly size: number;
  private readonly width: number;
  private readonly before: string;
  private readonly after: string;
  private readonly tokenStarts: Int32Array;
  private readonly tokenEnds: Int32Array;
  /** Distinct shingles: hash and first token index, in order of first occurrence. */
  private readonly hashes: Int32Array;
  private readonly firsts: Int32Array;
  /** Open-addressing table over `hashes`: slot → index into hashes/firsts, or -1. */
  private readonly table: Int32Array;
  /** Last shingle pair found equal: the next pair along both texts shares all but one token. */
  private verifiedFrom: ShingleSet | null = null;
  private verifiedMine = -2;
  private verifiedTheirs = -2;

  /** The set of `shingleTokens`-token shingles of normalised(before) + "\n" + normalised(after). */
  constructor(before: string, after: string, shingleTokens: number) {
    // The tokens of the normalised text are those of the raw text (only whitespace differs). The
    // sides are scanned separately (a concatenation would be a slow rope for charCodeAt); offsets
    // of after-side tokens are shifted past the before side and a virtual "\n".
    const tokens = new TokenBuffer((before.length + after.length) >> 3); // grows if the guess is short
    tokens.scan(before);
    tokens.scan(after, before.length + 1);
    this.before = before;
    this.after = after;
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
    // Walking two equal runs, shingle i+1 vs j+1 only adds the token pair (i+w, j+w).
    const continues = from === this.verifiedFrom && mine === this.verifiedMine + 1 && theirs === this.verifiedTheirs + 1;
    for (let t = continues ? this.width - 1 : 0; t < this.width; t++) {
      let s1 = this.tokenStarts[mine + t];
      let s2 = from.tokenStarts[theirs + t];
      const length = this.tokenEnds[mine + t] - s1;
      if (from.tokenEnds[theirs + t] - s2 !== length) return false;
      // A token lies wholly on one side; resolve the side once, then compare flat strings.
      let text1 = this.before;
      if (s1 > text1.length) {
        s1 -= text1.length + 1;
        text1 = this.after;
      }
      let text2 = from.before;
      if (s2 > text2.length) {
        s2 -= text2.length + 1;
        text2 = from.after;
      }
      for (let c = 0; c < length; c++) if (text1.charCodeAt(s1 + c) !== text2.charCodeAt(s2 + c)) return false;
    }
    this.verifiedFrom = from;
    this.verifiedMine = mine;
    this.verifiedTheirs = theirs;
    return true;
  }
}
