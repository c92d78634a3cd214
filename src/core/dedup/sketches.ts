// One pass over the hunks, earliest first: fingerprints of the normalised text (to find identical
// hunks cheaply) and LSH band keys (to find similar ones). A hunk whose fingerprint was already seen
// is almost surely an exact duplicate, so its band keys are only computed if it turns out not to be.
import { bandKeys, MinHasher } from './minhash';
import type { DedupParams } from './index';

export interface HunkText {
  before: string;
  after: string;
}

const NOT_COMPUTED = 0;
const COMPUTED = 1;
const NO_TOKENS = 2;

export class HunkSketches {
  /** TokenBuffer.fingerprint of normalised(before), per item. */
  readonly beforeFingerprint: Float64Array;
  /** Fingerprint of normalised(before) + "\0" + normalised(after), per item. */
  readonly wholeFingerprint: Float64Array;
  private readonly keys: Int32Array;
  private readonly state: Uint8Array;
  private readonly hasher: MinHasher;

  /** @param textOf the raw hunk of item 0 … count-1 */
  constructor(private readonly params: DedupParams, count: number, private readonly textOf: (item: number) => HunkText) {
    this.hasher = new MinHasher(params.minhashPermutations, params.lshBands * params.lshRows, params.shingleTokens);
    this.beforeFingerprint = new Float64Array(count);
    this.wholeFingerprint = new Float64Array(count);
    this.keys = new Int32Array(count * params.lshBands);
    this.state = new Uint8Array(count);
    const seen = new Set<number>();
    for (let item = 0; item < count; item++) {
      const { before, after } = textOf(item);
      this.hasher.load(before, after);
      this.beforeFingerprint[item] = this.hasher.beforeFingerprint;
      const whole = (this.wholeFingerprint[item] = this.hasher.wholeFingerprint);
      if (seen.has(whole)) continue;
      seen.add(whole);
      this.computeKeys(item);
    }
  }

  /** The item's band keys (a view), or null for a hunk without tokens, which has no shingles. */
  keysOf(item: number): Int32Array | null {
    if (this.state[item] === NOT_COMPUTED) {
      const { before, after } = this.textOf(item);
      this.hasher.load(before, after);
      this.computeKeys(item);
    }
    if (this.state[item] === NO_TOKENS) return null;
    const bands = this.params.lshBands;
    return this.keys.subarray(item * bands, (item + 1) * bands);
  }

  /** Computes the band keys of the hunk just loaded into the hasher. */
  private computeKeys(item: number): void {
    const signature = this.hasher.signature();
    if (signature === null) {
      this.state[item] = NO_TOKENS;
      return;
    }
    bandKeys(signature, this.params.lshBands, this.params.lshRows, this.keys, item * this.params.lshBands);
    this.state[item] = COMPUTED;
  }
}
