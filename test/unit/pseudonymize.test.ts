import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { BotNameMatcher } from '../../src/core/gerrit/botNames';
import { Pseudonymizer, requireSalt } from '../../src/core/gerrit/pseudonymize';
import { UserError } from '../../src/core/ground/store/errors';

const HOST = 'review.opendev.org';
const NO_BOTS: ReadonlySet<number> = new Set();

describe('pseudonymizer', () => {
  it('is HMAC-SHA256(salt, host + newline + id), hex, 16 digits, prefixed u_', () => {
    const expected = 'u_' + createHmac('sha256', 's3cret').update(`${HOST}\n1000096`).digest('hex').slice(0, 16);
    assert.equal(new Pseudonymizer('s3cret', HOST, NO_BOTS).pseudonymForId(1000096), expected);
    assert.match(expected, /^u_[0-9a-f]{16}$/);
  });

  it('gives the same pseudonym for the same salt, host and id, across instances', () => {
    const a = new Pseudonymizer('salt-1', HOST, NO_BOTS);
    const b = new Pseudonymizer('salt-1', HOST, NO_BOTS);
    assert.equal(a.pseudonymForId(7), b.pseudonymForId(7));
    assert.equal(a.account({ _account_id: 7, name: 'Jane Doe' })?.pseudonym, a.pseudonymForId(7));
    assert.notEqual(a.pseudonymForId(7), a.pseudonymForId(8));
  });

  it('differs across salts and across hosts', () => {
    const base = new Pseudonymizer('salt-1', HOST, NO_BOTS).pseudonymForId(7);
    assert.notEqual(new Pseudonymizer('salt-2', HOST, NO_BOTS).pseudonymForId(7), base);
    assert.notEqual(new Pseudonymizer('salt-1', 'codereview.qt-project.org', NO_BOTS).pseudonymForId(7), base);
  });

  it('treats a host URL and its host name alike', () => {
    const byName = new Pseudonymizer('s', HOST, NO_BOTS).pseudonymForId(3);
    assert.equal(new Pseudonymizer('s', `https://${HOST}/`, NO_BOTS).pseudonymForId(3), byName);
    assert.equal(new Pseudonymizer('s', 'Review.OpenDev.org', NO_BOTS).pseudonymForId(3), byName);
  });

  it("keeps nothing of the account but the pseudonym, the bot flag, the SERVICE_USER tag and the config's pattern", () => {
    const p = new Pseudonymizer('s', HOST, NO_BOTS);
    const out = p.account({
      _account_id: 1000096,
      name: 'Jane Doe',
      email: 'jane@example.org',
      username: 'jdoe',
      display_name: 'JD',
    });
    assert.deepEqual(Object.keys(out ?? {}).sort(), [
      'botPattern',
      'isBot',
      'isServiceUser',
      'namesChecked',
      'pseudonym',
    ]);
    const text = JSON.stringify(out);
    for (const leak of ['1000096', 'Jane', 'jane@example.org', 'jdoe'])
      assert.ok(!text.includes(leak), `leaks ${leak}`);
    const bot = p.account({
      _account_id: 1000097,
      name: 'Nightly Lint-Bot',
      email: 'nightly-lint@example.org',
      username: 'nightly_lint',
    });
    assert.deepEqual(bot && { ...bot, pseudonym: '' }, {
      pseudonym: '',
      isBot: true,
      isServiceUser: false,
      botPattern: '(^|[-_ .])bot$',
      namesChecked: true,
    });
    for (const leak of ['1000097', 'Nightly', 'Lint', 'nightly'])
      assert.ok(!JSON.stringify(bot).includes(leak), `leaks ${leak}`);
  });

  it('flags SERVICE_USER accounts and configured bot ids as bots, before hashing', () => {
    const p = new Pseudonymizer('s', HOST, new Set([4242]));
    assert.equal(p.account({ _account_id: 1, tags: ['SERVICE_USER'] })?.isBot, true);
    assert.equal(p.account({ _account_id: 4242, name: 'Zuul' })?.isBot, true);
    assert.equal(p.account({ _account_id: 5, tags: ['OTHER'] })?.isBot, false);
    assert.equal(p.account({ _account_id: 6 })?.isBot, false);
  });

  it('flags accounts named like bots, the tag and the bot list coming first', () => {
    const p = new Pseudonymizer('s', HOST, new Set([4242]), new BotNameMatcher(['^zuul$', '(^|[-_ .])bot$']));
    const facts = (a: Parameters<Pseudonymizer['account']>[0]) => {
      const out = p.account(a);
      return out && [out.isBot, out.botPattern, out.namesChecked];
    };
    assert.deepEqual(facts({ _account_id: 7, name: 'Zuul', username: 'zuul' }), [true, '^zuul$', true]);
    assert.deepEqual(facts({ _account_id: 8, name: 'Release Manager', display_name: 'release-bot' }), [
      true,
      '(^|[-_ .])bot$',
      true,
    ]);
    assert.deepEqual(
      facts({ _account_id: 9, name: 'Gate', email: 'gate-bot@ci.example.org' }),
      [true, '(^|[-_ .])bot$', true],
      'the e-mail by its local part',
    );
    assert.deepEqual(facts({ _account_id: 4242, name: 'Zuul' }), [true, null, true], 'listed: the list decides');
    assert.deepEqual(
      facts({ _account_id: 10, name: 'Zuul', tags: ['SERVICE_USER'] }),
      [true, null, true],
      'tagged: the tag decides',
    );
    assert.deepEqual(facts({ _account_id: 11, name: 'Ann Abbott', username: 'robotics' }), [false, null, true]);
    assert.deepEqual(facts({ _account_id: 12 }), [false, null, false], 'an id-only account: nothing to match');
  });

  it('keys an email-only account on its address, and gives up on an empty one', () => {
    const p = new Pseudonymizer('s', HOST, NO_BOTS);
    const a = p.account({ email: 'Cc@Example.org' });
    assert.match(a?.pseudonym ?? '', /^u_[0-9a-f]{16}$/);
    assert.equal(p.account({ email: 'cc@example.org' })?.pseudonym, a?.pseudonym);
    assert.equal(p.account({}), undefined);
    assert.equal(p.account(undefined), undefined);
  });

  it('scrubs account tokens to pseudonyms and email addresses to <email>', () => {
    const p = new Pseudonymizer('s', HOST, NO_BOTS);
    const text =
      'Patch Set 2: Code-Review+1 by <GERRIT_ACCOUNT_1000096>, cc <GERRIT_ACCOUNT_12>\n\nSigned-off-by: Jane Doe <jane.doe+gerrit@mail.example.co.uk>\nnpm i left-pad@1.3.0';
    assert.equal(
      p.scrubText(text),
      `Patch Set 2: Code-Review+1 by ${p.pseudonymForId(1000096)}, cc ${p.pseudonymForId(12)}\n\nSigned-off-by: Jane Doe <<email>>\nnpm i left-pad@1.3.0`,
    );
  });

  it('refuses a missing salt with one line naming the variable', () => {
    assert.equal(requireSalt({ MY_SALT: 'x' }, 'MY_SALT'), 'x');
    for (const env of [{}, { MY_SALT: '' }, { MY_SALT: '  ' }]) {
      assert.throws(
        () => requireSalt(env, 'MY_SALT'),
        (e: Error) => {
          assert.ok(e instanceof UserError);
          assert.ok(!e.message.includes('\n'));
          assert.match(e.message, /^no salt: set MY_SALT\b/);
          return true;
        },
      );
    }
    assert.throws(
      () => new Pseudonymizer('', HOST, NO_BOTS),
      (e: Error) => e instanceof UserError && /^no salt: set REVIEW_CORPUS_SALT/.test(e.message),
    );
  });

  it('scrubs the identities of the given accounts, on word boundaries and in any case', () => {
    const p = new Pseudonymizer('s', HOST, NO_BOTS);
    const account = { _account_id: 11, name: 'Anna Lee', username: 'alee', email: 'anna@corp.example' };
    const anna = p.account(account)!.pseudonym;
    const index = p.identities([account, undefined]);
    assert.equal(p.scrubText('ANNA LEE said @alee, anna@corp.example', index), `${anna} said @${anna}, ${anna}`);
    assert.equal(
      p.scrubText('Annabel Leeds and alees are other words', index),
      'Annabel Leeds and alees are other words',
    );
    assert.equal(p.scrubText('Anna\nLee across a line break', index), `${anna} across a line break`);
    assert.equal(
      p.scrubText('Anna,Lee is two words', index),
      'Anna,Lee is two words',
      'a name is found only where whitespace separates its words',
    );
    assert.ok(p.scrubText('word '.repeat(200_000) + 'Anna Lee', index).endsWith(anna), 'a 1 MB comment');
    assert.equal(
      p.scrubText('ANNA LEE said'),
      'ANNA LEE said',
      'only the accounts given: what was seen before does not count',
    );
  });

  it('replaces e-mail-like strings without a dot or with non-ASCII letters, but not version pins', () => {
    const p = new Pseudonymizer('s', HOST, NO_BOTS);
    assert.equal(p.scrubText('ask root@buildhost or jürgen@bücher.example'), 'ask <email> or <email>');
    assert.equal(p.scrubText('pin pkg@1.2.3'), 'pin pkg@1.2.3');
  });
});
