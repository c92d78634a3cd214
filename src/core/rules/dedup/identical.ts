// Identical normalised text, decided by SHA-256 as the rule says, but hashed only where it can matter:
// a fingerprint that no other hunk shares proves that no other hunk has the same normalised text.
import type { SharedText } from './types';

/** Finds, for each item in turn, an earlier item with identical text. */
export class IdenticalTexts {
  /** fingerprint → first item with it */
  private readonly first = new Map<number, number>();
  /** fingerprint → items with it and pairwise different texts, once a second item arrives */
  private readonly distinct = new Map<number, number[]>();
  private readonly digests = new Map<number, string>();

  constructor(private readonly digestOf: (item: number) => string) {}

  /** An earlier item whose text equals `item`'s, or -1 (then `item` stands for its text from now on). */
  firstIdentical(item: number, fingerprint: number): number {
    const first = this.first.get(fingerprint);
    if (first === undefined) {
      this.first.set(fingerprint, item);
      return -1;
    }
    let earlier = this.distinct.get(fingerprint);
    if (!earlier) this.distinct.set(fingerprint, (earlier = [first]));
    const digest = this.digest(item);
    for (const other of earlier) if (this.digest(other) === digest) return other;
    earlier.push(item);
    return -1;
  }

  private digest(item: number): string {
    let d = this.digests.get(item);
    if (d === undefined) this.digests.set(item, (d = this.digestOf(item)));
    return d;
  }
}

/**
 * Items whose text (by SHA-256) occurs in at least `minChanges` distinct changes, each with that text's
 * digest and change count. Only fingerprint groups that reach the count are hashed, since a SHA-256
 * group is never larger than its fingerprint group.
 */
export function textsInManyChanges(
  fingerprints: Float64Array,
  changeNumberOf: (item: number) => number,
  digestOf: (item: number) => string,
  minChanges: number,
): Map<number, SharedText> {
  const sizes = new Map<number, number>();
  for (const fingerprint of fingerprints) sizes.set(fingerprint, (sizes.get(fingerprint) ?? 0) + 1);
  const groups = new Map<number, number[]>();
  for (let item = 0; item < fingerprints.length; item++) {
    if (sizes.get(fingerprints[item])! < minChanges) continue;
    const group = groups.get(fingerprints[item]);
    if (group) group.push(item);
    else groups.set(fingerprints[item], [item]);
  }
  const result = new Map<number, SharedText>();
  const distinctChanges = (items: number[]): number => new Set(items.map(changeNumberOf)).size;
  for (const group of groups.values()) {
    if (distinctChanges(group) < minChanges) continue;
    const byDigest = new Map<string, number[]>();
    for (const item of group) {
      const d = digestOf(item);
      const same = byDigest.get(d);
      if (same) same.push(item);
      else byDigest.set(d, [item]);
    }
    for (const [sha256, same] of byDigest) {
      const changes = distinctChanges(same);
      if (changes < minChanges) continue;
      const shared = { sha256, changes };
      for (const item of same) result.set(item, shared);
    }
  }
  return result;
}
