import assert from 'node:assert/strict';
import { changeUnit, decidesTable, evidenceOf, testContext } from '../testKit';
import { createdBeforeStart } from './createdBeforeStart';

describe('rule collection/created_before_start', () => {
  decidesTable(createdBeforeStart, [
    ['created the day before the start', changeUnit({ created: '2024-09-30T23:59:59Z' }), 'created_before_start'],
    ['created on the start date', changeUnit({ created: '2024-10-01T00:00:00Z' }), null],
    ['created after the start', changeUnit({ created: '2025-01-15T08:00:00Z' }), null],
    ['recorded so by the fetch', changeUnit({ collectionRule: 'created_before_start' }), 'created_before_start'],
    [
      'an unreadable created time (left to fetch_error)',
      changeUnit({ created: '', fetchError: 'unreadable created time' }),
      null,
    ],
  ]);
  describe('with a later start on a rebuild', () => {
    decidesTable(
      createdBeforeStart,
      [['created before the new start', changeUnit({ created: '2024-10-15T00:00:00Z' }), 'created_before_start']],
      testContext({ start: '2024-11-01' }),
    );
  });
  it('records the created date and the start it was checked against', () => {
    assert.deepEqual(evidenceOf(createdBeforeStart, changeUnit({ created: '2024-09-30T23:59:59Z' })), {
      created: '2024-09-30',
      start: '2024-10-01',
    });
  });
});
