import assert from 'node:assert/strict';
import { commentUnit, decidesTable, evidenceOf } from '../testKit';
import { commentFetchError } from './fetchError';

describe('rule comments/fetch_error', () => {
  decidesTable(commentFetchError, [
    ['the host refused the diff', commentUnit({ diff: 'error', changedAround: null }), 'fetch_error'],
    ['the diff is not stored', commentUnit({ diff: 'missing', changedAround: null }), 'fetch_error'],
    ['the diff is stored', commentUnit({ diff: 'ok' }), null],
  ]);
  it('records what became of the diff', () => {
    assert.deepEqual(evidenceOf(commentFetchError, commentUnit({ diff: 'error', changedAround: null })), {
      diff: 'error',
    });
  });
});
