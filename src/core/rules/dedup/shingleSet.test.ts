import assert from 'node:assert/strict';
import { ShingleSet } from './shingleSet';
import { freshTokens, hunkOf, referenceJaccard, rng } from './testHunks';

// "tokuvzri" and "tokuqbaab" have the same 32-bit FNV-1a hash, so shingles that differ only in them
// have the same shingle hash.
const COLLIDING = ['tokuvzri', 'tokuqbaab'];

const set = (h: { before: string; after: string }, k = 5): ShingleSet => new ShingleSet(h.before, h.after, k);

describe('dedup exact shingle sets', () => {
  it('agrees with a string-set Jaccard on edited, re-spaced and short hunks', () => {
    const r = rng(3);
    for (let n = 0; n < 300; n++) {
      const base = freshTokens(Math.floor(r() * 60));
      const edited = base.map((t) => (r() < 0.1 ? freshTokens(1)[0] : t));
      if (r() < 0.3) edited.push(...base.slice(0, 8)); // repeated shingles
      const a = hunkOf(base);
      const b = hunkOf(edited);
      if (r() < 0.5) b.before = b.before.replace(/ /g, '  \t').replace(/\n/g, ' \r\n');
      for (const k of [1, 3, 5]) assert.equal(set(a, k).jaccard(set(b, k)), referenceJaccard(a, b, k), `${n} k=${k}`);
    }
  });

  it('decides J ≥ threshold early exactly as the full Jaccard would, also at the boundary', () => {
    const r = rng(4);
    const base = freshTokens(174);
    const boundary = [set(hunkOf(base)), set(hunkOf([...base, ...freshTokens(30)]))]; // J = 170/200
    assert.equal(boundary[0].jaccardAtLeast(boundary[1], 0.85), true);
    assert.equal(boundary[1].jaccardAtLeast(boundary[0], 0.85 + 1e-12), false);
    for (let n = 0; n < 300; n++) {
      const tokens = freshTokens(5 + Math.floor(r() * 80));
      const a = set(hunkOf(tokens));
      const b = set(hunkOf(tokens.map((t) => (r() < 0.08 ? freshTokens(1)[0] : t))));
      for (const threshold of [0.1, 0.5, 0.8, 0.85, 0.9, 1, a.jaccard(b)]) {
        assert.equal(a.jaccardAtLeast(b, threshold), a.jaccard(b) >= threshold, `${n} ${threshold}`);
        assert.equal(b.jaccardAtLeast(a, threshold), a.jaccard(b) >= threshold, `${n} ${threshold} swapped`);
      }
    }
  });

  it('counts repeated shingles once', () => {
    const x = set({ before: 'x x x x x x x x', after: 'x x' });
    assert.equal(x.size, 1);
    assert.equal(x.jaccard(set({ before: 'x x x', after: 'x x' })), 1);
  });

  it('uses the whole text as one shingle when it has fewer tokens than a shingle', () => {
    assert.equal(set({ before: 'a b', after: 'c' }).size, 1);
    assert.equal(set({ before: 'a b', after: 'c' }).jaccard(set({ before: 'a', after: 'b c' })), 1);
    assert.equal(set({ before: 'a b', after: 'c' }).jaccard(set({ before: 'a b', after: 'c d' })), 0);
  });

  it('gives 0 for two hunks without tokens', () => {
    assert.equal(set({ before: ' ', after: '\n' }).jaccard(set({ before: '', after: '' })), 0);
  });

  it('does not let a hash collision make different shingles equal', () => {
    const a = { before: 'p q r s', after: COLLIDING[0] };
    const b = { before: 'p q r s', after: COLLIDING[1] };
    assert.equal(set(a).jaccard(set(b)), 0);
    // Within one set, the two shingles stay two.
    assert.equal(set({ before: `p q r s ${COLLIDING[0]}`, after: `p q r s ${COLLIDING[1]}` }).size, 6);
  });

  it('does not confuse a before-side token with an after-side token at the same offset', () => {
    const a = set({ before: 'aa bb cc dd ee', after: 'ff' });
    const b = set({ before: 'aa bb cc dd', after: 'ee ff' });
    assert.equal(a.jaccard(b), 1);
  });
});
