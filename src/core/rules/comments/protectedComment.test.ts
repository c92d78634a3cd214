import assert from 'node:assert/strict';
import { commentUnit, decidesTable, evidenceOf } from '../testKit';
import { protectedComment } from './protectedComment';

describe('rule comments/protected_comment', () => {
  const match = { set: 'codereviewer-test', id: 'r7', policy: 'comment_substring', start: 6, end: 41 };
  decidesTable(protectedComment, [
    ['its comment overlaps a reference comment', commentUnit({ protectedMatch: match }), 'protected_comment'],
    ['no overlap found', commentUnit({ protectedMatch: null }), null],
    ['never checked (comment-level decontamination off)', commentUnit(), null],
  ]);

  it('stores which reference, which policy and the matched span of the comment as its evidence', () => {
    assert.deepEqual(evidenceOf(protectedComment, commentUnit({ protectedMatch: match })), {
      reference_set: 'codereviewer-test',
      reference_id: 'r7',
      reference_field: 'comment',
      policy: 'comment_substring',
      span_start: 6,
      span_end: 41,
    });
  });
});
