import assert from 'node:assert/strict';
import { changeUnit, decidesTable, evidenceOf } from '../testKit';
import { goneFromHost } from './goneFromHost';

describe('rule collection/gone_from_host', () => {
  const gone = { at: '2025-03-02T08:00:00.000Z', status: 'HTTP 404' };
  decidesTable(goneFromHost, [
    ['a request of its own answered 404', changeUnit({ goneFromHost: gone }), 'gone_from_host'],
    ['the host still serves it', changeUnit({ goneFromHost: null }), null],
    ['never checked (stored before schema 15)', changeUnit(), null],
  ]);
  it('records when it was found gone and what the host answered', () => {
    assert.deepEqual(evidenceOf(goneFromHost, changeUnit({ goneFromHost: gone })), {
      gone_since: '2025-03-02T08:00:00.000Z',
      answered: 'HTTP 404',
    });
  });
});
