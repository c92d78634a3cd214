import { commentUnit, decidesTable } from '../testKit';
import { ownAuthor } from './ownAuthor';

describe('rule comments/own_author', () => {
  decidesTable(ownAuthor, [
    ['written by the owner', commentUnit({ author: 'p-owner', owner: 'p-owner' }), 'own_author'],
    ['written by a reviewer', commentUnit({ author: 'p-rev', owner: 'p-owner' }), null],
    ['author unknown', commentUnit({ author: null, owner: null }), null],
  ]);
});
