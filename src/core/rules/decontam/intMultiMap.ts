// A 32-bit hash → entries multimap on typed arrays (chained buckets), for the rolling-hash indexes.
// A Map<number, number[]> holding a million reference n-grams costs ~100 bytes an entry and a
// garbage-collected array each; this costs 16. Entries are (hash, a, b): which reference text and
// where in it. Lookups only propose candidates: every caller confirms by comparing the strings.

export class IntMultiMap {
  private heads: Int32Array;
  private mask: number;
  private nextOf: Int32Array;
  private keys: Int32Array;
  private as: Int32Array;
  private bs: Int32Array;
  size = 0;

  /**
   * @param bucketsPerEntry more buckets make `mayHave` say "no" more often: the scans call it once per
   * character or token of every text, and most texts match nothing.
   */
  constructor(expected = 1024, bucketsPerEntry = 2) {
    let buckets = 1024;
    while (buckets < expected * bucketsPerEntry) buckets *= 2;
    this.heads = new Int32Array(buckets).fill(-1);
    this.mask = buckets - 1;
    this.nextOf = new Int32Array(Math.max(16, expected));
    this.keys = new Int32Array(this.nextOf.length);
    this.as = new Int32Array(this.nextOf.length);
    this.bs = new Int32Array(this.nextOf.length);
  }

  add(hash: number, a: number, b: number): void {
    if (this.size === this.nextOf.length) this.grow();
    const e = this.size++;
    const bucket = bucketOf(hash, this.mask);
    this.keys[e] = hash;
    this.as[e] = a;
    this.bs[e] = b;
    this.nextOf[e] = this.heads[bucket];
    this.heads[bucket] = e;
  }

  /** Whether any entry may have this hash (cheap; a false "yes" only costs a walk of one bucket). */
  mayHave(hash: number): boolean {
    return this.heads[bucketOf(hash, this.mask)] >= 0;
  }

  /**
   * The entries with this hash, without a callback (the scans' inner loop allocates nothing):
   * `for (let e = m.first(h); e >= 0; e = m.next(e, h))`, reading m.a(e) and m.b(e).
   */
  first(hash: number): number {
    return this.skip(this.heads[bucketOf(hash, this.mask)], hash);
  }

  next(entry: number, hash: number): number {
    return this.skip(this.nextOf[entry], hash);
  }

  a(entry: number): number {
    return this.as[entry];
  }

  b(entry: number): number {
    return this.bs[entry];
  }

  private skip(e: number, hash: number): number {
    while (e >= 0 && this.keys[e] !== hash) e = this.nextOf[e];
    return e;
  }

  /** Calls `visit(a, b)` for each entry with exactly this hash, newest first; stops when it returns true. */
  forEach(hash: number, visit: (a: number, b: number) => boolean | void): void {
    for (let e = this.heads[bucketOf(hash, this.mask)]; e >= 0; e = this.nextOf[e]) {
      if (this.keys[e] === hash && visit(this.as[e], this.bs[e]) === true) return;
    }
  }

  private grow(): void {
    const size = this.nextOf.length * 2;
    const widen = (x: Int32Array) => {
      const y = new Int32Array(size);
      y.set(x);
      return y;
    };
    this.nextOf = widen(this.nextOf);
    this.keys = widen(this.keys);
    this.as = widen(this.as);
    this.bs = widen(this.bs);
    if (size * 2 > this.heads.length) this.rehash(this.heads.length * 2);
  }

  private rehash(buckets: number): void {
    this.heads = new Int32Array(buckets).fill(-1);
    this.mask = buckets - 1;
    // Re-linked oldest first, so every chain keeps its newest-first order.
    for (let e = 0; e < this.size; e++) {
      const bucket = bucketOf(this.keys[e], this.mask);
      this.nextOf[e] = this.heads[bucket];
      this.heads[bucket] = e;
    }
  }
}

/** The rolling hashes are polynomial, so their low bits are weak: mix before taking a bucket. */
function bucketOf(hash: number, mask: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x45d9f3b);
  return (h ^ (h >>> 16)) & mask;
}
