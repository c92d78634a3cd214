import assert from 'node:assert/strict';
import { allocate } from './auditSample';

describe('audit sample allocation (largest remainder)', () => {
  it('allocates in proportion, the seats left to the largest remainders', () => {
    // N = 2 + 6 + 3 = 11, size 5: quotas 10/11, 30/11, 15/11 → floors 0, 2, 1 (3 seats);
    // remainders 10, 8, 4 (of 11) → the 2 seats left go to the first two: 1, 3, 1.
    assert.deepEqual(allocate([2, 6, 3], 5), [1, 3, 1]);
  });
  it('breaks equal remainders by the larger stratum, then the earlier one', () => {
    // [1, 1, 1], size 2: quotas 2/3 each, floors 0, remainders equal, strata equal → the first two.
    assert.deepEqual(allocate([1, 1, 1], 2), [1, 1, 0]);
    // [2, 1, 1], size 2 (N 4): quotas 1, 0.5, 0.5 → floors 1, 0, 0; remainders 0, 2, 2 → the earlier of the equals.
    assert.deepEqual(allocate([2, 1, 1], 2), [1, 1, 0]);
  });
  it('takes every example when the size is the population or more, and always sums to the size', () => {
    assert.deepEqual(allocate([2, 6, 3], 11), [2, 6, 3]);
    assert.deepEqual(allocate([2, 6, 3], 383), [2, 6, 3]);
    const pops = [4322, 515, 532, 897, 120, 1];
    for (const size of [1, 7, 383, 1000]) {
      const a = allocate(pops, size);
      assert.equal(
        a.reduce((x, y) => x + y, 0),
        size,
      );
      a.forEach((n, i) => assert.ok(n <= pops[i] && n >= Math.floor((size * pops[i]) / 6387)));
    }
  });
});
