// The per-hunk half of duplicate detection, separable from the decisions: fingerprints of the
// normalised text and LSH band keys. The build computes these for every hunk in a worker thread while
// it is still reading diffs (build/stages/hunkFacts.ts); findDuplicates computes any that are missing.
import { bandKeys, MinHasher } from './minhash';
import type { DedupParams } from './types';

/** Reusable: one MinHasher and its buffers for any number of hunks with the same parameters. */
export class HunkSketcher {
  private readonly hasher: MinHasher;

  constructor(private readonly params: DedupParams) {
    this.hasher = new MinHasher(params.minhashPermutations, params.lshBands * params.lshRows, params.shingleTokens);
  }

  /** Tokenizes a hunk; its fingerprints are then readable and its keys computable. */
  load(before: string, after: string): void {
    this.hasher.load(before, after);
  }

  get beforeFingerprint(): number {
    return this.hasher.beforeFingerprint;
  }

  get wholeFingerprint(): number {
    return this.hasher.wholeFingerprint;
  }

  /** Writes the loaded hunk's band keys to out[at …]; false when it has no tokens (no keys). */
  keysInto(out: Int32Array, at: number): boolean {
    const signature = this.hasher.signature();
    if (signature === null) return false;
    bandKeys(signature, this.params.lshBands, this.params.lshRows, out, at);
    return true;
  }

  /** The loaded hunk's band keys, or null when it has no tokens. */
  keys(): Int32Array | null {
    const out = new Int32Array(this.params.lshBands);
    return this.keysInto(out, 0) ? out : null;
  }
}
