import { decidesTable } from '../testKit';
import { boilerplate } from './boilerplate';

describe('rule duplicates/boilerplate', () => {
  decidesTable(boilerplate, [
    ['found as boilerplate', { duplicate: { rule: 'boilerplate', keptKey: 'openstack/1/1/10/a.py' } }, 'boilerplate'],
    ['found as another duplicate', { duplicate: { rule: 'same_change' } }, null],
    ['not a duplicate', { duplicate: null }, null],
  ]);
});
