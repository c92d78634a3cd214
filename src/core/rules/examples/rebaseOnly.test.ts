import assert from 'node:assert/strict';
import { decidesTable, evidenceOf, exampleUnit } from '../testKit';
import { rebaseOnly } from './rebaseOnly';

describe('rule examples/rebase_only', () => {
  const kind = (kindAfter: string | null) => exampleUnit({ kindAfter });
  decidesTable(rebaseOnly, [
    ['TRIVIAL_REBASE', kind('TRIVIAL_REBASE'), 'rebase_only'],
    ['TRIVIAL_REBASE_WITH_MESSAGE_UPDATE', kind('TRIVIAL_REBASE_WITH_MESSAGE_UPDATE'), 'rebase_only'],
    ['MERGE_FIRST_PARENT_UPDATE', kind('MERGE_FIRST_PARENT_UPDATE'), 'rebase_only'],
    ['NO_CODE_CHANGE', kind('NO_CODE_CHANGE'), 'rebase_only'],
    ['NO_CHANGE', kind('NO_CHANGE'), 'rebase_only'],
    ['REWORK', kind('REWORK'), null],
    ['kind never recorded', kind(null), null],
  ]);
  it('records the revision kind', () => {
    assert.deepEqual(evidenceOf(rebaseOnly, kind('NO_CODE_CHANGE')), { kind: 'NO_CODE_CHANGE' });
  });
});
