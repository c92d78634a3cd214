import { changeUnit, decidesTable } from '../testKit';
import { notMerged } from './notMerged';

describe('rule collection/not_merged', () => {
  decidesTable(notMerged, [
    ['status MERGED', changeUnit({ status: 'MERGED' }), null],
    ['status NEW, although the query asked for merged changes', changeUnit({ status: 'NEW' }), 'not_merged'],
    ['status ABANDONED', changeUnit({ status: 'ABANDONED' }), 'not_merged'],
    ['status not stored (fetched before it was kept): cannot be decided, so kept', changeUnit({ status: null }), null],
    ['recorded so by the fetch', changeUnit({ status: null, collectionRule: 'not_merged' }), 'not_merged'],
  ]);
});
