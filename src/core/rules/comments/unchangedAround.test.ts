import { commentUnit, decidesTable } from '../testKit';
import { unchangedAround } from './unchangedAround';

describe('rule comments/unchanged_around', () => {
  decidesTable(unchangedAround, [
    ['nothing changed near it', commentUnit({ changedAround: false }), 'unchanged_around'],
    ['an edit near it', commentUnit({ changedAround: true }), null],
    ['no diff to decide on (left to fetch_error)', commentUnit({ changedAround: null, diff: 'missing' }), null],
  ]);
});
