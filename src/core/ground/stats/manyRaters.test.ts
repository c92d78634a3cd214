import assert from 'node:assert/strict';
import { countTable, fleissKappa, krippendorffAlpha } from './manyRaters';
import { mulberry32, quantile, seedOf, withIntervals } from './bootstrap';

const printed = (actual: number | null, digits: number) => (actual === null ? 'null' : actual.toFixed(digits));

// Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological Bulletin
// 76(5), 378–382, Table 1: 30 patients, each diagnosed by 6 psychiatrists into 5 categories (as the R
// package irr ships it, `diagnoses`). The paper prints κ = .430 and, per category, κ_j = .245 (depression),
// .245 (personality disorder), .520 (schizophrenia), .471 (neurosis), .566 (other).
const FLEISS_1971: string[] = [
  'NNNNNN',
  'PPPOOO',
  'PSSSSO',
  'OOOOOO',
  'PPPNNN',
  'DDSSSS',
  'SSSSOO',
  'DDSSSN',
  'DDNNNN',
  'OOOOOO',
  'DNNNNN',
  'DPNNNN',
  'PPPSSS',
  'DNNNNN',
  'PPNNNO',
  'SSSSSO',
  'DDDNOO',
  'DDDDDP',
  'PPNNNN',
  'DSSOOO',
  'OOOOOO',
  'PNNNNN',
  'PPNOOO',
  'DDNNNN',
  'DNNNNO',
  'PPPPPN',
  'DDDDOO',
  'PPNNNN',
  'DSSSSS',
  'OOOOOO',
];
const DIAGNOSES = ['D', 'P', 'S', 'N', 'O']; // depression, personality disorder, schizophrenia, neurosis, other

// Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Departmental Papers (ASC),
// University of Pennsylvania, https://repository.upenn.edu/asc_papers/43. Observers × units; undefined:
// the observer did not rate the unit.
const _ = undefined;
/** Section A, binary data, two observers, no missing data: α = 0.095. */
const KRIPPENDORFF_A = [
  [0, 1, 0, 0, 0, 0, 0, 0, 1, 0],
  [1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
];
/** Section B, nominal data, two observers, no missing data: α = 0.692. */
const KRIPPENDORFF_B = [
  ['a', 'a', 'b', 'b', 'd', 'c', 'c', 'c', 'e', 'd', 'd', 'a'],
  ['b', 'a', 'b', 'b', 'b', 'c', 'c', 'c', 'e', 'd', 'd', 'd'],
];
/** Sections C to E, four observers, twelve units, missing data: nominal α = 0.743, ordinal 0.815, interval 0.849. */
const KRIPPENDORFF_C = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
];

/** Observers × units → per unit, the observers' ratings. */
const byUnit = <V>(observers: readonly (readonly (V | undefined)[])[]) =>
  observers[0].map((_, u) => observers.map((o) => o[u]));

