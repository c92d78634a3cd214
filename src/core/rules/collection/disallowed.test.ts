import { changeUnit, decidesTable } from '../testKit';
import { disallowed } from './disallowed';

describe('rule collection/disallowed', () => {
  decidesTable(disallowed, [
    ['robots.txt disallowed it', changeUnit({ collectionRule: 'disallowed' }), 'disallowed'],
    ['a fetched change', changeUnit(), null],
  ]);
});
