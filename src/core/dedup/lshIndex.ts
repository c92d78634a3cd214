// LSH buckets over band keys. Only kept examples are inserted, so a bucket never grows with the
// examples it has already absorbed; chains are linked lists in a typed array, not arrays per bucket.

export class LshIndex {
  private readonly heads: Map<number, number>[];
  /** next[item * bands + band]: the previous item inserted into the same bucket, or -1. */
  private next: Int32Array;
  private readonly seen: Int32Array;
  private stamp = 0;

  /** @param capacity items are numbered 0 … capacity-1 */
  constructor(private readonly bands: number, capacity: number) {
    this.heads = Array.from({ length: bands }, () => new Map<number, number>());
    this.next = new Int32Array(Math.max(1, capacity) * bands);
    this.seen = new Int32Array(capacity);
  }

  insert(item: number, keys: Int32Array): void {
    for (let band = 0; band < this.bands; band++) {
      const head = this.heads[band];
      const previous = head.get(keys[band]);
      this.next[item * this.bands + band] = previous ?? -1;
      head.set(keys[band], item);
    }
  }

  /** Distinct items sharing at least one band key, ascending (i.e. earliest first). */
  candidates(keys: Int32Array): number[] {
    const found: number[] = [];
    const mark = ++this.stamp;
    for (let band = 0; band < this.bands; band++) {
      for (let item = this.heads[band].get(keys[band]) ?? -1; item >= 0; item = this.next[item * this.bands + band]) {
        if (this.seen[item] !== mark) {
          this.seen[item] = mark;
          found.push(item);
        }
      }
    }
    return found.sort((a, b) => a - b);
  }
}
