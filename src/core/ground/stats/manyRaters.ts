// Agreement among any number of raters, missing ratings allowed: Fleiss' κ (Fleiss 1971) with its
// per-category κ_j, and Krippendorff's α (Krippendorff 2011) at the nominal, ordinal and interval
// levels. Both read one table: per item, how many raters gave each value (`counts[item][value]`).
// Written here rather than taken from npm: no maintained package computes both (the one α package is a
// single unreviewed release, with no Fleiss' κ and no per-category figures); the worked examples in
// manyRaters.test.ts check this against the published numbers.
//
// Missing ratings. Fleiss (1971) has every item rated by the same number of raters; with a rater
// missing, each item's share of agreeing pairs is taken over its own raters, n_i(n_i − 1) pairs, and
// the items averaged (the usual generalisation; with n_i = n everywhere it is Fleiss' formula). An item
// with fewer than two ratings has no pair and counts in neither figure. A figure is null when it is
// undefined: no item with two ratings, or no variation (expected agreement total).

export type Level = 'nominal' | 'ordinal' | 'interval';

/** Per item, per value (in the order of `values`), how many raters gave it; undefined ratings are left out. */
export function countTable<V>(items: readonly (readonly (V | undefined)[])[], values: readonly V[]): number[][] {
  const at = new Map(values.map((v, i) => [v, i]));
  return items.map((ratings) => {
    const row = values.map(() => 0);
    for (const r of ratings) {
      if (r === undefined) continue;
      const i = at.get(r);
      if (i === undefined) throw new Error(`rating ${String(r)} is not one of the values`);
      row[i]++;
    }
    return row;
  });
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

export interface FleissResult {
  kappa: number | null;
  /** κ_j per value: agreement on that value against all others (Fleiss 1971, eq. for κ_j). */
  perValue: (number | null)[];
  /** Items with two ratings or more: the figure is over these. */
  items: number;
}

/** Fleiss' κ over the items with two ratings or more. */
export function fleissKappa(counts: readonly (readonly number[])[]): FleissResult {
  const k = counts[0]?.length ?? 0;
  const rated = counts.filter((row) => sum(row) >= 2);
  const nItems = rated.length;
  if (nItems === 0) return { kappa: null, perValue: Array(k).fill(null), items: 0 };
  let agreement = 0;
  const totals = Array<number>(k).fill(0);
  const disagreeing = Array<number>(k).fill(0); // Σ_i n_ij (n_i − n_ij) / (n_i (n_i − 1))
  let ratings = 0;
  for (const row of rated) {
    const n = sum(row);
    const pairs = n * (n - 1);
    ratings += n;
    let agree = 0;
    for (let j = 0; j < k; j++) {
      agree += row[j] * (row[j] - 1);
      totals[j] += row[j];
      disagreeing[j] += (row[j] * (n - row[j])) / pairs;
    }
    agreement += agree / pairs;
  }
  const p = totals.map((t) => t / ratings);
  const observed = agreement / nItems;
  const chance = sum(p.map((x) => x * x));
  const perValue = p.map((pj, j) => {
    const spread = pj * (1 - pj);
    return spread === 0 ? null : 1 - disagreeing[j] / nItems / spread;
  });
  return { kappa: chance === 1 ? null : (observed - chance) / (1 - chance), perValue, items: nItems };
}

/**
 * Krippendorff's α from the coincidence matrix (Krippendorff 2011, section C on):
 * α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck. `scale`: the values' numbers (interval), or their
 * order (ordinal: only the order counts); nominal needs neither.
 */
export function krippendorffAlpha(
  counts: readonly (readonly number[])[],
  level: Level,
  scale: readonly number[] = [],
): number | null {
  const k = counts[0]?.length ?? 0;
  const o = coincidences(counts, k);
  const marginal = o.map((row) => sum(row));
  const n = sum(marginal);
  if (n === 0) return null;
  const delta = distances(level, marginal, scale);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) {
      observed += o[c][d] * delta[c][d];
      expected += marginal[c] * marginal[d] * delta[c][d];
    }
  }
  return expected === 0 ? null : 1 - ((n - 1) * observed) / expected;
}

/** o_ck = Σ_u (number of c–k pairs in unit u) / (m_u − 1), over units with m_u ≥ 2. */
function coincidences(counts: readonly (readonly number[])[], k: number): number[][] {
  const o = Array.from({ length: k }, () => Array<number>(k).fill(0));
  for (const row of counts) {
    const m = sum(row);
    if (m < 2) continue;
    for (let c = 0; c < k; c++) {
      if (row[c] === 0) continue;
      for (let d = 0; d < k; d++) o[c][d] += (row[c] * (c === d ? row[c] - 1 : row[d])) / (m - 1);
    }
  }
  return o;
}

/** δ²_ck of Krippendorff (2011): nominal 0/1; ordinal (Σ_{g=c..k} n_g − (n_c + n_k)/2)²; interval (c − k)². */
function distances(level: Level, marginal: readonly number[], scale: readonly number[]): number[][] {
  const k = marginal.length;
  if (level !== 'nominal' && scale.length !== k) throw new Error(`${level} α needs a number for each value`);
  const order = [...marginal.keys()].sort((a, b) => scale[a] - scale[b]);
  const rank = new Map(order.map((v, i) => [v, i]));
  return Array.from({ length: k }, (_, c) =>
    Array.from({ length: k }, (_, d) => {
      if (c === d) return 0;
      if (level === 'nominal') return 1;
      if (level === 'interval') return (scale[c] - scale[d]) ** 2;
      const [lo, hi] = [rank.get(c)!, rank.get(d)!].sort((a, b) => a - b);
      let between = 0;
      for (let g = lo; g <= hi; g++) between += marginal[order[g]];
      return (between - (marginal[c] + marginal[d]) / 2) ** 2;
    }),
  );
}
