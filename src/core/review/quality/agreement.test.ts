import assert from 'node:assert/strict';
import { answerAgreement, cohensKappa, quadraticKappa } from './agreement';
import type { JudgeAnswer } from '../../build/judgments/types';

const close = (actual: number | null, expected: number, what: string) => {
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${what}: ${actual} ≠ ${expected}`);
};

describe("agreement (Cohen's κ, quadratic-weighted κ)", () => {
  it("Cohen's κ: C/C, C/C, C/U, U/U → po 3/4, pe (3/4)(2/4) + (1/4)(2/4) = 1/2, κ = (3/4 − 1/2) / (1/2) = 0.5", () => {
    close(
      cohensKappa([
        ['C', 'C'],
        ['C', 'C'],
        ['C', 'U'],
        ['U', 'U'],
      ]),
      0.5,
      'κ',
    );
    assert.equal(cohensKappa([]), null);
    assert.equal(
      cohensKappa([
        ['C', 'C'],
        ['C', 'C'],
      ]),
      null,
      'chance agreement is total: undefined',
    );
  });

  it('quadratic κ: (1,1), (2,3), (3,3) → Σw·O = 1/3, Σw·E = (1/3)(4·2/3 + 1 + 4/3) = 5/3, κw = 1 − 1/5 = 0.8; unweighted 0.5', () => {
    // E: a's scores 1, 2, 3 each 1/3; b's 1 (1/3) and 3 (2/3); w = (i − j)².
    // i = 1: (2/3)·4; i = 2: (1/3)·1 + (2/3)·1; i = 3: (1/3)·4 → 8/3 + 1 + 4/3 = 5, times 1/3.
    const pairs = [
      [1, 1],
      [2, 3],
      [3, 3],
    ] as const;
    close(quadraticKappa(pairs), 0.8, 'κw');
    // po 2/3, pe (1/3)(1/3) + (1/3)(2/3) = 1/3 → (2/3 − 1/3) / (2/3) = 0.5.
    close(cohensKappa(pairs), 0.5, 'κ');
    assert.equal(
      quadraticKappa([
        [5, 5],
        [5, 5],
      ]),
      null,
    );
    // Weights on the values: a 1-vs-10 miss costs more than a 1-vs-2 one.
    assert.ok(
      quadraticKappa([
        [1, 1],
        [10, 10],
        [1, 2],
      ])! >
        quadraticKappa([
          [1, 1],
          [10, 10],
          [1, 10],
        ])!,
    );
  });
});

describe('agreement: type and nature', () => {
  it('type and nature one-vs-rest per label, with the mean of the defined ones; judge vs human on every part', () => {
    const ans = (
      type: JudgeAnswer['type'],
      nature: JudgeAnswer['nature'],
      civility: JudgeAnswer['civility'],
      relevance: number,
    ): JudgeAnswer => ({ type, nature, civility, relevance, clarity: 7, conciseness: relevance });
    const judge = new Map([
      ['k1', ans(['Refactoring'], ['Prescriptive'], 'Civil', 1)],
      ['k2', ans(['Refactoring', 'Testing'], ['Prescriptive'], 'Civil', 2)],
      ['k3', ans(['Bugfix'], ['Descriptive'], 'Civil', 3)],
      ['k4', ans(['Testing'], ['Clarification'], 'Uncivil', 3)],
      ['only-judge', ans(['Other'], ['Other'], 'Civil', 9)],
    ]);
    const human = new Map([
      ['k1', ans(['Refactoring'], ['Prescriptive'], 'Civil', 1)],
      ['k2', ans(['Refactoring'], ['Prescriptive'], 'Civil', 3)],
      ['k3', ans(['Bugfix', 'Testing'], ['Descriptive'], 'Uncivil', 3)],
      ['k4', ans(['Testing'], ['Clarification'], 'Uncivil', 3)],
    ]);
    const r = answerAgreement(judge, human, { raterA: 'model-a', raterB: 'r_human', kind: 'judge-human' });
    assert.equal(r.items, 4);
    // Refactoring: T/T T/T F/F F/F → po 1, pe 1/2 → 1. Testing: F/F T/F F/T T/T → po 1/2, pe 1/2 → 0.
    // Bugfix: F F T F vs F F T F → po 1, pe (1/4)² + (3/4)² = 10/16 → 1. Logging, Documentation, Other: never → null.
    assert.deepEqual(r.type.perLabel, {
      Refactoring: 1,
      Bugfix: 1,
      Testing: 0,
      Logging: null,
      Documentation: null,
      Other: null,
    });
    close(r.type.mean, 2 / 3, 'type mean');
    // Nature: every label agrees on every item; Other never occurs.
    assert.deepEqual(r.nature.perLabel, { Prescriptive: 1, Descriptive: 1, Clarification: 1, Other: null });
    // Civility: C/C C/C C/U U/U → 0.5 (the first test's pairs).
    close(r.civility, 0.5, 'civility');
    // Relevance (and conciseness): (1,1) (2,3) (3,3) (3,3) → po 3/4; a: 1, 2 at 1/4, 3 at 1/2; b: 1 at 1/4, 3 at 3/4;
    // pe = (1/4)(1/4) + (1/2)(3/4) = 7/16 → κ = (3/4 − 7/16) / (9/16) = 5/9.
    close(r.scores.relevance.kappa, 5 / 9, 'relevance κ');
    // Σw·O = 1/4; Σw·E: i = 1: (1/4)(3/4)·4 = 3/4; i = 2: (1/4)[(1/4)·1 + (3/4)·1] = 1/4; i = 3: (1/2)(1/4)·4 = 1/2 → 3/2.
    // κw = 1 − (1/4) / (3/2) = 5/6.
    close(r.scores.relevance.quadratic, 5 / 6, 'relevance κw');
    assert.deepEqual(r.scores.conciseness, r.scores.relevance);
    assert.deepEqual(r.scores.clarity, { kappa: null, quadratic: null }, 'clarity always 7: undefined, not 1');
  });
});
