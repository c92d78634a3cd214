// Cohen's κ and quadratic-weighted κ, for any pair of raters: labels (labels/) and the judge's
// agreement (quality/) both use them. Imports nothing, so either can without a cycle.
// κ is null when it is undefined: no pair, or chance agreement is total (both raters never vary).

/** Cohen's κ of paired nominal labels. */
export function cohensKappa<T>(pairs: readonly (readonly [T, T])[]): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  const ca = new Map<T, number>();
  const cb = new Map<T, number>();
  let agree = 0;
  for (const [a, b] of pairs) {
    if (a === b) agree++;
    ca.set(a, (ca.get(a) ?? 0) + 1);
    cb.set(b, (cb.get(b) ?? 0) + 1);
  }
  let pe = 0;
  for (const [label, c] of ca) pe += (c / n) * ((cb.get(label) ?? 0) / n);
  return pe === 1 ? null : (agree / n - pe) / (1 - pe);
}

/** Quadratic-weighted κ of paired integer scores: 1 − Σ w·O / Σ w·E, w = (i − j)², E from the marginals. */
export function quadraticKappa(pairs: readonly (readonly [number, number])[]): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  const ca = new Map<number, number>();
  const cb = new Map<number, number>();
  let observed = 0;
  for (const [a, b] of pairs) {
    observed += (a - b) ** 2 / n;
    ca.set(a, (ca.get(a) ?? 0) + 1);
    cb.set(b, (cb.get(b) ?? 0) + 1);
  }
  let expected = 0;
  for (const [a, x] of ca) for (const [b, y] of cb) expected += (x / n) * (y / n) * (a - b) ** 2;
  return expected === 0 ? null : 1 - observed / expected;
}
