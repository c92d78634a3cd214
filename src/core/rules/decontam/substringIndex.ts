// Which whole patterns (reference sides, whitespace collapsed) occur inside a text: Rabin–Karp with
// one anchor per pattern. Each pattern is represented by one window of it, `width` characters wide
// (the largest of 1, 2, 4 … 64 that fits), chosen where its hash is rarest among all patterns'
// windows of that width, so patterns sharing a common opening ("public void ") do not all land in
// one bucket. A text is scanned once per width in use with a rolling hash; a window whose hash is an
// anchor proposes its patterns at the anchor's offset, and each is confirmed by comparing the whole
// pattern with the text there (startsWith). So the cost is the text's length times the widths in
// use, plus one comparison per candidate: never texts × patterns.
//
// Hand-written: npm has no maintained multi-pattern Rabin–Karp, and an Aho–Corasick automaton over
// 10k methods (millions of characters) would need a trie node per character in memory.
import { IntMultiMap } from './intMultiMap';

const BASE = 0x01000193;
const WIDTHS = [64, 32, 16, 8, 4, 2, 1];
const COUNT_SLOTS = 1 << 20;

/** Polynomial hash of text[from, from + width), mod 2^32. */
function windowHash(text: string, from: number, width: number): number {
  let h = 0;
  for (let i = from; i < from + width; i++) h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
  return h;
}

function power(width: number): number {
  let p = 1;
  for (let i = 1; i < width; i++) p = Math.imul(p, BASE);
  return p; // BASE^(width-1): the weight of the character that leaves the window
}

/** Calls visit(hash, start) for every window of `width` in text, left to right. */
function rollWindows(text: string, width: number, visit: (hash: number, start: number) => boolean | void): void {
  if (text.length < width) return;
  const top = power(width);
  let h = windowHash(text, 0, width);
  if (visit(h, 0) === true) return;
  for (let i = width; i < text.length; i++) {
    h = (Math.imul(h - Math.imul(text.charCodeAt(i - width), top), BASE) + text.charCodeAt(i)) | 0;
    if (visit(h, i - width + 1) === true) return;
  }
}

export interface SubstringHit {
  pattern: number;
  /** Offset of the occurrence in the text. */
  start: number;
}

export class SubstringIndex {
  private readonly byWidth = new Map<number, IntMultiMap>();
  private readonly patterns: string[] = [];

  /** `patterns[i]` must be non-empty; their indexes are what `find` reports. */
  constructor(patterns: readonly string[]) {
    this.patterns = patterns.slice();
    const widthOf = (p: string) => WIDTHS.find((w) => w <= p.length)!;
    // How often each window hash occurs among the patterns (per width, in a fixed table: collisions only
    // blur the choice of anchor, never what is found), to anchor each pattern on its rarest window.
    const counts = new Map<number, Uint32Array>();
    const tableOf = (w: number) => {
      let t = counts.get(w);
      if (!t) counts.set(w, (t = new Uint32Array(COUNT_SLOTS)));
      return t;
    };
    for (const p of patterns) {
      const t = tableOf(widthOf(p));
      rollWindows(p, widthOf(p), (h) => void t[h & (COUNT_SLOTS - 1)]++);
    }
    patterns.forEach((p, i) => {
      const w = widthOf(p);
      const t = tableOf(w);
      let best = 0;
      let bestHash = 0;
      let bestCount = Infinity;
      rollWindows(p, w, (h, start) => {
        const n = t[h & (COUNT_SLOTS - 1)];
        if (n < bestCount) [best, bestHash, bestCount] = [start, h, n];
        return n === 1;
      });
      let map = this.byWidth.get(w);
      if (!map) this.byWidth.set(w, (map = new IntMultiMap(patterns.length, 16)));
      map.add(bestHash, i, best);
    });
  }

  get size(): number {
    return this.patterns.length;
  }

  /**
   * Every occurrence of a pattern in `text` that `accept` keeps (e.g. on token boundaries), in order of
   * the anchor window's position, widest anchors first; stops at the first when `first` is set.
   */
  find(text: string, accept: (hit: SubstringHit, length: number) => boolean, first = true): SubstringHit[] {
    const hits: SubstringHit[] = [];
    const n = text.length;
    for (const w of WIDTHS) {
      const map = this.byWidth.get(w);
      if (!map || n < w) continue;
      // The rolling hash inlined: this loop runs once per character of every side of every example.
      const top = power(w);
      let h = windowHash(text, 0, w);
      for (let at = 0; ; at++) {
        if (map.mayHave(h)) {
          for (let e = map.first(h); e >= 0; e = map.next(e, h)) {
            const pattern = map.a(e);
            const p = this.patterns[pattern];
            const start = at - map.b(e);
            if (start < 0 || start + p.length > n || !text.startsWith(p, start)) continue;
            const hit = { pattern, start };
            if (!accept(hit, p.length)) continue;
            hits.push(hit);
            if (first) return hits;
          }
        }
        const next = at + w;
        if (next >= n) break;
        h = (Math.imul(h - Math.imul(text.charCodeAt(at), top), BASE) + text.charCodeAt(next)) | 0;
      }
    }
    return hits;
  }
}
