// Step 3, near duplicates: MinHash + LSH propose earlier kept examples, and each proposal is confirmed
// by the exact Jaccard of the two shingle sets. Examples must be offered earliest first.
import { LshIndex } from './lshIndex';
import { bandKeys, MinHasher } from './minhash';
import { ShingleSet } from './shingleSet';
import type { DedupParams } from './index';

export interface HunkText {
  before: string;
  after: string;
}

/** Upper bound on cached shingle sets of kept examples; past it the cache starts over (memory, not results). */
const MAX_CACHED_SETS = 10_000;

export class NearDuplicateIndex {
  private readonly hasher: MinHasher;
  private readonly lsh: LshIndex;
  private readonly keys: Int32Array;
  private keysOf = -1;
  private readonly sets = new Map<number, ShingleSet>();
  /** Candidate pairs proposed by LSH and checked by exact Jaccard (for benchmarks). */
  confirmations = 0;

  /** @param textOf the raw hunk of item 0 … capacity-1 (items are numbered earliest first) */
  constructor(private readonly params: DedupParams, capacity: number, private readonly textOf: (item: number) => HunkText) {
    this.hasher = new MinHasher(params.minhashPermutations, params.lshBands * params.lshRows, params.shingleTokens);
    this.lsh = new LshIndex(params.lshBands, capacity);
    this.keys = new Int32Array(params.lshBands);
  }

  /**
   * The earliest kept example whose shingle set has Jaccard ≥ nearDuplicateJaccard with `item`'s, or -1.
   * A hunk without tokens has no shingles and matches nothing (identical ones are exact duplicates).
   */
  match(item: number): number {
    const { before, after } = this.textOf(item);
    const count = this.hasher.shingle(before, after);
    this.keysOf = -1;
    if (count === 0) return -1;
    bandKeys(this.hasher.sign(count), this.params.lshBands, this.params.lshRows, this.keys);
    this.keysOf = item;

    let mine: ShingleSet | undefined;
    for (const kept of this.lsh.candidates(this.keys)) {
      mine ??= new ShingleSet(before, after, this.params.shingleTokens);
      this.confirmations++;
      const theirs = this.exactSet(kept);
      // J ≤ min(|A|,|B|) / max(|A|,|B|): a size mismatch alone can rule the pair out.
      const [small, large] = theirs.size < mine.size ? [theirs.size, mine.size] : [mine.size, theirs.size];
      if (small < this.params.nearDuplicateJaccard * large) continue;
      if (theirs.jaccard(mine) >= this.params.nearDuplicateJaccard) return kept;
    }
    if (mine) this.cache(item, mine);
    return -1;
  }

  /** Records `item`, which `match` just returned -1 for, as kept: later examples are compared with it. */
  keep(item: number): void {
    if (this.keysOf === item) this.lsh.insert(item, this.keys);
    else this.sets.delete(item); // no shingles: never a candidate
  }

  /** Forgets an item `match` saw but that is not kept (its cached set is no longer needed). */
  drop(item: number): void {
    this.sets.delete(item);
  }

  private exactSet(item: number): ShingleSet {
    let set = this.sets.get(item);
    if (!set) {
      const { before, after } = this.textOf(item);
      set = new ShingleSet(before, after, this.params.shingleTokens);
      this.cache(item, set);
    }
    return set;
  }

  private cache(item: number, set: ShingleSet): void {
    if (this.sets.size >= MAX_CACHED_SETS) this.sets.clear();
    this.sets.set(item, set);
  }
}
