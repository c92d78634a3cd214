// A seeded percentile bootstrap over items: draw as many items as there are, with replacement, compute
// the figure on the draw, and take the 2.5th and 97.5th percentiles of the figures (R's quantile type 7,
// linear between order statistics). Items, not single ratings, are drawn, so the ratings of one item
// stay together. The same seed gives the same interval on every machine: the generator is
// mulberry32 (32-bit state, enough for drawing indices), seeded from the seed text by FNV-1a.

export const BOOTSTRAP_RESAMPLES = 1000;

export interface Interval {
  low: number;
  high: number;
  /** Draws on which the figure was defined (a draw with no variation has none); the interval is over these. */
  resamples: number;
}

/** FNV-1a of the text's UTF-16 code units: a 32-bit seed. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** mulberry32: a small deterministic generator of numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Quantile q of sorted xs, linear between order statistics (R type 7). */
export function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

export interface Figure {
  /** On all the items; null: undefined (no item with two ratings, or no variation). */
  value: number | null;
  /** The 95% interval; null when the figure is undefined, or defined on no draw. */
  interval: Interval | null;
}

/**
 * Several figures on all the items, each with its 95% interval computed on the same draws:
 * `figures(items)` returns one number (or null, undefined on those items) per figure.
 */
export function withIntervals<T>(
  items: readonly T[],
  figures: (draw: readonly T[]) => (number | null)[],
  seed: string,
  resamples = BOOTSTRAP_RESAMPLES,
): Figure[] {
  const point = figures(items);
  const values: number[][] = point.map(() => []);
  const random = mulberry32(seedOf(seed));
  const draw: T[] = new Array<T>(items.length);
  for (let b = 0; b < resamples && point.some((v) => v !== null); b++) {
    for (let i = 0; i < items.length; i++) draw[i] = items[Math.floor(random() * items.length)];
    figures(draw).forEach((v, f) => {
      if (v !== null && Number.isFinite(v)) values[f].push(v);
    });
  }
  return point.map((value, f) => {
    const sorted = values[f].sort((a, b) => a - b);
    return {
      value,
      interval:
        value === null || sorted.length === 0
          ? null
          : { low: quantile(sorted, 0.025), high: quantile(sorted, 0.975), resamples: sorted.length },
    };
  });
}
