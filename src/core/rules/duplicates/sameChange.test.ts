import { decidesTable } from '../testKit';
import { sameChange } from './sameChange';

describe('rule duplicates/same_change', () => {
  decidesTable(sameChange, [
    ['found as same_change', { duplicate: { rule: 'same_change', keptKey: 'openstack/1/1/10/a.py' } }, 'same_change'],
    ['found as another duplicate', { duplicate: { rule: 'exact_duplicate' } }, null],
    ['not a duplicate', { duplicate: null }, null],
  ]);
});
