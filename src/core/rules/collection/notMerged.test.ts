import assert from 'node:assert/strict';
import { changeUnit, decidesTable, evidenceOf } from '../testKit';
import { notMerged } from './notMerged';

describe('rule collection/not_merged', () => {
  decidesTable(notMerged, [
    ['status MERGED', changeUnit({ status: 'MERGED' }), null],
    ['status NEW, although the query asked for merged changes', changeUnit({ status: 'NEW' }), 'not_merged'],
    ['status ABANDONED', changeUnit({ status: 'ABANDONED' }), 'not_merged'],
    ['status not stored (fetched before it was kept): cannot be decided, so kept', changeUnit({ status: null }), null],
    ['recorded so by the fetch', changeUnit({ status: null, collectionRule: 'not_merged' }), 'not_merged'],
  ]);
  it('records the stored status (null when the fetch recorded the rule before status was kept)', () => {
    assert.deepEqual(evidenceOf(notMerged, changeUnit({ status: 'ABANDONED' })), { status: 'ABANDONED' });
    assert.deepEqual(evidenceOf(notMerged, changeUnit({ status: null, collectionRule: 'not_merged' })), {
      status: null,
    });
  });
});
