import assert from 'node:assert/strict';
import { cohensKappa, type Label } from './labels';

describe("Cohen's kappa", () => {
  it('is 1 for perfect agreement across categories', () => {
    assert.equal(cohensKappa([['answers', 'answers'], ['does_not', 'does_not'], ['unsure', 'unsure']]), 1);
  });
  it('matches a worked example', () => {
    // 50 pairs: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no → po = 0.7, pe = 0.5·0.6 + 0.5·0.4 = 0.5, κ = 0.4
    const pairs: [Label, Label][] = [
      ...Array(20).fill(['answers', 'answers']), ...Array(5).fill(['answers', 'does_not']),
      ...Array(10).fill(['does_not', 'answers']), ...Array(15).fill(['does_not', 'does_not']),
    ];
    assert.ok(Math.abs(cohensKappa(pairs)! - 0.4) < 1e-12);
  });
  it('is null without shared examples', () => {
    assert.equal(cohensKappa([]), null);
  });
});
