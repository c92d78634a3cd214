import assert from 'node:assert/strict';
import { commentUnit, decidesTable, evidenceOf, testContext } from '../testKit';
import { irrelevantComment } from './irrelevantComment';

describe('rule comments/irrelevant_comment', () => {
  const judged = (relevance: number, below = 4) => commentUnit({ judgeRelevance: { relevance, below, model: 'm' } });
  decidesTable(irrelevantComment, [
    ['relevance 1', judged(1), 'irrelevant_comment'],
    ['relevance 3, just below the default threshold', judged(3), 'irrelevant_comment'],
    ['relevance 4, at the threshold', judged(4), null],
    ['relevance 10', judged(10), null],
    ['a stricter threshold', judged(5, 6), 'irrelevant_comment'],
    ['no judgment (unjudged, or the rule off)', commentUnit(), null],
    ['null judgment', commentUnit({ judgeRelevance: null }), null],
  ]);
  it('names the score, the threshold and the model', () => {
    assert.deepEqual(evidenceOf(irrelevantComment, judged(2), testContext()), { relevance: 2, below: 4, model: 'm' });
  });
});
