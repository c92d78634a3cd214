import { decidesTable, exampleUnit } from '../testKit';
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
});
