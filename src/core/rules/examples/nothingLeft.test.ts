import assert from 'node:assert/strict';
import { decidesTable, evidenceOf, exampleUnit } from '../testKit';
import { nothingLeft } from './nothingLeft';

describe('rule examples/nothing_left', () => {
  decidesTable(nothingLeft, [
    [
      'only an acknowledgement and a bot template',
      exampleUnit({
        comments: [
          { message: 'Done', removedBy: 'acknowledgement' },
          { message: 'Hint: Leading tabs', removedBy: 'bot_template' },
        ],
      }),
      'nothing_left',
    ],
    [
      'only the owner',
      exampleUnit({ comments: [{ message: 'I changed this because…', removedBy: 'own_author' }] }),
      'nothing_left',
    ],
    [
      'one reviewer comment left',
      exampleUnit({
        comments: [
          { message: 'Done', removedBy: 'acknowledgement' },
          { message: 'rename', removedBy: null },
        ],
      }),
      null,
    ],
  ]);
  it('names the rules that removed its comments, with how many each', () => {
    const comments = [
      { message: '', removedBy: 'deleted_on_host' },
      { message: 'Thanks, looks good now.', removedBy: 'post_merge_comment' },
      { message: 'Done', removedBy: 'acknowledgement' },
      { message: 'Ack', removedBy: 'acknowledgement' },
    ];
    assert.deepEqual(evidenceOf(nothingLeft, exampleUnit({ comments })), {
      comments_removed_by: 'acknowledgement 2, deleted_on_host 1, post_merge_comment 1',
    });
  });
});
