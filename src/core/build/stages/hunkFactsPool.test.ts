import { strict as assert } from 'node:assert';
import { freshTokens, hunkOf, DEFAULTS } from '../../rules/dedup/testHunks';
import { computeHunkFacts, unpackHunkFacts, type HunkFactsInput } from './hunkFacts';
import { HunkFactsPool } from './hunkFactsPool';

/** 3,500 hunks: distinct ones, exact copies, one without tokens, and targets quoted in comments. */
function hunks(): HunkFactsInput[] {
  const out: HunkFactsInput[] = [];
  for (let i = 0; i < 3500; i++) {
    if (i % 10 === 9) out.push({ ...out[i - 1], comments: [] });
    else if (i === 500) out.push({ before: '   \n', after: '\n', comments: ['no tokens at all'] });
    else {
      const h = hunkOf(freshTokens(40));
      out.push({ ...h, comments: i % 3 === 0 ? ['unrelated', `please write:\n${h.after}`] : ['looks fine to me'] });
    }
  }
  return out;
}

const plain = (facts: ReturnType<typeof unpackHunkFacts>) =>
  facts.map((f) => ({ ...f, sketch: { ...f.sketch, keys: f.sketch.keys && [...f.sketch.keys] } }));

describe('HunkFactsPool', () => {
  const input = hunks();
  const expected = plain(unpackHunkFacts(computeHunkFacts(DEFAULTS, input), DEFAULTS.lshBands));

  it('computes in the worker thread exactly what the main thread computes', async () => {
    const pool = new HunkFactsPool(DEFAULTS);
    input.forEach((h) => pool.add(h));
    const facts = await pool.finish();
    assert.ok(pool.workerBatches >= 3, `the worker computed ${pool.workerBatches} batches`);
    assert.deepEqual(plain(facts), expected);
  });

  it('computes the same on the calling thread without the worker', async () => {
    const pool = new HunkFactsPool(DEFAULTS, false);
    input.forEach((h) => pool.add(h));
    assert.deepEqual(plain(await pool.finish()), expected);
    assert.equal(pool.workerBatches, 0);
  });

  it('finds targets quoted in comments, keys for hunks with tokens and none without', () => {
    assert.deepEqual(expected[0].targetComments, [1]);
    assert.deepEqual(expected[1].targetComments, []);
    assert.equal(expected[500].sketch.keys, null);
    assert.equal(expected[1].sketch.keys?.length, DEFAULTS.lshBands);
    assert.equal(expected[9].sketch.wholeFingerprint, expected[8].sketch.wholeFingerprint);
    assert.notEqual(expected[8].sketch.wholeFingerprint, expected[7].sketch.wholeFingerprint);
  });
});
