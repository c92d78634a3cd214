import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { mdCode, mdText } from './markdown';

const render = (md: string) => new MarkdownIt({ html: true, linkify: true }).render(md);

describe('card Markdown', () => {
  it('shows host text in a code span exactly, whatever backticks it holds', () => {
    for (const text of ['plain', '`tick`', 'a``b', '```', ' spaced ', '<b>x</b> [l](https://e.example)']) {
      const html = render(`x ${mdCode(text)} y`);
      const code = /<code>([\s\S]*?)<\/code>/.exec(html)?.[1];
      const decoded = code
        ?.replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
      assert.equal(decoded, text, `${JSON.stringify(text)} → ${html}`);
    }
  });

  it('keeps a pipe and a line break inside one table cell', () => {
    const html = render(['| a | b |', '| --- | --- |', `| ${mdCode('x | y\nz', { inTable: true })} | 2 |`].join('\n'));
    assert.match(html, /<td><code>x \| y\\x0az<\/code><\/td>\s*<td>2<\/td>/);
  });

  it('writes prose without markup or links forming', () => {
    const text = '**not bold** [no](https://e.example) www.e.example a@e.example <i>x</i> _u_';
    const html = render(mdText(text));
    assert.doesNotMatch(html, /<strong>|<a |<i>|<em>/);
    assert.equal(
      html,
      `<p>${text.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>\n`,
      'every character shows as written',
    );
  });
});
