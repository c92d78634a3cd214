import assert from 'node:assert/strict';
import { decidesTable, testContext } from '../testKit';
import { protectedOverlap } from './protectedOverlap';

describe('rule decontamination/protected_overlap', () => {
  const overlap = {
    set: 'codereviewer-test',
    id: 'r7',
    referenceField: 'after' as const,
    policy: 'side_substring',
    side: 'before' as const,
    start: 4,
    end: 19,
  };
  decidesTable(protectedOverlap, [
    ['found overlapping a reference', { overlap }, 'protected_overlap'],
    ['no overlap found', { overlap: null }, null],
  ]);

  it('stores which reference, which policy and the matched span as its evidence', () => {
    assert.deepEqual(protectedOverlap.decide({ overlap }, testContext())?.evidence, {
      reference_set: 'codereviewer-test',
      reference_id: 'r7',
      reference_field: 'after',
      policy: 'side_substring',
      side: 'before',
      span_start: 4,
      span_end: 19,
    });
    const comment = protectedOverlap.decide(
      {
        overlap: {
          ...overlap,
          side: 'comment',
          commentId: 'c1',
          policy: 'comment_substring',
          referenceField: 'comment',
        },
      },
      testContext(),
    );
    assert.equal(comment?.evidence?.comment, 'c1');
  });
});
