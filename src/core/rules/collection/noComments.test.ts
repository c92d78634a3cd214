import { changeUnit, decidesTable } from '../testKit';
import { noComments } from './noComments';

describe('rule collection/no_comments', () => {
  decidesTable(noComments, [
    ['the fetch recorded no_comments', changeUnit({ collectionRule: 'no_comments' }), 'no_comments'],
    ['a fetched change', changeUnit(), null],
    ['another collection rule', changeUnit({ collectionRule: 'disallowed' }), null],
  ]);
});
