// Text from a host or a config (project names, window names, reference set names) inside the dataset
// card's Markdown. A code span is the one construct every Markdown renderer shows literally: no link,
// autolink (a bare URL or e-mail address), image, tag, emphasis or heading forms inside it, whichever
// renderer the Hub uses. Backslash escapes do not stop GFM's autolinker, so escaping alone would not do.
import { visibleEscapes } from './visibleEscapes';
import { escapeMarkdownLine } from './markdownEscape';

/**
 * `text` as one inline code span. Line breaks and other hidden characters show as visible escapes (a
 * span never ends the line or table row it is in); the fence is one backtick longer than the longest
 * run inside, padded with a space where CommonMark would otherwise eat one or join the fence. In a
 * table cell, `|` is escaped: GFM splits cells before it reads code spans, and un-escapes `\|` inside them.
 */
export function mdCode(text: string, opts: { inTable?: boolean } = {}): string {
  let s = visibleEscapes(text);
  if (opts.inTable) s = s.replace(/\|/g, '\\|');
  if (s === '') return '` `';
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') || (s.startsWith(' ') && s.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}

/**
 * Our own prose that a file carries (the decontamination note) or the user's title, as Markdown that
 * renders as written: lines joined, and a backslash before every ASCII punctuation character, which
 * CommonMark allows before each of them. That also splits `https://`, `www.` and `a@b.c` apart, so the
 * autolinker finds nothing (as the inspector's inertMarkdown does for hovers).
 */
export function mdText(text: string): string {
  return escapeMarkdownLine(text.replace(/\r?\n/g, ' '));
}

/** One Markdown table row; each cell is Markdown already (numbers, or mdCode(…, { inTable: true })). */
export function mdRow(cells: readonly (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** A header row and its delimiter row; `right` marks the columns that hold numbers. */
export function mdHeader(names: readonly string[], right: ReadonlySet<number> = new Set()): string[] {
  return [mdRow(names), mdRow(names.map((_, i) => (right.has(i) ? '---:' : '---')))];
}

/** A count as the card shows it: grouped digits, or "not counted" for a counter the build did not record. */
export function mdCount(n: number | null | undefined): string {
  return n === null || n === undefined ? 'not counted' : n.toLocaleString('en-US');
}
