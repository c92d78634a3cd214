import { commentUnit, decidesTable } from '../testKit';
import { noSuccessor } from './noSuccessor';

describe('rule comments/no_successor', () => {
  decidesTable(noSuccessor, [
    ['on the last patch set', commentUnit({ hasNextPatchSet: false }), 'no_successor'],
    ['patch set unknown', commentUnit({ patchSet: null }), 'no_successor'],
    ['a later patch set exists', commentUnit({ patchSet: 2, hasNextPatchSet: true }), null],
  ]);
});
