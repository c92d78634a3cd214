// MinHash signatures over k-token shingles, computed on typed arrays without per-token strings.
//
// Permutation family: pi_p(x) = (a_p * x + b_p) mod 2^32, a_p odd, a_p and b_p from a fixed-seed
// generator. With a_p odd it is a true permutation of the 32-bit space. It is applied to shingle
// hashes that are already fully mixed (murmur3 rounds + fmix32), i.e. to values that look uniformly
// random, and for such inputs the minimum of a random multiply-add map behaves like the minimum of a
// random permutation: the family's known weakness (low output bits depend only on low input bits)
// does not matter because the minimum is decided by the high bits, which depend on every input bit.
// minhash.test.ts checks this empirically: the agreement rate of two signatures is an unbiased
// estimate of J with the binomial variance J(1-J)/n, and the LSH candidate rate follows the
// theoretical 1 - (1 - J^r)^b. It costs one Math.imul and one add per (shingle, value).
import { fmix32, murmurRound, seededWords } from './hash32';
import { shingleCount, shingleHash, TokenBuffer } from './tokenScan';

const PERMUTATION_SEED = 0x2f6b_9d31;

export class MinHasher {
  private readonly mul: Int32Array;
  private readonly add: Int32Array;
  private readonly tokens = new TokenBuffer();
  private shingles = new Int32Array(1024);
  private table = new Int32Array(2048);
  private tableStamp = new Int32Array(2048);
  private stamp = 0;
  /** Output of `signature`: the first `used` of `permutations` MinHash values. */
  private readonly values: Uint32Array;
  /** Fingerprint (TokenBuffer.fingerprint) of normalised(before), set by `load`. */
  beforeFingerprint = 0;
  /** Fingerprint of normalised(before) + "\0" + normalised(after), set by `load`. */
  wholeFingerprint = 0;

  /**
   * @param permutations size of the permutation family (minhashPermutations)
   * @param used how many signature values LSH reads (bands × rows); values past it can never affect
   *   a decision, so they are not computed
   */
  constructor(
    permutations: number,
    readonly used: number,
    readonly shingleTokens: number,
  ) {
    const words = seededWords(PERMUTATION_SEED, 2 * permutations);
    this.mul = new Int32Array(used);
    this.add = new Int32Array(used);
    for (let p = 0; p < used; p++) {
      this.mul[p] = words[2 * p] | 1;
      this.add[p] = words[2 * p + 1];
    }
    this.values = new Uint32Array(used);
  }

  /** Tokenizes a hunk and computes its fingerprints; `signature` then works on it. */
  load(before: string, after: string): void {
    const t = this.tokens;
    t.reset();
    t.scan(before);
    this.beforeFingerprint = t.fingerprint();
    t.endSide();
    t.scan(after);
    this.wholeFingerprint = t.fingerprint();
  }

  /** The MinHash signature of the loaded hunk's shingle set (reused buffer), or null when it has no tokens. */
  signature(): Uint32Array | null {
    const count = this.shingle();
    return count === 0 ? null : this.sign(count);
  }

  /**
   * Hashes the loaded hunk's shingles into the buffer, dropping repeated hashes (a repeat cannot
   * change a minimum; this only saves work). Returns how many are left.
   */
  private shingle(): number {
    const t = this.tokens;
    const width = Math.min(this.shingleTokens, t.count);
    const count = shingleCount(t.count, this.shingleTokens);
    if (this.shingles.length < count) this.shingles = new Int32Array(count * 2);
    this.prepareTable(count);
    const table = this.table;
    const mark = ++this.stamp;
    const mask = table.length - 1;
    let distinct = 0;
    for (let i = 0; i < count; i++) {
      const h = shingleHash(t.hashes, i, width);
      let slot = h & mask; // h is fmix32 output: its low bits are uniform
      while (this.tableStamp[slot] === mark && table[slot] !== h) slot = (slot + 1) & mask;
      if (this.tableStamp[slot] !== mark) {
        this.tableStamp[slot] = mark;
        table[slot] = h;
        this.shingles[distinct++] = h;
      }
    }
    return distinct;
  }

