// src/extension/plainText.ts against the patterns VS Code 1.100.3 itself applies (copied from its sources):
// notification links (vs/base/common/linkedText.ts), icons in labels and the progress notification's
// icon stripping (vs/base/common/iconLabels.ts). The integration suite checks the rendered workbench.
import assert from 'node:assert/strict';
import { inertMarkdown, plainText } from '../../src/extension/plainText';

const LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const ICON = /(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g;
const STRIP_ICONS = /(\s)?(\\)?\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\)(\s)?/g;
const stripIcons = (t: string) => t.replace(STRIP_ICONS, (m, pre, escaped, post) => (escaped ? m : pre || post || ''));
/** What a notification shows: newlines flattened, then links parsed (notifications.ts). */
const links = (t: string) => [...t.replace(/(\r\n|\n|\r)/gm, ' ').matchAll(LINK)].map((m) => m[2]);
const icons = (t: string) => [...t.matchAll(ICON)].filter((m) => !m[1]).map((m) => m[2]);
const invisible = (t: string) => t.replace(/\u200b/g, '');

const HOSTILE = [
  '[Open the fix](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)',
  '[x](COMMAND:evil) [y](https://evil.example "title") [z](file:///etc/passwd)',
  '[a]$(alert)(command:evil)',
  '$(alert) $(sync~spin) \\$(alert) [$(alert)](command:evil)',
  '[[x](command:evil) [y](command:a)(command:b)',
];

describe('plainText: host text that VS Code cannot turn into a link or an icon', () => {
  it('the hostile samples are live before, and inert after', () => {
    for (const t of HOSTILE) {
      assert.ok(links(t).length + icons(t).length + links(stripIcons(t)).length > 0, `sample is live: ${t}`);
      const safe = plainText(t);
      assert.deepEqual(links(safe), [], `no link in a notification: ${safe}`);
      assert.deepEqual(links(stripIcons(safe)), [], `no link in a progress notification: ${safe}`);
      assert.deepEqual(icons(safe), [], `no icon in a label: ${safe}`);
    }
  });

  it('looks the same once the zero-width spaces are left out', () => {
    for (const t of HOSTILE) assert.equal(invisible(plainText(t)), t);
    assert.equal(plainText('Build 3: 1,234 examples kept'), 'Build 3: 1,234 examples kept');
  });

  it('shows controls and bidi overrides as visible escapes', () => {
    assert.equal(plainText('evil\u202egpj.py \x1b[31m'), 'evil\\u202egpj.py \\x1b[31m');
  });
});

// What CommonMark reads back from inertMarkdown: a backslash before punctuation is that character,
// `&nbsp;` a space, a backslash before a line end a hard break. The rendered result is checked in the
// real workbench (hostileText integration suite); here, that nothing is left for markdown to act on.
const unescapeMarkdown = (md: string) =>
  md
    .replace(/\\\n/g, '\n')
    .replace(/&nbsp;/g, ' ')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1');

describe('inertMarkdown: host text as markdown that renders as itself', () => {
  const samples = [
    'see http://example.org/x.png) then [open](command:evil) and www.example.org, a@b.example',
    '# heading\n    indented code\n> quote\n1. item\n- item\n| a | b |\n===\n<img src=x onerror=alert(1)>',
    'a\\b \\\\ **bold** `code` ~~x~~ $(alert) &amp; &nbsp;',
  ];

  it('escapes every ASCII punctuation character, so no scheme, tag, entity or syntax is left', () => {
    for (const t of samples) {
      const md = inertMarkdown(t);
      const bare = md
        .replace(/&nbsp;/g, '')
        .replace(/\\[!-/:-@[-`{-~]/g, '')
        .replace(/\\\n/g, '');
      assert.doesNotMatch(bare, /[!-/:-@[-`{-~]/, `unescaped punctuation left in ${md}`);
      assert.doesNotMatch(md, /:\/\/|www\./, `a scheme or www. left whole in ${md}`);
    }
  });

  it('reads back as the text, with its lines and spaces', () => {
    for (const t of samples) assert.equal(unescapeMarkdown(inertMarkdown(t)), t);
    assert.equal(inertMarkdown('a\r\nb'), 'a\\\nb');
  });

  it('shows controls and bidi overrides as visible escapes', () => {
    assert.equal(unescapeMarkdown(inertMarkdown('evil\u202egpj.py')), 'evil\\u202egpj.py');
  });
});
