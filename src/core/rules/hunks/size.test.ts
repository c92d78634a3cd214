import { DEFAULT_RULES } from '../ruleParameters';
import assert from 'node:assert/strict';
import { decidesTable, evidenceOf, hunkUnit, testContext } from '../testKit';
import { size } from './size';

describe('rule hunks/size', () => {
  const ctx = testContext({ rules: { ...DEFAULT_RULES, maxLinesPerSide: 10, maxGrowthRatio: 3 } });
  decidesTable(
    size,
    [
      [
        'before side over the limit, context included',
        hunkUnit({ beforeLines: 11, afterLines: 7, editLinesBefore: 5, editLinesAfter: 2 }),
        'size',
      ],
      [
        'after side over the limit',
        hunkUnit({ beforeLines: 7, afterLines: 11, editLinesBefore: 2, editLinesAfter: 5 }),
        'size',
      ],
      [
        'exactly at the limit',
        hunkUnit({ beforeLines: 10, afterLines: 10, editLinesBefore: 4, editLinesAfter: 4 }),
        null,
      ],
      [
        'edit grew 1 → 4 (ratio 4 > 3)',
        hunkUnit({ beforeLines: 7, afterLines: 10, editLinesBefore: 1, editLinesAfter: 4 }),
        'size',
      ],
      [
        'edit shrank 4 → 1',
        hunkUnit({ beforeLines: 10, afterLines: 7, editLinesBefore: 4, editLinesAfter: 1 }),
        'size',
      ],
      [
        'edit grew 1 → 3 (ratio exactly 3)',
        hunkUnit({ beforeLines: 7, afterLines: 9, editLinesBefore: 1, editLinesAfter: 3 }),
        null,
      ],
      [
        'a 1 → 1 edit in long context',
        hunkUnit({ beforeLines: 9, afterLines: 9, editLinesBefore: 1, editLinesAfter: 1 }),
        null,
      ],
    ],
    ctx,
  );
  it('records the line counts and the limit they broke', () => {
    assert.deepEqual(
      evidenceOf(size, hunkUnit({ beforeLines: 11, afterLines: 7, editLinesBefore: 5, editLinesAfter: 2 }), ctx),
      { before: 11, after: 7, max: 10 },
    );
    assert.deepEqual(
      evidenceOf(size, hunkUnit({ beforeLines: 7, afterLines: 10, editLinesBefore: 1, editLinesAfter: 4 }), ctx),
      { editBefore: 1, editAfter: 4, maxRatio: 3 },
    );
  });
});
