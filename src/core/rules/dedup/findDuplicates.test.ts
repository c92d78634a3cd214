import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { UserError } from '../../ground/store/errors';
import { findDuplicates, type DedupCandidate } from './index';
import { HunkSketcher } from './hunkSketch';
import { MinHasher } from './minhash';
import { byKey, candidate, DEFAULTS, freshTokens, hunkOf, PROPOSE_ALL, referenceJaccard, shuffled } from './testHunks';

const run = (cs: DedupCandidate[], params = PROPOSE_ALL): Record<string, string> =>
  byKey(cs, findDuplicates(cs, params));
const LICENCE = '/*\n * Copyright (C) 2024 The Example Authors\n * SPDX-License-Identifier: Apache-2.0\n */';

describe('dedup findDuplicates: same_change', () => {
  it('keeps every example of the earliest change and removes the later change with the same Change-Id', () => {
    const id = 'I0123456789abcdef0123456789abcdef01234567';
    const a1 = candidate(hunkOf(freshTokens(20)), { key: 'a1', changeNumber: 100, day: 1, changeId: id });
    const a2 = candidate(hunkOf(freshTokens(20)), { key: 'a2', changeNumber: 100, day: 1, changeId: id });
    const b1 = candidate(hunkOf(freshTokens(20)), { key: 'b1', changeNumber: 200, day: 3, changeId: id });
    assert.deepEqual(run([b1, a2, a1]), { b1: 'same_change of a1' });
  });

  it('decides "earliest" by creation time first, then by change number', () => {
    const id = 'Iaaaa';
    const late = candidate(hunkOf(freshTokens(20)), { key: 'late', changeNumber: 100, day: 5, changeId: id });
    const early = candidate(hunkOf(freshTokens(20)), { key: 'early', changeNumber: 300, day: 2, changeId: id });
    const tie = candidate(hunkOf(freshTokens(20)), { key: 'tie', changeNumber: 200, day: 2, changeId: id });
    assert.deepEqual(run([late, early, tie]), { late: 'same_change of tie', early: 'same_change of tie' });
  });

  it('ignores unknown Change-Ids and examples of one change', () => {
    const cs = [
      candidate(hunkOf(freshTokens(20)), { changeNumber: 1, changeId: null }),
      candidate(hunkOf(freshTokens(20)), { changeNumber: 2, changeId: null }),
      candidate(hunkOf(freshTokens(20)), { changeNumber: 3, changeId: 'Ib' }),
      candidate(hunkOf(freshTokens(20)), { changeNumber: 3, changeId: 'Ib' }),
    ];
    assert.deepEqual(run(cs), {});
  });

  it('names a kept example of the kept change when its first example is removed by a later rule', () => {
    const shared = hunkOf(freshTokens(30));
    const original = candidate(shared, { key: 'original', changeNumber: 50, day: 0 });
    const a1 = candidate(shared, { key: 'a1', changeNumber: 100, day: 1, changeId: 'Ic' }); // exact duplicate of original
    const a2 = candidate(hunkOf(freshTokens(30)), { key: 'a2', changeNumber: 100, day: 1, changeId: 'Ic' });
    const b = candidate(hunkOf(freshTokens(30)), { key: 'b', changeNumber: 200, day: 2, changeId: 'Ic' });
    assert.deepEqual(run([original, a1, a2, b]), { a1: 'exact_duplicate of original', b: 'same_change of a2' });
  });
});

describe('dedup findDuplicates: exact_duplicate', () => {
  it('removes a later hunk equal after normalising trailing spaces, CRLF and whitespace runs', () => {
    const first = candidate(
      { before: 'if (a) {\n    b();\n}', after: 'if (a) {\n    c();\n}' },
      { key: 'first', day: 1 },
    );
    const second = candidate(
      { before: 'if (a)  {\r\n\tb();   \r\n}', after: 'if (a) {\t\n  c();\n}\t' },
      { key: 'second', day: 2 },
    );
    assert.deepEqual(run([second, first]), { second: 'exact_duplicate of first' });
  });

  it('does not treat re-wrapped lines or a different after side as exact duplicates', () => {
    const first = candidate({ before: 'a(b, c);', after: 'a(b, d);' }, { key: 'first', day: 1 });
    const wrapped = candidate({ before: 'a(b,\nc);', after: 'a(b, d);' }, { key: 'wrapped', day: 2 });
    const other = candidate({ before: 'a(b, c);', after: 'a(b, e);' }, { key: 'other', day: 3 });
    // Re-wrapping keeps the tokens, so it is still a near duplicate (J = 1).
    assert.deepEqual(run([first, wrapped, other]), { wrapped: 'near_duplicate of first' });
  });
});

