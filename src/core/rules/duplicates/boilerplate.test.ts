import assert from 'node:assert/strict';
import { decidesTable, evidenceOf } from '../testKit';
import { boilerplate } from './boilerplate';

describe('rule duplicates/boilerplate', () => {
  decidesTable(boilerplate, [
    ['found as boilerplate', { duplicate: { rule: 'boilerplate', keptKey: 'openstack/1/1/10/a.py' } }, 'boilerplate'],
    ['found as another duplicate', { duplicate: { rule: 'same_change' } }, null],
    ['not a duplicate', { duplicate: null }, null],
  ]);
  it("records the shared before-hunk's SHA-256 and how many changes carry it", () => {
    const sha256 = 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=';
    assert.deepEqual(
      evidenceOf(boilerplate, { duplicate: { rule: 'boilerplate', boilerplate: { sha256, changes: 6 } } }),
      { sha256, changes: 6 },
    );
  });
});
