// One pass over the hunks, earliest first: fingerprints of the normalised text (to find identical
// hunks cheaply) and LSH band keys (to find similar ones). Sketches computed ahead (by the build's
// worker) are taken as they are. Otherwise a hunk whose fingerprint was already seen is almost surely
// an exact duplicate, so its band keys are only computed if it turns out not to be.
import { HunkSketcher } from './hunkSketch';
import type { DedupParams, HunkSketch } from './types';

export interface HunkText {
  before: string;
  after: string;
  /** Computed ahead with the same parameters, when available. */
  sketch?: HunkSketch;
}

export class HunkSketches {
  /** TokenBuffer.fingerprint of normalised(before), per item. */
  readonly beforeFingerprint: Float64Array;
  /** Fingerprint of normalised(before) + "\0" + normalised(after), per item. */
  readonly wholeFingerprint: Float64Array;
  private readonly keys: (Int32Array | null | undefined)[];
  private readonly sketcher: HunkSketcher;

  /** @param textOf the raw hunk of item 0 … count-1 */
  constructor(
    params: DedupParams,
    count: number,
    private readonly textOf: (item: number) => HunkText,
  ) {
    this.sketcher = new HunkSketcher(params);
    this.beforeFingerprint = new Float64Array(count);
    this.wholeFingerprint = new Float64Array(count);
    this.keys = new Array(count);
    const seen = new Set<number>();
    for (let item = 0; item < count; item++) {
      const hunk = textOf(item);
      if (hunk.sketch) {
        this.record(item, hunk.sketch);
        continue;
      }
      const sk = this.sketcher;
      sk.load(hunk.before, hunk.after);
      this.beforeFingerprint[item] = sk.beforeFingerprint;
      const whole = (this.wholeFingerprint[item] = sk.wholeFingerprint);
      if (seen.has(whole)) continue; // keys computed later, only if needed
      seen.add(whole);
      this.keys[item] = sk.keys();
    }
  }

  /** The item's band keys, or null for a hunk without tokens, which has no shingles. */
  keysOf(item: number): Int32Array | null {
    let keys = this.keys[item];
    if (keys === undefined) {
      const { before, after } = this.textOf(item);
      this.sketcher.load(before, after);
      keys = this.keys[item] = this.sketcher.keys();
    }
    return keys;
  }

  private record(item: number, s: HunkSketch): void {
    this.beforeFingerprint[item] = s.beforeFingerprint;
    this.wholeFingerprint[item] = s.wholeFingerprint;
    this.keys[item] = s.keys;
  }
}