describe('dedup findDuplicates: SHA-256 decides identity, not the fingerprint', () => {
  // The tokens "tokuvzri" and "tokuqbaab" share a 32-bit hash, so these hunks share a fingerprint.
  const colliding = (token: string, after = 'y();'): { before: string; after: string } => ({
    before: `x = ${token};`,
    after,
  });

  it('does not call hunks with equal fingerprints but different text exact duplicates', () => {
    const fingerprint = (h: { before: string; after: string }): number => {
      const hasher = new MinHasher(128, 121, 5);
      hasher.load(h.before, h.after);
      return hasher.wholeFingerprint;
    };
    assert.equal(fingerprint(colliding('tokuvzri')), fingerprint(colliding('tokuqbaab')));
    const a = candidate(colliding('tokuvzri'), { key: 'a', day: 1 });
    const b = candidate(colliding('tokuqbaab'), { key: 'b', day: 2 });
    const c = candidate(colliding('tokuqbaab'), { key: 'c', day: 3 });
    assert.deepEqual(run([a, b, c]), { c: 'exact_duplicate of b' });
  });

  it('does not count changes of a different before-hunk with the same fingerprint towards boilerplate', () => {
    const cs = [0, 1, 2, 3, 4].map((i) =>
      candidate(colliding(i < 3 ? 'tokuvzri' : 'tokuqbaab', `z${i}();`), { changeNumber: 300 + i, day: i }),
    );
    assert.deepEqual(run(cs), {});
  });
});

describe('dedup findDuplicates: near_duplicate', () => {
  // 174 fresh tokens give 170 shingles; appending e tokens adds e shingles: J = 170 / (170 + e).
  const base = freshTokens(174);
  const withTail = (e: number): { before: string; after: string } => hunkOf([...base, ...freshTokens(e)]);

  for (const [e, removed] of [
    [29, true],
    [30, true],
    [31, false],
  ] as const) {
    it(`${removed ? 'removes' : 'keeps'} a hunk at J = 170/${170 + e} = ${(170 / (170 + e)).toFixed(4)} (threshold 0.85)`, () => {
      const a = candidate(hunkOf(base), { key: 'a', day: 1 });
      const b = candidate(withTail(e), { key: 'b', day: 2 });
      assert.equal(referenceJaccard(a, b), 170 / (170 + e));
      assert.deepEqual(run([b, a]), removed ? { b: 'near_duplicate of a' } : {});
    });
  }

  it('removes only examples that match a kept one: A~B and B~C but A≁C keeps A and C', () => {
    const tokens = freshTokens(104); // 100 shingles
    const a = candidate(hunkOf(tokens), { key: 'A', day: 1 });
    const bTokens = [...tokens, ...freshTokens(10)];
    const b = candidate(hunkOf(bTokens), { key: 'B', day: 2 });
    const c = candidate(hunkOf([...bTokens, ...freshTokens(10)]), { key: 'C', day: 3 });
    assert.ok(referenceJaccard(a, b) >= 0.85 && referenceJaccard(b, c) >= 0.85 && referenceJaccard(a, c) < 0.85);
    assert.deepEqual(run([c, b, a]), { B: 'near_duplicate of A' });
  });

  it('names the earliest kept example when a hunk matches several', () => {
    const t = freshTokens(100);
    const u = freshTokens(10);
    const a = candidate(hunkOf(t), { key: 'A', day: 1 });
    const x = candidate(hunkOf([...t.slice(10), ...u]), { key: 'X', day: 2 });
    const d = candidate(hunkOf([...t.slice(5), ...u.slice(0, 5)]), { key: 'D', day: 3 });
    assert.ok(referenceJaccard(a, x) < 0.85 && referenceJaccard(a, d) >= 0.85 && referenceJaccard(x, d) >= 0.85);
    assert.deepEqual(run([d, x, a]), { D: 'near_duplicate of A' });
  });

  it('gives an exact copy of a near duplicate the same fate: near_duplicate of the kept example', () => {
    const t = freshTokens(100);
    const a = candidate(hunkOf(t), { key: 'A', day: 1 });
    const b = candidate(hunkOf([...t, 'extra']), { key: 'B', day: 2 });
    const bCopy = candidate(hunkOf([...t, 'extra']), { key: 'B2', day: 3 });
    assert.deepEqual(run([a, b, bCopy]), { B: 'near_duplicate of A', B2: 'near_duplicate of A' });
  });
});

