import { decidesTable } from '../testKit';
import { exactDuplicate } from './exactDuplicate';

describe('rule duplicates/exact_duplicate', () => {
  decidesTable(exactDuplicate, [
    ['found as exact_duplicate', { duplicate: { rule: 'exact_duplicate', keptKey: 'openstack/1/1/10/a.py' } }, 'exact_duplicate'],
    ['found as another duplicate', { duplicate: { rule: 'near_duplicate' } }, null],
    ['not a duplicate', { duplicate: null }, null],
  ]);
});
