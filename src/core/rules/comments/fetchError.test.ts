import { commentUnit, decidesTable } from '../testKit';
import { commentFetchError } from './fetchError';

describe('rule comments/fetch_error', () => {
  decidesTable(commentFetchError, [
    ['the host refused the diff', commentUnit({ diff: 'error', changedAround: null }), 'fetch_error'],
    ['the diff is not stored', commentUnit({ diff: 'missing', changedAround: null }), 'fetch_error'],
    ['the diff is stored', commentUnit({ diff: 'ok' }), null],
  ]);
});