const licenceEdits = (changes: number, changeNumbers = (i: number) => 500 + i) =>
  Array.from({ length: changes }, (_, i) =>
    candidate(
      { before: LICENCE, after: `${LICENCE}\n// ${freshTokens(30).join(' ')}` },
      { key: `L${i}`, changeNumber: changeNumbers(i), day: i },
    ),
  );

describe('dedup findDuplicates: boilerplate', () => {
  it('removes every example whose before-hunk occurs in 5 distinct changes, keeping none', () => {
    assert.deepEqual(run(licenceEdits(5)), {
      L0: 'boilerplate',
      L1: 'boilerplate',
      L2: 'boilerplate',
      L3: 'boilerplate',
      L4: 'boilerplate',
    });
  });

  it('keeps a before-hunk seen in only 4 changes, or in 5 examples of 4 changes', () => {
    assert.deepEqual(run(licenceEdits(4)), {});
    assert.deepEqual(run(licenceEdits(5, (i) => 500 + Math.min(i, 3))), {});
  });

  it('matches the before-hunk after normalisation', () => {
    const cs = licenceEdits(5);
    cs[2].before = cs[2].before.replace(/\n/g, '  \r\n');
    assert.equal(Object.keys(run(cs)).length, 5);
  });

  it('counts identical copies of a boilerplate edit as boilerplate, not as exact duplicates of a removed original', () => {
    const same = { before: LICENCE, after: LICENCE.replace('2024', '2025') };
    const cs = Array.from({ length: 5 }, (_, i) => candidate(same, { key: `Y${i}`, changeNumber: 700 + i, day: i }));
    assert.deepEqual(run(cs), {
      Y0: 'boilerplate',
      Y1: 'boilerplate',
      Y2: 'boilerplate',
      Y3: 'boilerplate',
      Y4: 'boilerplate',
    });
  });
});

describe('dedup findDuplicates: boilerplate and the other rules', () => {
  it('never keeps a boilerplate example as the original of a near duplicate', () => {
    const t = freshTokens(60);
    const boiler = Array.from({ length: 5 }, (_, i) =>
      candidate(
        { before: t.join(' '), after: `${t.join(' ')} end${i}` },
        { key: `B${i}`, changeNumber: 800 + i, day: i },
      ),
    );
    // Near duplicate of B0 with a different before-hunk: nothing kept matches it, so it stays.
    const near = candidate(
      { before: `${t.join(' ')} x`, after: `${t.join(' ')} end0` },
      { key: 'N', changeNumber: 900, day: 10 },
    );
    assert.ok(referenceJaccard(near, boiler[0]) >= 0.85);
    const got = run([near, ...boiler]);
    assert.equal(got.N, undefined);
    assert.deepEqual(Object.keys(got).sort(), ['B0', 'B1', 'B2', 'B3', 'B4']);
  });

  it('counts a boilerplate example that duplicates a kept example under the earlier rule', () => {
    const t = freshTokens(60);
    const kept = candidate(
      { before: `${t.join(' ')} x`, after: `${t.join(' ')} end` },
      { key: 'K', changeNumber: 10, day: 0 },
    );
    const boiler = Array.from({ length: 5 }, (_, i) =>
      candidate(
        { before: t.join(' '), after: `${t.join(' ')} end` },
        { key: `B${i}`, changeNumber: 800 + i, day: i + 1 },
      ),
    );
    assert.ok(referenceJaccard(kept, boiler[0]) >= 0.85);
    assert.deepEqual(run([...boiler, kept]), {
      B0: 'near_duplicate of K',
      B1: 'near_duplicate of K',
      B2: 'near_duplicate of K',
      B3: 'near_duplicate of K',
      B4: 'near_duplicate of K',
    });
  });
});

