// The Clean-PR paper's token-set Jaccard, over the sets of DISTINCT whitespace-separated tokens of one side and
// one reference side (the paper does not say which sets; we chose tokens, not shingles, so that a
// reordered or re-indented copy still counts). Found with prefix filtering (Chaudhuri et al.; the
// AllPairs join): order every token by how few references hold it, and index each reference set by
// its first |y| − ⌈t·|y|⌉ + 1 tokens. Two sets with J ≥ t share at least ⌈t·max(|x|, |y|)⌉ tokens,
// so their prefixes of those lengths must share one: probing a side's own prefix finds every
// candidate, exactly, and each is then confirmed by computing J. No text is compared with every
// reference.

export interface JaccardHit {
  reference: number;
  jaccard: number;
}

export class JaccardIndex {
  /** token → its rank (fewest references first); a token no reference holds is not here. */
  private readonly rank = new Map<string, number>();
  /** Per reference: its distinct tokens as ranks, ascending. */
  private readonly sets: Int32Array[] = [];
  /** rank → references whose prefix holds it. */
  private readonly postings = new Map<number, number[]>();

  constructor(
    references: readonly (readonly string[])[],
    readonly threshold: number,
  ) {
    if (!(threshold > 0 && threshold <= 1)) throw new Error(`Jaccard threshold must be in (0, 1] (got ${threshold})`);
    const distinct = references.map((tokens) => [...new Set(tokens)]);
    const df = new Map<string, number>();
    for (const set of distinct) for (const t of set) df.set(t, (df.get(t) ?? 0) + 1);
    [...df.keys()]
      .sort((a, b) => df.get(a)! - df.get(b)! || (a < b ? -1 : a > b ? 1 : 0))
      .forEach((t, i) => this.rank.set(t, i));
    distinct.forEach((set, i) => {
      const ranks = Int32Array.from(set.map((t) => this.rank.get(t)!)).sort();
      this.sets.push(ranks);
      for (let j = 0; j < prefixLength(ranks.length, threshold); j++) {
        const list = this.postings.get(ranks[j]);
        if (list) list.push(i);
        else this.postings.set(ranks[j], [i]);
      }
    });
  }

  /** The reference with the highest J ≥ threshold (lowest index on a tie); null: none. */
  find(tokens: readonly string[]): JaccardHit | null {
    const distinct = [...new Set(tokens)];
    const size = distinct.length;
    if (size === 0) return null;
    // Tokens no reference holds come first in the global order (they are the rarest of all): they fill
    // prefix places but find nothing, which keeps the filter exact.
    const known = Int32Array.from(distinct.map((t) => this.rank.get(t) ?? -1).filter((r) => r >= 0)).sort();
    const unknown = size - known.length;
    const t = this.threshold;
    const prefix = prefixLength(size, t) - unknown;
    let best: JaccardHit | null = null;
    const seen = new Set<number>();
    for (let j = 0; j < prefix && j < known.length; j++) {
      for (const ref of this.postings.get(known[j]) ?? []) {
        if (seen.has(ref)) continue;
        seen.add(ref);
        const other = this.sets[ref];
        if (other.length < t * size || size < t * other.length) continue; // length filter
        const shared = intersection(known, other);
        const jaccard = shared / (size + other.length - shared);
        if (jaccard >= t && (!best || jaccard > best.jaccard || (jaccard === best.jaccard && ref < best.reference)))
          best = { reference: ref, jaccard };
      }
    }
    return best;
  }
}

/** How many of a set's first tokens must hold one of any set's it has J ≥ t with. */
function prefixLength(size: number, t: number): number {
  return size - Math.ceil(t * size - 1e-9) + 1;
}

function intersection(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      n++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return n;
}
