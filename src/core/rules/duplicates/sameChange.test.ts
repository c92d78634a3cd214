import assert from 'node:assert/strict';
import { decidesTable, evidenceOf } from '../testKit';
import { sameChange } from './sameChange';

describe('rule duplicates/same_change', () => {
  decidesTable(sameChange, [
    ['found as same_change', { duplicate: { rule: 'same_change', keptKey: 'openstack/1/1/10/a.py' } }, 'same_change'],
    ['found as another duplicate', { duplicate: { rule: 'exact_duplicate' } }, null],
    ['not a duplicate', { duplicate: null }, null],
  ]);
  it('records the twin it duplicates', () => {
    assert.deepEqual(evidenceOf(sameChange, { duplicate: { rule: 'same_change', keptKey: 'openstack/1/1/10/a.py' } }), {
      twin: 'openstack/1/1/10/a.py',
    });
  });
});
