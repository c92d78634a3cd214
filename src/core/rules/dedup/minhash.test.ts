import assert from 'node:assert/strict';
import { findDuplicates } from './index';
import { bandKeys, MinHasher } from './minhash';
import { NearDuplicateIndex } from './nearDuplicates';
import { ShingleSet } from './shingleSet';
import { candidate, DEFAULTS, freshTokens, hunkOf, rng } from './testHunks';

type Hunk = { before: string; after: string };

/** A hunk of n fresh tokens and a copy with m tokens replaced, spread out so each edit changes k shingles. */
function editedPair(n: number, m: number): [Hunk, Hunk] {
  const base = freshTokens(n);
  const edited = [...base];
  for (let e = 0; e < m; e++) edited[5 + Math.floor(((e + 0.5) * (n - 10)) / m)] = freshTokens(1)[0];
  return [hunkOf(base), hunkOf(edited)];
}

/** Planted pairs whose exact Jaccard lies in [lo, hi). */
function pairsBetween(count: number, lo: number, hi: number, seed: number): [Hunk, Hunk][] {
  const r = rng(seed);
  const pairs: [Hunk, Hunk][] = [];
  while (pairs.length < count) {
    const n = 60 + Math.floor(r() * 400);
    const shingles = n - 4;
    // Each interior edit replaces 5 shingles: J = (S - 5m) / (S + 5m).
    const m = Math.ceil((shingles * (1 - hi)) / (5 * (1 + hi)) + 1e-9);
    const j = (shingles - 5 * m) / (shingles + 5 * m);
    if (m < 1 || j < lo || j >= hi || (n - 10) / m < 5) continue;
    pairs.push(editedPair(n, m));
  }
  return pairs;
}

const exactJaccard = (a: Hunk, b: Hunk): number =>
  new ShingleSet(a.before, a.after, 5).jaccard(new ShingleSet(b.before, b.after, 5));

function signature(hasher: MinHasher, h: Hunk): Uint32Array {
  hasher.load(h.before, h.after);
  return hasher.signature()!.slice();
}

describe('dedup MinHash and LSH', () => {
  it('is deterministic and depends on the shingle set only', () => {
    const [a] = editedPair(80, 1);
    assert.deepEqual(signature(new MinHasher(128, 121, 5), a), signature(new MinHasher(128, 121, 5), a));
    const once = signature(new MinHasher(128, 121, 5), { before: 'x x x x x', after: 'x' });
    const often = signature(new MinHasher(128, 121, 5), { before: 'x x x x x x x x', after: 'x x x' });
    assert.deepEqual(often, once);
    assert.notDeepEqual(signature(new MinHasher(128, 121, 5), { before: 'y y y y y', after: 'y' }), once);
  });

  it('permutation family: signature agreement estimates J without bias and with binomial variance', () => {
    const hasher = new MinHasher(128, 128, 5);
    const r = rng(5);
    let sumError = 0;
    let sumScaledSquare = 0;
    const pairs = 400;
    for (let p = 0; p < pairs; p++) {
      const n = 40 + Math.floor(r() * 200);
      const [a, b] = editedPair(n, 1 + Math.floor(r() * ((n - 10) / 6)));
      const j = exactJaccard(a, b);
      const sa = signature(hasher, a);
      const sb = signature(hasher, b);
      let agree = 0;
      for (let k = 0; k < 128; k++) if (sa[k] === sb[k]) agree++;
      sumError += agree / 128 - j;
      sumScaledSquare += (agree / 128 - j) ** 2 / ((j * (1 - j)) / 128);
    }
    assert.ok(Math.abs(sumError / pairs) < 0.01, `mean error ${sumError / pairs}`);
    // Independent permutations give a mean of 1 (± ~0.07 here); correlated ones would inflate it.
    assert.ok(
      sumScaledSquare / pairs > 0.75 && sumScaledSquare / pairs < 1.3,
      `variance ratio ${sumScaledSquare / pairs}`,
    );
  });
});

