import { commentUnit, decidesTable } from '../testKit';
import { noLine } from './noLine';

describe('rule comments/no_line', () => {
  decidesTable(noLine, [
    ['a file comment without a line', commentUnit({ line: null }), 'no_line'],
    ['a file comment sent with line 0', commentUnit({ line: 0 }), 'no_line'],
    ['a line comment', commentUnit({ line: 12 }), null],
    ['a range comment', commentUnit({ line: null, startLine: 3, endLine: 5 }), null],
  ]);
});
