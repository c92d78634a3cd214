// Test support for the dedup tests (not used by the build): deterministic hunks with known shingle
// sets, candidates, and a reference Jaccard computed the obvious way with string sets.
import { normalizeHunkText } from './normalize';
import type { DedupCandidate, DedupParams } from './types';

export const DEFAULTS: DedupParams = {
  nearDuplicateJaccard: 0.85,
  minhashPermutations: 128,
  lshBands: 11,
  lshRows: 11,
  shingleTokens: 5,
  boilerplateMinChanges: 5,
};

/** LSH that proposes every pair sharing a single MinHash value: decisions rest on exact Jaccard alone. */
export const PROPOSE_ALL: DedupParams = { ...DEFAULTS, lshBands: 128, lshRows: 1 };

/** mulberry32: a small deterministic generator in [0, 1). */
export function rng(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

let tokenCounter = 0;
const WORDS = [
  'get',
  'set',
  'user',
  'map',
  'count',
  'node',
  'buf',
  'ctx',
  'req',
  'item',
  'path',
  'err',
  'data',
  'parse',
  'index',
];

/** `n` tokens that never occurred before in this process, so their shingles are new too. */
export function freshTokens(n: number): string[] {
  return Array.from({ length: n }, () => {
    const i = tokenCounter++;
    return `${WORDS[i % WORDS.length]}${WORDS[(i >> 4) % WORDS.length].toUpperCase()}_${i}`;
  });
}

/** A hunk whose token sequence (before then after) is exactly `tokens`, six tokens per line. */
export function hunkOf(tokens: readonly string[]): { before: string; after: string } {
  const half = Math.max(1, Math.floor(tokens.length / 2));
  const lines = (ts: readonly string[]): string =>
    Array.from({ length: Math.ceil(ts.length / 6) }, (_, l) => '    ' + ts.slice(6 * l, 6 * l + 6).join(' ')).join(
      '\n',
    );
  return { before: lines(tokens.slice(0, half)), after: lines(tokens.slice(half)) };
}

let keyCounter = 0;

export function candidate(
  hunk: { before: string; after: string },
  o: { changeNumber?: number; day?: number; changeId?: string | null; key?: string } = {},
): DedupCandidate {
  const changeNumber = o.changeNumber ?? 1000 + keyCounter;
  const day = o.day ?? keyCounter;
  return {
    key: o.key ?? `k${keyCounter++}`,
    changeId: o.changeId === undefined ? null : o.changeId,
    changeNumber,
    created: new Date(Date.UTC(2024, 9, 1) + day * 86_400_000).toISOString(),
    before: hunk.before,
    after: hunk.after,
  };
}

/** Jaccard of the k-token shingle sets of normalised(before) + "\n" + normalised(after), via string sets. */
export function referenceJaccard(
  a: { before: string; after: string },
  b: { before: string; after: string },
  k = 5,
): number {
  const set = (h: { before: string; after: string }): Set<string> => {
    const t = `${normalizeHunkText(h.before)}\n${normalizeHunkText(h.after)}`.split(/\s+/).filter((x) => x !== '');
    const w = Math.min(k, t.length);
    const out = new Set<string>();
    for (let i = 0; t.length > 0 && i + w <= t.length; i++) out.add(t.slice(i, i + w).join(' '));
    return out;
  };
  const x = set(a);
  const y = set(b);
  let shared = 0;
  for (const s of x) if (y.has(s)) shared++;
  return x.size + y.size === 0 ? 0 : shared / (x.size + y.size - shared);
}

/** Fisher–Yates with a seeded generator. */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const r = rng(seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Decisions keyed by example key instead of input index. */
export function byKey(
  candidates: readonly DedupCandidate[],
  decisions: Map<number, { rule: string; keptKey?: string }>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [i, d] of decisions) out[candidates[i].key] = d.keptKey ? `${d.rule} of ${d.keptKey}` : d.rule;
  return out;
}
