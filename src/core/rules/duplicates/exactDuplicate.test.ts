import assert from 'node:assert/strict';
import { decidesTable, evidenceOf } from '../testKit';
import { exactDuplicate } from './exactDuplicate';

describe('rule duplicates/exact_duplicate', () => {
  decidesTable(exactDuplicate, [
    [
      'found as exact_duplicate',
      { duplicate: { rule: 'exact_duplicate', keptKey: 'openstack/1/1/10/a.py' } },
      'exact_duplicate',
    ],
    ['found as another duplicate', { duplicate: { rule: 'near_duplicate' } }, null],
    ['not a duplicate', { duplicate: null }, null],
  ]);
  it('records the twin, and Jaccard 1 (identical normalised text has the identical shingle set)', () => {
    assert.deepEqual(
      evidenceOf(exactDuplicate, {
        duplicate: { rule: 'exact_duplicate', keptKey: 'openstack/1/1/10/a.py', jaccard: 1 },
      }),
      { twin: 'openstack/1/1/10/a.py', jaccard: 1 },
    );
  });
});
