// Step 3, near duplicates: LSH proposes earlier kept examples, and each proposal is confirmed by the
// exact Jaccard of the two shingle sets. Examples must be offered earliest first.
import { LshIndex } from './lshIndex';
import { ShingleSet } from './shingleSet';
import type { HunkText } from './sketches';
import type { DedupParams } from './types';

/** Upper bound on cached shingle sets of kept examples; past it the cache starts over (memory, not results). */
const MAX_CACHED_SETS = 10_000;

export class NearDuplicateIndex {
  private readonly lsh: LshIndex;
  private readonly sets = new Map<number, ShingleSet>();
  /** Candidate pairs proposed by LSH and checked by exact Jaccard (for tests and benchmarks). */
  confirmations = 0;

  /** @param textOf the raw hunk of item 0 … capacity-1 (items are numbered earliest first) */
  constructor(
    private readonly params: DedupParams,
    capacity: number,
    private readonly textOf: (item: number) => HunkText,
  ) {
    this.lsh = new LshIndex(params.lshBands, capacity);
  }

  /**
   * The earliest kept example whose shingle set has Jaccard ≥ nearDuplicateJaccard with `item`'s, with
   * the exact Jaccard of the pair (the evidence a removal records), or null. `keys` are the item's band
   * keys; null (no tokens, no shingles) matches nothing.
   */
  match(item: number, keys: Int32Array | null): { kept: number; jaccard: number } | null {
    if (keys === null) return null;
    const threshold = this.params.nearDuplicateJaccard;
    let mine: ShingleSet | undefined;
    for (const kept of this.lsh.candidates(keys)) {
      this.confirmations++;
      mine ??= this.exactSet(item);
      const theirs = this.exactSet(kept);
      // J ≤ min(|A|,|B|) / max(|A|,|B|) (the value of J's formula when one set contains the other),
      // so a size mismatch alone can rule the pair out.
      if (Math.min(mine.size, theirs.size) / Math.max(mine.size, theirs.size) < threshold) continue;
      if (theirs.jaccardAtLeast(mine, threshold)) {
        // The early-stopping check only decides the threshold; the full count runs once per removal.
        const jaccard = theirs.jaccard(mine);
        this.sets.delete(item);
        return { kept, jaccard };
      }
    }
    return null;
  }

  /** Records `item` as kept: later examples are compared with it. */
  keep(item: number, keys: Int32Array | null): void {
    if (keys !== null) this.lsh.insert(item, keys);
  }

  /** Forgets an item that `match` saw but that is not kept. */
  drop(item: number): void {
    this.sets.delete(item);
  }

  private exactSet(item: number): ShingleSet {
    let set = this.sets.get(item);
    if (!set) {
      const { before, after } = this.textOf(item);
      set = new ShingleSet(before, after, this.params.shingleTokens);
      if (this.sets.size >= MAX_CACHED_SETS) this.sets.clear();
      this.sets.set(item, set);
    }
    return set;
  }
}