describe('dedup findDuplicates: evidence', () => {
  const decisionsOf = (cs: DedupCandidate[], params = PROPOSE_ALL) => {
    const found = findDuplicates(cs, params);
    return Object.fromEntries([...found].map(([i, d]) => [cs[i].key, d]));
  };

  it('gives a near duplicate the exact Jaccard of the pair, not the count where the threshold was decided', () => {
    // 174 tokens give 170 shingles; 20 more tokens add 20: J = 170/190. The confirming check can stop
    // once the threshold is certain, so only a full count gives this value.
    const base = freshTokens(174);
    const a = candidate(hunkOf(base), { key: 'a', day: 1 });
    const b = candidate(hunkOf([...base, ...freshTokens(20)]), { key: 'b', day: 2 });
    assert.equal(referenceJaccard(a, b), 170 / 190);
    assert.deepEqual(decisionsOf([b, a]).b, { rule: 'near_duplicate', keptKey: 'a', jaccard: 170 / 190 });
  });

  it("gives an exact duplicate Jaccard 1, and its exact copy of a near duplicate that pair's Jaccard", () => {
    const t = freshTokens(100); // 96 shingles; one more token adds one: J = 96/97
    const a = candidate(hunkOf(t), { key: 'A', day: 1 });
    const aCopy = candidate(hunkOf(t), { key: 'A2', day: 2 });
    const b = candidate(hunkOf([...t, 'extra']), { key: 'B', day: 3 });
    const bCopy = candidate(hunkOf([...t, 'extra']), { key: 'B2', day: 4 });
    const got = decisionsOf([a, aCopy, b, bCopy]);
    assert.deepEqual(got.A2, { rule: 'exact_duplicate', keptKey: 'A', jaccard: 1 });
    assert.deepEqual(got.B, { rule: 'near_duplicate', keptKey: 'A', jaccard: 96 / 97 });
    assert.deepEqual(got.B2, got.B);
  });

  it('gives boilerplate the SHA-256 of its normalised before-hunk and the distinct changes carrying it', () => {
    // Six examples in five changes (two in change 500), one of them written with CRLF and trailing spaces.
    const cs = Array.from({ length: 6 }, (_, i) =>
      candidate(
        { before: LICENCE, after: `${LICENCE}\n// ${freshTokens(30).join(' ')}` },
        { key: `L${i}`, changeNumber: 500 + Math.max(0, i - 1), day: i },
      ),
    );
    cs[3].before = cs[3].before.replace(/\n/g, '  \r\n');
    const sha256 = createHash('sha256').update(LICENCE).digest('base64');
    const got = decisionsOf(cs);
    assert.equal(Object.keys(got).length, 6);
    for (const d of Object.values(got))
      assert.deepEqual(d, { rule: 'boilerplate', boilerplate: { sha256, changes: 5 } });
  });

  it("gives same_change the kept change's example as its twin", () => {
    const a = candidate(hunkOf(freshTokens(20)), { key: 'a', changeNumber: 1, day: 1, changeId: 'Isame' });
    const b = candidate(hunkOf(freshTokens(20)), { key: 'b', changeNumber: 2, day: 2, changeId: 'Isame' });
    assert.deepEqual(decisionsOf([b, a]).b, { rule: 'same_change', keptKey: 'a' });
  });
});

function mixedOrganization(): DedupCandidate[] {
  const cs: DedupCandidate[] = [];
  for (let i = 0; i < 300; i++) {
    const t = freshTokens(20 + (i % 50));
    cs.push(candidate(hunkOf(t), { changeNumber: 2000 + i, day: i % 40, changeId: `I${i % 250}` }));
    if (i % 7 === 0) cs.push(candidate(hunkOf(t), { changeNumber: 5000 + i, day: (i * 3) % 40 }));
    if (i % 5 === 0) cs.push(candidate(hunkOf([...t, 'tail']), { changeNumber: 6000 + i, day: (i * 7) % 40 }));
    if (i % 11 === 0)
      cs.push(candidate({ before: LICENCE, after: t.join(' ') }, { changeNumber: 7000 + i, day: i % 40 }));
  }
  return cs;
}

