// Exact shingle sets for confirming LSH candidates. Shingles are found by their 32-bit hash, but two
// shingles count as the same only when their tokens are equal character for character, so a hash
// collision can never inflate or deflate a Jaccard value.
import { shingleCount, shingleHash, TokenBuffer } from './tokenScan';

/** Reused for tokenizing; each set keeps only what it needs, in one typed array. */
const scratch = new TokenBuffer();

export class ShingleSet {
  /** Number of distinct shingles. */
  readonly size: number;
  private readonly width: number;
  private readonly before: string;
  private readonly after: string;
  /**
   * One allocation (typed-array backing stores are costly): token starts [0, n), token ends [n, 2n),
   * an open-addressing table [2n, 2n + capacity) of indexes of distinct shingles (-1 empty), then per
   * distinct shingle its hash [hashesAt, …) and its first token [firstsAt, …).
   */
  private readonly data: Int32Array;
  private readonly tokens: number;
  private readonly tableMask: number;
  private readonly hashesAt: number;
  private readonly firstsAt: number;
  /** Last shingle pair found equal: the next pair along both texts shares all but one token. */
  private verifiedFrom: ShingleSet | null = null;
  private verifiedMine = -2;
  private verifiedTheirs = -2;

  /** The set of `shingleTokens`-token shingles of normalised(before) + "\n" + normalised(after). */
  constructor(before: string, after: string, shingleTokens: number) {
    // The tokens of the normalised text are those of the raw text (only whitespace differs). The
    // sides are scanned separately (a concatenation would be a slow rope for charCodeAt); offsets
    // of after-side tokens are shifted past the before side and a virtual "\n".
    scratch.reset();
    scratch.scan(before);
    scratch.scan(after, before.length + 1);
    this.before = before;
    this.after = after;
    const n = (this.tokens = scratch.count);
    this.width = Math.min(shingleTokens, n);
    const count = shingleCount(n, shingleTokens);
    let capacity = 16;
    while (capacity < 2 * count) capacity *= 2;
    this.tableMask = capacity - 1;
    this.hashesAt = 2 * n + capacity;
    this.firstsAt = this.hashesAt + count;
    const data = (this.data = new Int32Array(this.firstsAt + count));
    data.set(scratch.starts.subarray(0, n), 0);
    data.set(scratch.ends.subarray(0, n), n);
    data.fill(-1, 2 * n, 2 * n + capacity);
    let size = 0;
    for (let i = 0; i < count; i++) {
      const h = shingleHash(scratch.hashes, i, this.width);
      if (this.find(h, this, i) >= 0) continue;
      let slot = h & this.tableMask;
      while (data[2 * n + slot] >= 0) slot = (slot + 1) & this.tableMask;
      data[2 * n + slot] = size;
      data[this.hashesAt + size] = h;
      data[this.firstsAt + size] = i;
      size++;
    }
    this.size = size;
    this.verifiedFrom = null;
  }

  /** |A ∩ B| / |A ∪ B|; 0 when both are empty. */
  jaccard(other: ShingleSet): number {
    return jaccardOf(this.countShared(other, -1), this.size + other.size);
  }

  /**
   * Whether jaccard(other) ≥ threshold, deciding as soon as the remaining shingles cannot change the
   * answer. Uses the same formula as `jaccard`, so the two never disagree.
   */
  jaccardAtLeast(other: ShingleSet, threshold: number): boolean {
    return jaccardOf(this.countShared(other, threshold), this.size + other.size) >= threshold;
  }

  /** |A ∩ B|; with a threshold ≥ 0, may stop early at a count that decides J ≥ threshold either way. */
  private countShared(other: ShingleSet, threshold: number): number {
    const [small, large] = this.size <= other.size ? [this, other] : [other, this];
    if (small.width !== large.width) return 0;
    const shared = large.countFoundIn(small, threshold);
    large.verifiedFrom = null; // do not keep the other set alive
    return shared;
  }

  /** How many of `small`'s shingles this set holds (see countShared for the early stop). */
  private countFoundIn(small: ShingleSet, threshold: number): number {
    const total = small.size + this.size;
    const d = small.data;
    let shared = 0;
    for (let s = 0; s < small.size; s++) {
      if (this.find(d[small.hashesAt + s], small, d[small.firstsAt + s]) >= 0) {
        shared++;
        if (threshold >= 0 && jaccardOf(shared, total) >= threshold) return shared;
      } else if (threshold >= 0) {
        const best = shared + small.size - s - 1; // every remaining shingle shared
        if (jaccardOf(best, total) < threshold) return shared;
      }
    }
    return shared;
  }

  /** Index of the distinct shingle equal to `from`'s shingle at token `first`, or -1. */
  private find(h: number, from: ShingleSet, first: number): number {
    const data = this.data;
    const table = 2 * this.tokens;
    for (let slot = h & this.tableMask; data[table + slot] >= 0; slot = (slot + 1) & this.tableMask) {
      const d = data[table + slot];
      if (data[this.hashesAt + d] === h && this.sameTokens(data[this.firstsAt + d], from, first)) return d;
    }
    return -1;
  }

  private sameTokens(mine: number, from: ShingleSet, theirs: number): boolean {
    // Walking two equal runs, shingle i+1 vs j+1 only adds the token pair (i+w, j+w).
    const continues =
      from === this.verifiedFrom && mine === this.verifiedMine + 1 && theirs === this.verifiedTheirs + 1;
    const a = this.data;
    const b = from.data;
    for (let t = continues ? this.width - 1 : 0; t < this.width; t++) {
      let s1 = a[mine + t];
      let s2 = b[theirs + t];
      const length = a[this.tokens + mine + t] - s1;
      if (b[from.tokens + theirs + t] - s2 !== length) return false;
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

/** Jaccard from |A ∩ B| and |A| + |B|; 0 for two empty sets. */
function jaccardOf(shared: number, total: number): number {
  return total === 0 ? 0 : shared / (total - shared);
}
