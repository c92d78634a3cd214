import assert from 'node:assert/strict';
import { commentUnit, decidesTable, evidenceOf, testContext } from '../testKit';
import { botTemplate } from './botTemplate';
import { matchBotTemplate } from './botTemplates';

describe('rule comments/bot_template', () => {
  const msg = (message: string) => commentUnit({ message });
  decidesTable(botTemplate, [
    ['Qt Sanity Bot hint', msg('Hint: Trailing whitespace'), 'bot_template'],
    ['two Sanity Bot hints joined', msg('Hint: Trailing whitespace\n\nHint: Leading tabs'), 'bot_template'],
    ['Sanity Bot conflict marker complaint', msg('Unresolved merge conflict'), 'bot_template'],
    ['Sanity Bot spelling', msg('behaviour -> behavior? [*]'), 'bot_template'],
    [
      'Sanity Bot deprecated define',
      msg(
        'Using deprecated define Q_OS_MAC; use Q_OS_MACOS (for macOS only) or Q_OS_DARWIN (for all Apple platforms) instead',
      ),
      'bot_template',
    ],
    ['security review integration', msg('Modifying security sensitive file.'), 'bot_template'],
    ['flake8 line', msg('E501 line too long (83 > 79 characters)'), 'bot_template'],
    ['flake8 line with a colon', msg('F405: name may be undefined, or defined from star imports'), 'bot_template'],
    [
      'flake8 line with its location',
      msg('nova/api.py:12:80: E501 line too long (83 > 79 characters)'),
      'bot_template',
    ],
    ['Zuul tox inline comment', msg('pep8: W291 trailing whitespace'), 'bot_template'],
    ['Zuul result line', msg('Build succeeded (check pipeline).'), 'bot_template'],
    ['CRLF message', msg('Hint: Trailing whitespace\r\n'), 'bot_template'],
    ['a reviewer sentence around the hint', msg('Trailing whitespace here, and also rename the variable'), null],
    ['a hint followed by a reviewer paragraph', msg('Hint: Leading tabs\n\nand please rename this variable'), null],
    [
      'a flake8 code followed by prose after a line separator',
      msg('E501: line too long\u2028I think we should refactor this'),
      null,
    ],
    ['a made-up hint', msg('Hint: use QStringView here'), null],
    ['prose with an arrow', msg('Why is this -> needed?'), null],
    ['four-digit code', msg('E5011 four digits'), null],
    ['an ordinary comment', msg('nit: line length'), null],
    ['empty', msg(''), null],
  ]);
  describe('with host templates', () => {
    const ctx = testContext({ hostBotTemplates: new Map([['openstack', [/^Coverity: .+$/]]]) });
    decidesTable(
      botTemplate,
      [
        ['matching the host template', commentUnit({ message: 'Coverity: null dereference' }), 'bot_template'],
        ['the same text on another host', commentUnit({ org: 'qt', message: 'Coverity: null dereference' }), null],
      ],
      ctx,
    );
  });
  it('names the bot it matched', () => {
    assert.equal(matchBotTemplate('Hint: Leading tabs')?.bot, 'Qt Sanity Bot');
    assert.equal(matchBotTemplate('W291 trailing whitespace')?.bot, 'flake8 output');
  });
  it('records the bot and the template that matched', () => {
    assert.deepEqual(evidenceOf(botTemplate, msg('E501 line too long (83 > 79 characters)')), {
      bot: 'flake8 output',
      template: String.raw`^(?:\S+:\d+:\d+: )?[EWFC]\d{3}:? \S.*$`,
    });
    assert.deepEqual(evidenceOf(botTemplate, msg('Modifying security sensitive file.')), {
      bot: 'Qt security review integration',
      template: String.raw`^Modifying security sensitive file\.$`,
    });
    const ctx = testContext({ hostBotTemplates: new Map([['openstack', [/^Coverity: .+$/]]]) });
    assert.deepEqual(evidenceOf(botTemplate, msg('Coverity: null dereference'), ctx), {
      bot: 'host template',
      template: '^Coverity: .+$',
    });
  });
});
