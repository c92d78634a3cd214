// 32-bit hashing on Math.imul: FNV-1a parameters for token hashes, murmur3's round and finaliser for
// shingle hashes and band keys, and a seeded generator for the MinHash permutations. Deterministic.

/** FNV-1a parameters (the token hash in tokenScan.ts). */
export const FNV1A_OFFSET = 0x811c9dc5;
export const FNV1A_PRIME = 0x01000193;

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** One murmur3_32 block round: folds a 32-bit word into the running state. */
export function murmurRound(state: number, word: number): number {
  let k = Math.imul(word, C1);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, C2);
  let h = state ^ k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** murmur3's finaliser: full avalanche, and a bijection on 32-bit values. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** Deterministic 32-bit generator (splitmix32-style), for the fixed permutation parameters. */
export function seededWords(seed: number, count: number): Int32Array {
  const out = new Int32Array(count);
  let s = seed | 0;
  for (let i = 0; i < count; i++) {
    s = (s + 0x9e3779b9) | 0;
    out[i] = fmix32(s);
  }
  return out;
}
