import assert from 'node:assert/strict';
import { qualityRaterAgreement, type QualityAgreementInput } from './qualityRaterAgreement';
import { fleissKappa, krippendorffAlpha } from '../../ground/stats/manyRaters';
import type { JudgeAnswer } from '../../build/judgments/types';

const answer = (
  civility: 'Civil' | 'Uncivil',
  relevance: number,
  type: JudgeAnswer['type'] = ['Bugfix'],
): JudgeAnswer => ({
  type,
  nature: ['Prescriptive'],
  civility,
  relevance,
  clarity: 7,
  conciseness: 7,
});

// Three comments: c1 and c2 in window train, c3 kept in no window of the build (all windows only).
// Two humans and a model; the second human did not rate c3 (a missing rating).
const INPUT: QualityAgreementInput = {
  windows: [
    ['o/1/c1', 'train'],
    ['o/1/c2', 'train'],
  ],
  raters: [
    {
      name: 'r_a',
      kind: 'human',
      answers: [
        ['o/1/c1', answer('Civil', 8)],
        ['o/1/c2', answer('Uncivil', 2)],
        ['o/1/c3', answer('Civil', 5)],
      ],
    },
    {
      name: 'r_b',
      kind: 'human',
      answers: [
        ['o/1/c1', answer('Civil', 7)],
        ['o/1/c2', answer('Civil', 3, ['Testing'])],
      ],
    },
    {
      name: 'm',
      kind: 'model',
      answers: [
        ['o/1/c1', answer('Civil', 8)],
        ['o/1/c2', answer('Uncivil', 1)],
        ['o/1/c3', answer('Civil', 5)],
      ],
    },
  ],
};

describe('quality agreement among all raters', () => {
  const r = qualityRaterAgreement(INPUT);
  const figures = (scope: number, label: string, group: string) =>
    r.scopes[scope].labels.find((l) => l.label === label)!.groups.find((g) => g.raters === group)!;

  it('per window, per label, humans, models and both; a comment outside the build only in all windows', () => {
    assert.deepEqual(
      r.scopes.map((s) => [s.all_windows, s.window, s.items]),
      [
        [true, null, 3],
        [false, 'train', 2],
      ],
    );
    assert.deepEqual(
      r.scopes[0].labels.map((l) => l.label),
      [
        'civility',
        'type Refactoring',
        'type Bugfix',
        'type Testing',
        'type Logging',
        'type Documentation',
        'type Other',
        'nature Prescriptive',
        'nature Descriptive',
        'nature Clarification',
        'nature Other',
        'relevance',
        'clarity',
        'conciseness',
      ],
    );
  });

  it('civility among all three, the missing rating left out: the same as Fleiss on the hand-counted table', () => {
    const all = figures(0, 'civility', 'all');
    // [Civil, Uncivil]: c1 3 civil; c2 1 civil, 2 uncivil; c3 2 civil (r_b missing).
    const table = [
      [3, 0],
      [1, 2],
      [2, 0],
    ];
    assert.equal(all.rater_count, 3);
    assert.equal(all.items, 3);
    assert.equal(all.fleiss_kappa.value, fleissKappa(table).kappa);
    assert.equal(all.alpha.nominal!.value, krippendorffAlpha(table, 'nominal'));
    assert.equal(figures(0, 'civility', 'models').fleiss_kappa.value, null, 'one model: no pair');
    assert.equal(figures(0, 'civility', 'humans').items, 2, 'r_b did not rate c3');
  });

  it('scores: ordinal and interval α over 1..10, and Fleiss κ treating each score as a category', () => {
    const humans = figures(0, 'relevance', 'humans');
    // c1: 8 and 7; c2: 2 and 3.
    const table = [
      [0, 0, 0, 0, 0, 0, 1, 1, 0, 0],
      [0, 1, 1, 0, 0, 0, 0, 0, 0, 0],
    ];
    const scale = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    assert.equal(humans.alpha.ordinal!.value, krippendorffAlpha(table, 'ordinal', scale));
    assert.equal(humans.alpha.interval!.value, krippendorffAlpha(table, 'interval', scale));
    assert.ok(humans.alpha.interval!.value! > 0.9, 'near scores agree on an interval scale');
    assert.ok(humans.fleiss_kappa.value! < 0, 'and not as categories');
    assert.equal(humans.alpha.nominal, undefined);
  });

  it('is the same on every run (seeded), and has no scope without ratings', () => {
    assert.deepEqual(qualityRaterAgreement(INPUT), r);
    assert.deepEqual(qualityRaterAgreement({ windows: [], raters: [] }).scopes, []);
  });
});
