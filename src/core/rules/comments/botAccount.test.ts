import assert from 'node:assert/strict';
import { commentUnit, decidesTable, testContext } from '../testKit';
import { botAccount } from './botAccount';

describe('rule comments/bot_account', () => {
  decidesTable(botAccount, [
    ['written by a tagged bot', commentUnit({ authorIsBot: true, authorServiceUser: true }), 'bot_account'],
    ['written by a listed bot', commentUnit({ authorIsBot: true }), 'bot_account'],
    [
      'written by an account named like a bot',
      commentUnit({ authorIsBot: true, authorBotPattern: '(^|[-_ .])bot$' }),
      'bot_account',
    ],
    ['written by a person', commentUnit({ authorIsBot: false }), null],
  ]);

  it('names why in its evidence: the tag before the list before a name pattern', () => {
    const evidence = (over: Parameters<typeof commentUnit>[0]) =>
      botAccount.decide(commentUnit({ authorIsBot: true, ...over }), testContext())?.evidence;
    assert.deepEqual(evidence({ authorServiceUser: true }), { source: 'service_user' });
    assert.deepEqual(evidence({ authorServiceUser: true, authorBotPattern: '^zuul$' }), { source: 'service_user' });
    assert.deepEqual(evidence({ authorServiceUser: false }), { source: 'bot_list' });
    assert.deepEqual(evidence({ authorServiceUser: false, authorBotPattern: '^zuul$' }), {
      source: 'name_pattern',
      pattern: '^zuul$',
    });
    assert.deepEqual(
      evidence({ authorServiceUser: null }),
      { source: 'unrecorded' },
      'stored before the tag was kept apart from the list',
    );
  });
});
