import { commentUnit, decidesTable } from '../testKit';
import { botAccount } from './botAccount';

describe('rule comments/bot_account', () => {
  decidesTable(botAccount, [
    ['written by a tagged bot', commentUnit({ authorIsBot: true }), 'bot_account'],
    ['written by a person', commentUnit({ authorIsBot: false }), null],
  ]);
});