describe('dedup findDuplicates: as a whole', () => {
  it('does not depend on the input order', () => {
    const cs = mixedOrganization();
    const expected = run(cs, DEFAULTS);
    const rules = new Set(Object.values(expected).map((d) => d.split(' ')[0]));
    assert.deepEqual([...rules].sort(), ['boilerplate', 'exact_duplicate', 'near_duplicate', 'same_change']);
    for (const seed of [1, 2, 3, 4]) assert.deepEqual(run(shuffled(cs, seed), DEFAULTS), expected, `shuffle ${seed}`);
  });

  it('decides the same from sketches computed ahead (the build computes them in a worker)', () => {
    const cs = mixedOrganization();
    const sketcher = new HunkSketcher(DEFAULTS);
    const ahead = cs.map((c) => {
      sketcher.load(c.before, c.after);
      return {
        ...c,
        sketch: {
          beforeFingerprint: sketcher.beforeFingerprint,
          wholeFingerprint: sketcher.wholeFingerprint,
          keys: sketcher.keys(),
        },
      };
    });
    assert.deepEqual(run(ahead, DEFAULTS), run(cs, DEFAULTS));
  });
});

describe('dedup findDuplicates: keys, times and bad input', () => {
  it('names a kept example as keptKey (same_change: an example of the kept change)', () => {
    const cs = mixedOrganization();
    const decisions = findDuplicates(cs, DEFAULTS);
    const byKeyIndex = new Map(cs.map((c, i) => [c.key, i]));
    for (const [i, d] of decisions) {
      assert.equal(d.keptKey === undefined, d.rule === 'boilerplate');
      if (d.keptKey === undefined) continue;
      const kept = byKeyIndex.get(d.keptKey)!;
      if (d.rule === 'same_change') {
        assert.equal(cs[kept].changeId, cs[i].changeId);
        assert.ok(
          !decisions.has(kept) || cs.every((c, k) => c.changeNumber !== cs[kept].changeNumber || decisions.has(k)),
        );
      } else {
        assert.ok(!decisions.has(kept), JSON.stringify(d));
      }
    }
  });

  it('reads Gerrit timestamps without a zone as UTC', () => {
    const h = hunkOf(freshTokens(20));
    const a = { ...candidate(h, { key: 'a', changeNumber: 2 }), created: '2024-10-01 10:00:00.000000000' };
    const b = { ...candidate(h, { key: 'b', changeNumber: 1 }), created: '2024-10-01T11:00:00+02:00' }; // 09:00 UTC
    assert.deepEqual(run([a, b]), { a: 'exact_duplicate of b' });
  });

  it('rejects bad input with one line naming the culprit', () => {
    const c = candidate(hunkOf(freshTokens(10)), { key: 'bad' });
    assert.throws(
      () => findDuplicates([{ ...c, created: 'yesterday' }], DEFAULTS),
      (e: Error) => e instanceof UserError && /"bad".*"yesterday"/.test(e.message),
    );
    assert.throws(
      () => findDuplicates([c, c], DEFAULTS),
      (e: Error) => e instanceof UserError && /"bad" occurs twice/.test(e.message),
    );
    assert.throws(
      () => findDuplicates([], { ...DEFAULTS, lshBands: 12 }),
      (e: Error) => e instanceof UserError && /lshBands × lshRows/.test(e.message),
    );
    assert.throws(
      () => findDuplicates([], { ...DEFAULTS, nearDuplicateJaccard: 0 }),
      (e: Error) => e instanceof UserError && /nearDuplicateJaccard/.test(e.message),
    );
    assert.throws(
      () => findDuplicates([], { ...DEFAULTS, shingleTokens: 2.5 }),
      (e: Error) => e instanceof UserError && /shingleTokens/.test(e.message),
    );
  });

  it('returns an empty map for no candidates', () => {
    assert.equal(findDuplicates([], DEFAULTS).size, 0);
  });
});
