import assert from 'node:assert/strict';
import { decidesTable, evidenceOf } from '../testKit';
import { nearDuplicate } from './nearDuplicate';

describe('rule duplicates/near_duplicate', () => {
  decidesTable(nearDuplicate, [
    [
      'found as near_duplicate',
      { duplicate: { rule: 'near_duplicate', keptKey: 'openstack/1/1/10/a.py' } },
      'near_duplicate',
    ],
    ['found as another duplicate', { duplicate: { rule: 'boilerplate' } }, null],
    ['not a duplicate', { duplicate: null }, null],
  ]);
  it('records the twin and the exact Jaccard the dedup found', () => {
    assert.deepEqual(
      evidenceOf(nearDuplicate, {
        duplicate: { rule: 'near_duplicate', keptKey: 'openstack/1/1/10/a.py', jaccard: 0.9 },
      }),
      { twin: 'openstack/1/1/10/a.py', jaccard: 0.9 },
    );
  });
});
