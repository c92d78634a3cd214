import assert from 'node:assert/strict';
import { decidesTable, evidenceOf, hunkUnit } from '../testKit';
import { oneSided } from './oneSided';

describe('rule hunks/one_sided', () => {
  decidesTable(oneSided, [
    [
      'a pure addition (context on both sides)',
      hunkUnit({ beforeLines: 6, afterLines: 8, editLinesBefore: 0, editLinesAfter: 2 }),
      'one_sided',
    ],
    [
      'a pure deletion',
      hunkUnit({ beforeLines: 8, afterLines: 6, editLinesBefore: 2, editLinesAfter: 0 }),
      'one_sided',
    ],
    ['a replacement', hunkUnit({ editLinesBefore: 1, editLinesAfter: 1 }), null],
  ]);
  it("records the edit's line counts", () => {
    assert.deepEqual(evidenceOf(oneSided, hunkUnit({ editLinesBefore: 0, editLinesAfter: 2 })), {
      editBefore: 0,
      editAfter: 2,
    });
  });
});