  /**
   * MinHash values over the first `count` shingle hashes of the buffer (see `shingle`). Signed
   * comparison is the unsigned order of a*x + (b + 2^31): the same family, without leaving int32.
   * Eight permutations per pass over the shingles: each shingle is loaded once for eight, and the
   * eight running minima stay in registers.
   */
  private sign(count: number): Uint32Array {
    const s = this.shingles;
    const sig = this.values;
    const { mul, add } = this;
    let p = 0;
    for (; p + 7 < this.used; p += 8) {
      const a0 = mul[p],
        b0 = add[p],
        a1 = mul[p + 1],
        b1 = add[p + 1];
      const a2 = mul[p + 2],
        b2 = add[p + 2],
        a3 = mul[p + 3],
        b3 = add[p + 3];
      const a4 = mul[p + 4],
        b4 = add[p + 4],
        a5 = mul[p + 5],
        b5 = add[p + 5];
      const a6 = mul[p + 6],
        b6 = add[p + 6],
        a7 = mul[p + 7],
        b7 = add[p + 7];
      let m0 = 0x7fffffff,
        m1 = 0x7fffffff,
        m2 = 0x7fffffff,
        m3 = 0x7fffffff;
      let m4 = 0x7fffffff,
        m5 = 0x7fffffff,
        m6 = 0x7fffffff,
        m7 = 0x7fffffff;
      for (let i = 0; i < count; i++) {
        const x = s[i];
        const v0 = (Math.imul(a0, x) + b0) | 0;
        const v1 = (Math.imul(a1, x) + b1) | 0;
        const v2 = (Math.imul(a2, x) + b2) | 0;
        const v3 = (Math.imul(a3, x) + b3) | 0;
        const v4 = (Math.imul(a4, x) + b4) | 0;
        const v5 = (Math.imul(a5, x) + b5) | 0;
        const v6 = (Math.imul(a6, x) + b6) | 0;
        const v7 = (Math.imul(a7, x) + b7) | 0;
        if (v0 < m0) m0 = v0;
        if (v1 < m1) m1 = v1;
        if (v2 < m2) m2 = v2;
        if (v3 < m3) m3 = v3;
        if (v4 < m4) m4 = v4;
        if (v5 < m5) m5 = v5;
        if (v6 < m6) m6 = v6;
        if (v7 < m7) m7 = v7;
      }
      sig[p] = m0;
      sig[p + 1] = m1;
      sig[p + 2] = m2;
      sig[p + 3] = m3;
      sig[p + 4] = m4;
      sig[p + 5] = m5;
      sig[p + 6] = m6;
      sig[p + 7] = m7;
    }
    for (; p < this.used; p++) {
      const a = mul[p],
        b = add[p];
      let m = 0x7fffffff;
      for (let i = 0; i < count; i++) {
        const v = (Math.imul(a, s[i]) + b) | 0;
        if (v < m) m = v;
      }
      sig[p] = m;
    }
    return sig;
  }

  /** Makes the dedupe table at least twice the shingle count (load ≤ 1/2). */
  private prepareTable(count: number): void {
    if (this.stamp === 0x7fffffff) {
      this.tableStamp.fill(0);
      this.stamp = 0;
    }
    if (this.table.length >= 2 * count) return;
    let size = this.table.length;
    while (size < 2 * count) size *= 2;
    this.table = new Int32Array(size);
    this.tableStamp = new Int32Array(size);
    this.stamp = 0;
  }
}

/** One 32-bit key per LSH band, written to out[at …]: a hash of the band's `rows` values and its index. */
export function bandKeys(signature: Uint32Array, bands: number, rows: number, out: Int32Array, at = 0): Int32Array {
  for (let band = 0; band < bands; band++) {
    let h = band;
    for (let r = band * rows, end = r + rows; r < end; r++) h = murmurRound(h, signature[r]);
    out[at + band] = fmix32(h);
  }
  return out;
}
