import assert from 'node:assert/strict';
import { changeUnit, decidesTable, evidenceOf } from '../testKit';
import { changeFetchError } from './fetchError';

describe('rule collection/fetch_error', () => {
  decidesTable(changeFetchError, [
    ['the fetch recorded fetch_error', changeUnit({ collectionRule: 'fetch_error' }), 'fetch_error'],
    ['an error message is stored', changeUnit({ fetchError: 'HTTP 500' }), 'fetch_error'],
    ['a fetched change', changeUnit(), null],
  ]);
  it('records the stored error, and nothing when only the rule was recorded', () => {
    assert.deepEqual(evidenceOf(changeFetchError, changeUnit({ fetchError: 'HTTP 500' })), { error: 'HTTP 500' });
    assert.equal(evidenceOf(changeFetchError, changeUnit({ collectionRule: 'fetch_error' })), undefined);
  });
});
