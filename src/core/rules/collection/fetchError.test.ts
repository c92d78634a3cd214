import { changeUnit, decidesTable } from '../testKit';
import { changeFetchError } from './fetchError';

describe('rule collection/fetch_error', () => {
  decidesTable(changeFetchError, [
    ['the fetch recorded fetch_error', changeUnit({ collectionRule: 'fetch_error' }), 'fetch_error'],
    ['an error message is stored', changeUnit({ fetchError: 'HTTP 500' }), 'fetch_error'],
    ['a fetched change', changeUnit(), null],
  ]);
});
