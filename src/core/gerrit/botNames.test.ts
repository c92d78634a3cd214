import assert from 'node:assert/strict';
import { BotNameMatcher, DEFAULT_BOT_NAME_PATTERNS, botNamePatternsOf } from './botNames';

const defaults = new BotNameMatcher(DEFAULT_BOT_NAME_PATTERNS);
const byName = (name: string) => defaults.match({ _account_id: 1, name }).pattern;

describe('bot-name patterns', () => {
  it("match the paper's suffix, prefix and named services, and OpenDev's Zuul, in any case", () => {
    const cases: [string, string][] = [
      ['Qt CI Bot', '(^|[-_ .])bot$'],
      ['jenkins-bot', '(^|[-_ .])bot$'],
      ['lint_bot', '(^|[-_ .])bot$'],
      ['release.BOT', '(^|[-_ .])bot$'],
      ['bot', '(^|[-_ .])bot$'],
      ['dependabot[bot]', '\\[bot\\]$'],
      ['Bot-Checker', '^bot($|[-_ .])'],
      ['dependabot', '^dependabot\\b'],
      ['Renovate Bot', '(^|[-_ .])bot$'],
      ['renovate', '^renovate\\b'],
      ['github-actions', '^github-actions\\b'],
      ['Travis-CI', '^travis-ci\\b'],
      ['CircleCI', '^circleci\\b'],
      ['Zuul', '^zuul$'],
      ['ZUUL', '^zuul$'],
    ];
    for (const [name, pattern] of cases) assert.equal(byName(name), pattern, name);
  });

  it('do not match names that merely contain "bot" or a service\'s name', () => {
    for (const name of [
      'Abbott',
      'Ann Abbott',
      'Talbot',
      'Robot',
      'robotics',
      'Botond Kovács',
      'Bottomley',
      'Cabot Lodge',
      'abbot',
      'Zuul Gate',
      'zuulbot',
      'renovated',
      'Bob Renovate',
      'Sabotage',
      'Jane Doe',
    ]) {
      assert.equal(byName(name), null, name);
    }
  });
});

describe('bot-name patterns: fields, order and per-host lists', () => {
  it("are tested on name, display_name, username and the e-mail's local part, nothing else", () => {
    assert.equal(
      defaults.match({ _account_id: 1, name: 'Release Manager', display_name: 'release-bot' }).pattern,
      '(^|[-_ .])bot$',
    );
    assert.equal(defaults.match({ _account_id: 1, name: 'Release Manager', username: 'zuul' }).pattern, '^zuul$');
    assert.equal(defaults.match({ _account_id: 1, email: 'ci-bot@ci.example.org' }).pattern, '(^|[-_ .])bot$');
    assert.equal(defaults.match({ _account_id: 1, email: 'ann@robot' }).pattern, null, 'the domain is not a name');
    assert.equal(
      defaults.match({ _account_id: 1, name: 'Ann', status: 'on leave, ask the bot' } as never).pattern,
      null,
      'status is not a name',
    );
    assert.deepEqual(defaults.match({ _account_id: 1 }), { pattern: null, checked: false }, 'no name: nothing decided');
  });

  it('report the first pattern in config order', () => {
    const m = new BotNameMatcher(['^zuul$', '^z']);
    assert.equal(m.match({ _account_id: 1, name: 'Zed', username: 'zuul' }).pattern, '^zuul$');
  });

  it('per host: botNamePatterns replaces the defaults, extraBotNamePatterns adds to them', () => {
    assert.deepEqual(botNamePatternsOf({}), [...DEFAULT_BOT_NAME_PATTERNS]);
    assert.deepEqual(botNamePatternsOf({ extraBotNamePatterns: ['^gerritbot$'] }), [
      ...DEFAULT_BOT_NAME_PATTERNS,
      '^gerritbot$',
    ]);
    assert.deepEqual(botNamePatternsOf({ botNamePatterns: ['^ci$'], extraBotNamePatterns: ['^ci$', '^gate$'] }), [
      '^ci$',
      '^gate$',
    ]);
    assert.deepEqual(botNamePatternsOf({ botNamePatterns: [] }), []);
    assert.equal(
      new BotNameMatcher(botNamePatternsOf({ botNamePatterns: [] })).match({ _account_id: 1, name: 'jenkins-bot' })
        .pattern,
      null,
    );
  });
});
