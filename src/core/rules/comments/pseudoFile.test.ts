import { commentUnit, decidesTable } from '../testKit';
import { pseudoFile } from './pseudoFile';

describe('rule comments/pseudo_file', () => {
  decidesTable(pseudoFile, [
    ['on the commit message', commentUnit({ path: '/COMMIT_MSG' }), 'pseudo_file'],
    ['on the patch set as a whole', commentUnit({ path: '/PATCHSET_LEVEL' }), 'pseudo_file'],
    ['on the merge list', commentUnit({ path: '/MERGE_LIST' }), 'pseudo_file'],
    ['on a file named like a pseudo-file', commentUnit({ path: 'docs/COMMIT_MSG' }), null],
    ['on a source file', commentUnit({ path: 'nova/api.py' }), null],
  ]);
});
