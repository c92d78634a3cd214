import assert from 'node:assert/strict';
import { commentUnit, decidesTable, evidenceOf } from '../testKit';
import { deletedOnHost } from './deletedOnHost';

describe('rule comments/deleted_on_host', () => {
  decidesTable(deletedOnHost, [
    [
      'a fetch found it deleted',
      commentUnit({ deletedOnHost: '2025-03-02T08:00:00.000Z', message: '' }),
      'deleted_on_host',
    ],
    ['served as written', commentUnit({ deletedOnHost: null }), null],
    ['stored before schema 15', commentUnit(), null],
  ]);
  it('records when the fetch found it deleted, and nothing of the notice', () => {
    assert.deepEqual(evidenceOf(deletedOnHost, commentUnit({ deletedOnHost: '2025-03-02T08:00:00.000Z' })), {
      deleted_since: '2025-03-02T08:00:00.000Z',
    });
  });
});
