import { decidesTable, exampleUnit } from '../testKit';
import { manualFlag } from './manualFlag';

describe('rule examples/manual_flag', () => {
  decidesTable(manualFlag, [
    ['a confirmed flag', exampleUnit({ flagConfirmed: true }), 'manual_flag'],
    ['no confirmed flag', exampleUnit({ flagConfirmed: false }), null],
  ]);
});
