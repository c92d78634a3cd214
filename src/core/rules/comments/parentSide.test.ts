import { commentUnit, decidesTable } from '../testKit';
import { parentSide } from './parentSide';

describe('rule comments/parent_side', () => {
  decidesTable(parentSide, [
    ['on the parent side', commentUnit({ side: 'PARENT' }), 'parent_side'],
    ['on the revision side', commentUnit({ side: 'REVISION' }), null],
    ['side not given (Gerrit omits REVISION)', commentUnit({ side: null }), null],
  ]);
});
