import { decidesTable, exampleUnit } from '../testKit';
import { appliedFix } from './appliedFix';

describe('rule examples/applied_fix', () => {
  decidesTable(appliedFix, [
    [
      'the owner\'s "Fix applied." reply (removed as own_author)',
      exampleUnit({
        comments: [
          { message: 'use a set', removedBy: null },
          { message: 'Fix applied.', removedBy: 'own_author' },
        ],
      }),
      'applied_fix',
    ],
    [
      'with surrounding whitespace',
      exampleUnit({ comments: [{ message: 'Fix applied.\n', removedBy: null }] }),
      'applied_fix',
    ],
    [
      'said in a sentence',
      exampleUnit({ comments: [{ message: 'Fix applied. Also renamed foo.', removedBy: null }] }),
      null,
    ],
    ['lower case', exampleUnit({ comments: [{ message: 'fix applied.', removedBy: null }] }), null],
  ]);
});
