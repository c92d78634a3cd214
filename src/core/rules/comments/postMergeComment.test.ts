import assert from 'node:assert/strict';
import { commentUnit, decidesTable, evidenceOf } from '../testKit';
import { postMergeComment } from './postMergeComment';

describe('rule comments/post_merge_comment', () => {
  const merged = '2025-01-04T10:00:00.000Z';
  decidesTable(postMergeComment, [
    [
      'written a month after the merge',
      commentUnit({ written: '2025-02-04T09:00:00.000Z', changeMerged: merged }),
      'post_merge_comment',
    ],
    [
      'written a millisecond after the merge',
      commentUnit({ written: '2025-01-04T10:00:00.001Z', changeMerged: merged }),
      'post_merge_comment',
    ],
    ['written before the merge', commentUnit({ written: '2025-01-02T12:00:00.000Z', changeMerged: merged }), null],
    ['written at the merge itself', commentUnit({ written: merged, changeMerged: merged }), null],
    ['the merge time was not recorded', commentUnit({ written: '2025-02-04T09:00:00.000Z', changeMerged: null }), null],
    ['the comment time was not recorded', commentUnit({ written: null, changeMerged: merged }), null],
  ]);
  it('records both times', () => {
    assert.deepEqual(
      evidenceOf(postMergeComment, commentUnit({ written: '2025-02-04T09:00:00.000Z', changeMerged: merged })),
      {
        written: '2025-02-04T09:00:00.000Z',
        merged,
      },
    );
  });
});
