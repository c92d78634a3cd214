import assert from 'node:assert/strict';
import { DEFAULT_RULES } from '../ruleParameters';
import { commentUnit, decidesTable, evidenceOf, testContext } from '../testKit';
import { unchangedAround } from './unchangedAround';

describe('rule comments/unchanged_around', () => {
  decidesTable(unchangedAround, [
    ['nothing changed near it', commentUnit({ changedAround: false }), 'unchanged_around'],
    ['an edit near it', commentUnit({ changedAround: true }), null],
    ['no diff to decide on (left to fetch_error)', commentUnit({ changedAround: null, diff: 'missing' }), null],
  ]);
  it('records the window it checked: the commented lines widened by aroundLines, from line 1 at the least', () => {
    const ctx = testContext({ rules: { ...DEFAULT_RULES, aroundLines: 3 } });
    assert.deepEqual(evidenceOf(unchangedAround, commentUnit({ line: 10, changedAround: false }), ctx), {
      from: 7,
      to: 13,
    });
    // A range ending at character 0 of line 12 covers lines 8 to 11.
    assert.deepEqual(
      evidenceOf(
        unchangedAround,
        commentUnit({ line: 12, startLine: 8, endLine: 12, endCharacter: 0, changedAround: false }),
        ctx,
      ),
      { from: 5, to: 14 },
    );
    assert.deepEqual(evidenceOf(unchangedAround, commentUnit({ line: 2, changedAround: false }), ctx), {
      from: 1,
      to: 5,
    });
    assert.deepEqual(
      evidenceOf(unchangedAround, commentUnit({ line: 10, changedAround: false, diff: 'unchanged' }), ctx),
      { from: 7, to: 13, fileUnchanged: true },
    );
  });
});
