import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CorpusStore } from '../../ground/store/corpusStore';
import { cohensKappa, labelReport, setLabel, type Label } from './labels';

describe("Cohen's kappa", () => {
  it('is 1 for perfect agreement across categories', () => {
    assert.equal(
      cohensKappa([
        ['answers', 'answers'],
        ['does_not', 'does_not'],
        ['unsure', 'unsure'],
      ]),
      1,
    );
  });
  it('matches a worked example', () => {
    // 50 pairs: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no → po = 0.7, pe = 0.5·0.6 + 0.5·0.4 = 0.5, κ = 0.4
    const pairs: [Label, Label][] = [
      ...Array(20).fill(['answers', 'answers']),
      ...Array(5).fill(['answers', 'does_not']),
      ...Array(10).fill(['does_not', 'answers']),
      ...Array(15).fill(['does_not', 'does_not']),
    ];
    assert.ok(Math.abs(cohensKappa(pairs)! - 0.4) < 1e-12);
  });
  it('is null without shared examples', () => {
    assert.equal(cohensKappa([]), null);
  });
});

describe("Cohen's kappa, by hand", () => {
  it('counts three categories and a rater who never used one', () => {
    // 8 pairs: (answers, answers) ×5, (answers, does_not) ×1, (does_not, does_not) ×1, (does_not, unsure) ×1.
    // po = 6/8 = 0.75. Marginals A: answers 6/8, does_not 2/8, unsure 0; B: answers 5/8, does_not 2/8, unsure 1/8.
    // pe = 6/8·5/8 + 2/8·2/8 + 0·1/8 = 34/64 = 0.53125; κ = (0.75 − 0.53125) / (1 − 0.53125) = 0.21875 / 0.46875 = 7/15.
    const pairs: [Label, Label][] = [
      ...Array(5).fill(['answers', 'answers']),
      ['answers', 'does_not'],
      ['does_not', 'does_not'],
      ['does_not', 'unsure'],
    ];
    assert.ok(Math.abs(cohensKappa(pairs)! - 7 / 15) < 1e-12);
  });
  it('is negative when raters agree less than chance', () => {
    // 4 pairs: (answers, does_not) ×2, (does_not, answers) ×2 → po = 0; marginals ½, ½ each → pe = ½; κ = (0 − ½)/(1 − ½) = −1.
    assert.equal(
      cohensKappa([
        ['answers', 'does_not'],
        ['answers', 'does_not'],
        ['does_not', 'answers'],
        ['does_not', 'answers'],
      ]),
      -1,
    );
  });
  it('is null when both raters gave one and the same label throughout (chance agreement 1)', () => {
    assert.equal(
      cohensKappa([
        ['answers', 'answers'],
        ['answers', 'answers'],
      ]),
      null,
    );
  });
});

describe('labelReport', () => {
  it('reads shares and pairwise κ from a real corpus file', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'rc-labels-')), 'corpus.sqlite');
    const store = await CorpusStore.create(file);
    // A: answers on k1–k4, does_not on k5; B: answers on k1–k3, does_not on k4, unsure on k6 (k5 unlabelled by B).
    (['answers', 'answers', 'answers', 'answers', 'does_not'] as const).forEach((l, i) =>
      setLabel(store, `k${i + 1}`, 'gpt-test', l, 't'),
    );
    (['answers', 'answers', 'answers', 'does_not'] as const).forEach((l, i) =>
      setLabel(store, `k${i + 1}`, 'r_0123456789abcdef', l, 't'),
    );
    setLabel(store, 'k6', 'r_0123456789abcdef', 'unsure', 't');
    store.save();
    store.close();
    const reopened = await CorpusStore.open(file);
    try {
      const r = labelReport(reopened);
      assert.deepEqual(r.raters, [
        { rater: 'gpt-test', total: 5, counts: { answers: 4, does_not: 1, unsure: 0 }, answersShare: 4 / 5 },
        { rater: 'r_0123456789abcdef', total: 5, counts: { answers: 3, does_not: 1, unsure: 1 }, answersShare: 3 / 5 },
      ]);
      // Both labelled k1–k4: pairs (a,a) ×3, (a,d) ×1. po = 3/4; A answers 4/4; B answers 3/4, does_not 1/4.
      // pe = 1·3/4 + 0·1/4 = 3/4, so κ = (3/4 − 3/4)/(1 − 3/4) = 0: agreement no better than chance.
      assert.deepEqual(r.agreement, [{ raterA: 'gpt-test', raterB: 'r_0123456789abcdef', both: 4, kappa: 0 }]);
    } finally {
      reopened.close();
    }
  });

  it('has no rater and no agreement without labels', async () => {
    const store = await CorpusStore.create(path.join(mkdtempSync(path.join(tmpdir(), 'rc-labels-')), 'corpus.sqlite'));
    assert.deepEqual(labelReport(store), { raters: [], agreement: [] });
    store.close();
  });
});