describe("agreement among many raters (Fleiss' κ, Krippendorff's α)", () => {
  it('Fleiss (1971), Table 1: κ = .430; κ_j = .245, .245, .520, .471, .566', () => {
    const counts = countTable(
      FLEISS_1971.map((row) => [...row]),
      DIAGNOSES,
    );
    const r = fleissKappa(counts);
    assert.equal(printed(r.kappa, 3), '0.430');
    assert.deepEqual(
      r.perValue.map((k) => printed(k, 3)),
      ['0.245', '0.245', '0.520', '0.471', '0.566'],
    );
    assert.equal(r.items, 30);
  });

  it('Krippendorff (2011), A: binary, two observers: α = 0.095', () => {
    const counts = countTable(byUnit(KRIPPENDORFF_A), [0, 1]);
    assert.equal(printed(krippendorffAlpha(counts, 'nominal'), 3), '0.095');
  });

  it('Krippendorff (2011), B: nominal, two observers: α = 0.692', () => {
    const counts = countTable(byUnit(KRIPPENDORFF_B), ['a', 'b', 'c', 'd', 'e']);
    assert.equal(printed(krippendorffAlpha(counts, 'nominal'), 3), '0.692');
  });

  it('Krippendorff (2011), C–E: four observers, missing data: nominal 0.743, ordinal 0.815, interval 0.849', () => {
    const values = [1, 2, 3, 4, 5];
    const counts = countTable(byUnit(KRIPPENDORFF_C), values);
    assert.equal(printed(krippendorffAlpha(counts, 'nominal'), 3), '0.743');
    assert.equal(printed(krippendorffAlpha(counts, 'ordinal', values), 3), '0.815');
    assert.equal(printed(krippendorffAlpha(counts, 'interval', values), 3), '0.849');
    // The values' order is what ordinal reads, not their numbers; a value nobody gave changes nothing.
    assert.equal(
      krippendorffAlpha(countTable(byUnit(KRIPPENDORFF_C), [5, 4, 3, 2, 1]), 'ordinal', [50, 40, 30, 20, 10]),
      krippendorffAlpha(counts, 'ordinal', values),
    );
    const withGap = countTable(byUnit(KRIPPENDORFF_C), [1, 2, 3, 4, 5, 6]);
    assert.equal(
      printed(krippendorffAlpha(withGap, 'ordinal', [1, 2, 3, 4, 5, 6]), 12),
      printed(krippendorffAlpha(counts, 'ordinal', values), 12),
    );
  });

  it("two raters with every rating: Fleiss κ is Scott's π, the same as nominal α up to the small-sample term", () => {
    // α = 1 − (n − 1) D_o / D_e and π = 1 − D_o / D_e' differ only by n/(n − 1) in chance disagreement.
    const counts = countTable(byUnit(KRIPPENDORFF_B), ['a', 'b', 'c', 'd', 'e']);
    const kappa = fleissKappa(counts).kappa!;
    const alpha = krippendorffAlpha(counts, 'nominal')!;
    const n = 24;
    assert.ok(Math.abs(1 - alpha - ((1 - kappa) * (n - 1)) / n) < 1e-12, `${kappa} ${alpha}`);
  });

  it('undefined figures are null, items with fewer than two ratings count in neither', () => {
    assert.deepEqual(fleissKappa([]), { kappa: null, perValue: [], items: 0 });
    const same = countTable(
      [
        ['x', 'x'],
        ['x', 'x', undefined],
      ],
      ['x', 'y'],
    );
    assert.equal(fleissKappa(same).kappa, null, 'no variation');
    assert.deepEqual(fleissKappa(same).perValue, [null, null]);
    assert.equal(krippendorffAlpha(same, 'nominal'), null);
    const lone = countTable([['x'], ['y', undefined]], ['x', 'y']);
    assert.equal(fleissKappa(lone).items, 0);
    assert.equal(krippendorffAlpha(lone, 'nominal'), null);
    const withLone = countTable([...byUnit(KRIPPENDORFF_C), [4, _, _, _]], [1, 2, 3, 4, 5]);
    assert.equal(
      krippendorffAlpha(withLone, 'nominal'),
      krippendorffAlpha(countTable(byUnit(KRIPPENDORFF_C), [1, 2, 3, 4, 5]), 'nominal'),
    );
    assert.throws(() => countTable([['z']], ['x']), /not one of the values/);
    assert.throws(() => krippendorffAlpha(same, 'interval', [1]), /a number for each value/);
  });
});

describe('seeded bootstrap', () => {
  it('mulberry32 from an FNV-1a seed: the same seed, the same draws', () => {
    assert.equal(seedOf(''), 0x811c9dc5);
    assert.equal(seedOf('a'), 0xe40c292c); // FNV-1a 32 of "a"
    const a = mulberry32(seedOf('s'));
    const b = mulberry32(seedOf('s'));
    const xs = Array.from({ length: 5 }, () => a());
    assert.deepEqual(
      xs,
      Array.from({ length: 5 }, () => b()),
    );
    assert.ok(xs.every((x) => x >= 0 && x < 1));
  });

  it('quantile type 7 and a percentile interval that holds the estimate', () => {
    assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
    assert.equal(quantile([10], 0.975), 10);
    const counts = countTable(
      FLEISS_1971.map((row) => [...row]),
      DIAGNOSES,
    );
    const fig = (rows: readonly number[][]) => [fleissKappa(rows).kappa, krippendorffAlpha(rows, 'nominal')];
    const [kappa, alpha] = withIntervals(counts, fig, 'seed');
    const again = withIntervals(counts, fig, 'seed');
    assert.deepEqual(again, [kappa, alpha], 'seeded: the same interval every time');
    assert.notDeepEqual(withIntervals(counts, fig, 'other'), [kappa, alpha]);
    for (const f of [kappa, alpha]) {
      assert.ok(f.interval && f.interval.low < f.value! && f.value! < f.interval.high, JSON.stringify(f));
      assert.equal(f.interval.resamples, 1000);
    }
    const none = withIntervals([[2, 0]], fig, 'seed');
    assert.deepEqual(none, [
      { value: null, interval: null },
      { value: null, interval: null },
    ]);
  });
});