describe('dedup MinHash and LSH: banding', () => {
  it('proposes pairs at the rate 1 - (1 - J^r)^b of banded LSH (11 × 11)', () => {
    const hasher = new MinHasher(128, 121, 5);
    const r = rng(9);
    let observed = 0;
    let expected = 0;
    let variance = 0;
    for (let p = 0; p < 600; p++) {
      const n = 100 + Math.floor(r() * 200);
      const [a, b] = editedPair(n, 1 + Math.floor(r() * ((n - 10) / 25)));
      const j = exactJaccard(a, b);
      const ka = bandKeys(signature(hasher, a), 11, 11, new Int32Array(11));
      const kb = bandKeys(signature(hasher, b), 11, 11, new Int32Array(11));
      if (ka.some((key, band) => key === kb[band])) observed++;
      const prob = 1 - (1 - j ** 11) ** 11;
      expected += prob;
      variance += prob * (1 - prob);
    }
    assert.ok(
      Math.abs(observed - expected) < 4 * Math.sqrt(variance),
      `observed ${observed}, expected ${expected.toFixed(1)} ± ${Math.sqrt(variance).toFixed(1)}`,
    );
  });

  it('finds all 200 planted near duplicates at J ≥ 0.95 with the default 11 × 11 bands', () => {
    const pairs = pairsBetween(200, 0.95, 0.995, 21);
    const candidates = pairs.flatMap(([a, b]) => [candidate(a), candidate(b)]);
    for (const [a, b] of pairs) assert.ok(exactJaccard(a, b) >= 0.95);
    const decisions = findDuplicates(candidates, DEFAULTS);
    for (let p = 0; p < pairs.length; p++) {
      const [a, b] = pairs[p];
      assert.deepEqual(
        decisions.get(2 * p + 1),
        { rule: 'near_duplicate', keptKey: candidates[2 * p].key, jaccard: exactJaccard(a, b) },
        `pair ${p}`,
      );
    }
    assert.equal(decisions.size, pairs.length);
  });

  it('finds at least 95% of 200 planted near duplicates at 0.90 ≤ J < 0.92 (theory: 98.4–99.6%)', () => {
    const pairs = pairsBetween(200, 0.9, 0.92, 22);
    const candidates = pairs.flatMap(([a, b]) => [candidate(a), candidate(b)]);
    const decisions = findDuplicates(candidates, DEFAULTS);
    let found = 0;
    for (let p = 0; p < pairs.length; p++) if (decisions.get(2 * p + 1)?.keptKey === candidates[2 * p].key) found++;
    assert.ok(found >= 190, `found ${found}/200`);
    assert.equal(decisions.size, found);
  });
});

describe('dedup MinHash and LSH: unrelated hunks', () => {
  it('proposes no pair and removes nothing among 3,000 unrelated code-like hunks', () => {
    const r = rng(13);
    const vocabulary = [
      '{',
      '}',
      'return',
      'if',
      '(',
      ')',
      '=',
      'int',
      'x',
      'y',
      'i',
      '0',
      '1',
      'null',
      'this',
      ';',
      ...freshTokens(3000),
    ];
    const hunks = Array.from({ length: 3000 }, () => {
      const tokens = Array.from(
        { length: 30 + Math.floor(r() * 200) },
        () => vocabulary[Math.floor(r() ** 2 * vocabulary.length)],
      );
      return hunkOf(tokens);
    });
    const index = new NearDuplicateIndex(DEFAULTS, hunks.length, (i) => hunks[i]);
    const hasher = new MinHasher(128, 121, 5);
    for (let i = 0; i < hunks.length; i++) {
      const keys = bandKeys(signature(hasher, hunks[i]), 11, 11, new Int32Array(11));
      assert.equal(index.match(i, keys), null);
      index.keep(i, keys);
    }
    assert.equal(index.confirmations, 0);
    assert.equal(
      findDuplicates(
        hunks.map((h) => candidate(h)),
        DEFAULTS,
      ).size,
      0,
    );
  });
});
