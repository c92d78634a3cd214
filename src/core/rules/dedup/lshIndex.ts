// LSH buckets over band keys. Only kept examples are inserted, so a bucket never grows with the
// examples it has already absorbed. Buckets are linked lists threaded through typed arrays, headed
// from one open-addressing table per band (Map<number, number> was a measurable share of the run).

export class LshIndex {
  private readonly tables: BucketHeads[];
  /** next[item * bands + band]: the item inserted before `item` into the same bucket, or -1. */
  private readonly next: Int32Array;
  private readonly seen: Int32Array;
  private stamp = 0;

  /** @param capacity items are numbered 0 … capacity-1 */
  constructor(
    private readonly bands: number,
    capacity: number,
  ) {
    this.tables = Array.from({ length: bands }, () => new BucketHeads());
    this.next = new Int32Array(Math.max(1, capacity) * bands);
    this.seen = new Int32Array(capacity);
  }

  insert(item: number, keys: Int32Array): void {
    for (let band = 0; band < this.bands; band++) {
      this.next[item * this.bands + band] = this.tables[band].swapHead(keys[band], item);
    }
  }

  /** Distinct items sharing at least one band key, ascending (i.e. earliest first). */
  candidates(keys: Int32Array): number[] {
    const found: number[] = [];
    const mark = ++this.stamp;
    for (let band = 0; band < this.bands; band++) {
      for (let item = this.tables[band].head(keys[band]); item >= 0; item = this.next[item * this.bands + band]) {
        if (this.seen[item] !== mark) {
          this.seen[item] = mark;
          found.push(item);
        }
      }
    }
    return found.sort((a, b) => a - b);
  }
}

/** Band key → most recently inserted item, with linear probing; keys are fmix32 outputs, so uniform. */
class BucketHeads {
  private keys = new Int32Array(1024);
  private heads = new Int32Array(1024).fill(-1);
  private size = 0;

  head(key: number): number {
    const mask = this.keys.length - 1;
    for (let slot = key & mask; this.heads[slot] >= 0; slot = (slot + 1) & mask)
      if (this.keys[slot] === key) return this.heads[slot];
    return -1;
  }

  /** Makes `item` the head of `key`'s bucket; returns the previous head or -1. */
  swapHead(key: number, item: number): number {
    if (2 * (this.size + 1) > this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    let slot = key & mask;
    for (; this.heads[slot] >= 0; slot = (slot + 1) & mask) {
      if (this.keys[slot] === key) {
        const previous = this.heads[slot];
        this.heads[slot] = item;
        return previous;
      }
    }
    this.keys[slot] = key;
    this.heads[slot] = item;
    this.size++;
    return -1;
  }

  private grow(): void {
    const { keys, heads } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.heads = new Int32Array(keys.length * 2).fill(-1);
    const mask = this.keys.length - 1;
    for (let i = 0; i < keys.length; i++) {
      if (heads[i] < 0) continue;
      let slot = keys[i] & mask;
      while (this.heads[slot] >= 0) slot = (slot + 1) & mask;
      this.keys[slot] = keys[i];
      this.heads[slot] = heads[i];
    }
  }
}
