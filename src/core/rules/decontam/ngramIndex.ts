// Shared runs of k consecutive tokens between a text and any reference text: a Rabin–Karp rolling
// hash over token hashes. Every k-gram of every reference is indexed once; a text's k-grams are
// rolled over and looked up, and a hit is confirmed token by token before it counts, then widened to
// the longest shared run (the span the evidence reports). Used for the comment substrings
// (word-like tokens, k = 5) and the Clean-PR paper's shared 15-grams (whitespace tokens). Hand-written for the
// reason given in substringIndex.ts.
import { fmix32, FNV1A_OFFSET, FNV1A_PRIME } from '../dedup/hash32';
import { IntMultiMap } from './intMultiMap';
import { sameToken, type Tokens } from './text';

const BASE = 0x2f0b_3a49 | 1;

export interface TokenText {
  text: string;
  tokens: Tokens;
}

function tokenHashes(t: TokenText): Int32Array {
  const out = new Int32Array(t.tokens.count);
  for (let i = 0; i < t.tokens.count; i++) {
    let h = FNV1A_OFFSET;
    for (let j = t.tokens.starts[i]; j < t.tokens.ends[i]; j++) h = Math.imul(h ^ t.text.charCodeAt(j), FNV1A_PRIME);
    out[i] = fmix32(h);
  }
  return out;
}

/** Calls visit(hash, first token) for each k-gram of the hashes, left to right (the index's build). */
function rollGrams(hashes: Int32Array, k: number, visit: (hash: number, first: number) => boolean | void): void {
  if (hashes.length < k) return;
  let top = 1;
  for (let i = 1; i < k; i++) top = Math.imul(top, BASE);
  let h = 0;
  for (let i = 0; i < k; i++) h = (Math.imul(h, BASE) + hashes[i]) | 0;
  if (visit(h, 0) === true) return;
  for (let i = k; i < hashes.length; i++) {
    h = (Math.imul(h - Math.imul(hashes[i - k], top), BASE) + hashes[i]) | 0;
    if (visit(h, i - k + 1) === true) return;
  }
}

export interface SharedRun {
  reference: number;
  /** Tokens [textFirst, textFirst + length) of the text equal [refFirst, refFirst + length) of the reference. */
  textFirst: number;
  refFirst: number;
  length: number;
}

export class NgramIndex {
  private readonly grams: IntMultiMap;

  constructor(
    private readonly references: readonly TokenText[],
    readonly k: number,
  ) {
    if (!(k >= 1)) throw new Error(`n-gram length must be at least 1 (got ${k})`);
    const total = references.reduce((n, r) => n + Math.max(0, r.tokens.count - k + 1), 0);
    this.grams = new IntMultiMap(total, 8);
    references.forEach((r, i) => rollGrams(tokenHashes(r), k, (h, first) => this.grams.add(h, i, first)));
  }

  /**
   * The first shared run of at least k tokens (leftmost in the text; of the references sharing it, the
   * first in the bucket's fixed order), widened as far as it goes; null: none. Stopping at the first
   * confirmed reference matters: a common phrase can be shared by thousands of references.
   */
  find(t: TokenText): SharedRun | null {
    const k = this.k;
    const hashes = tokenHashes(t);
    if (hashes.length < k) return null;
    let top = 1;
    for (let i = 1; i < k; i++) top = Math.imul(top, BASE);
    let h = 0;
    for (let i = 0; i < k; i++) h = (Math.imul(h, BASE) + hashes[i]) | 0;
    for (let first = 0; ; first++) {
      if (this.grams.mayHave(h)) {
        for (let e = this.grams.first(h); e >= 0; e = this.grams.next(e, h)) {
          const ref = this.grams.a(e);
          const refFirst = this.grams.b(e);
          const r = this.references[ref];
          let same = true;
          for (let j = 0; j < k && same; j++)
            same = sameToken(t.text, t.tokens, first + j, r.text, r.tokens, refFirst + j);
          if (!same) continue;
          let length = k;
          while (
            first + length < t.tokens.count &&
            refFirst + length < r.tokens.count &&
            sameToken(t.text, t.tokens, first + length, r.text, r.tokens, refFirst + length)
          )
            length++;
          return { reference: ref, textFirst: first, refFirst, length };
        }
      }
      if (first + k >= hashes.length) return null;
      h = (Math.imul(h - Math.imul(hashes[first], top), BASE) + hashes[first + k]) | 0;
    }
  }
}
