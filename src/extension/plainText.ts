// Every string from a host or a corpus file that VS Code shows in its own widgets goes through here:
// notifications, progress, status bar, quick picks, tree items, titles. VS Code parses some of them:
// - a notification (and the progress in one) turns `[label](command:…)` into a link that runs the
//   command when clicked (parseLinkedText, vs/base/common/linkedText.ts). That parser knows no escape,
//   and a backslash does not stop it.
// - the status bar and quick picks draw `$(name)` as an icon (renderLabelWithIcons); progress strips
//   `$(name)` before it looks for links, so an icon between `]` and `(` would join them.
// A zero-width space after `]` and after `$` breaks both patterns and changes nothing that shows.
// Pure (no vscode), so the unit suite tests it under Node. Our own icons, like the status bar's
// `$(database)`, stay outside it.
import { visibleEscapes } from '../core/ground/text/visibleEscapes';
import { escapeMarkdownLine } from '../core/ground/text/markdownEscape';

const ZERO_WIDTH_SPACE = '\u200b';

/** Host text as inert plain text: no link, no icon; controls and bidi marks as visible escapes. */
export function plainText(text: string): string {
  return visibleEscapes(text).replace(/([\]$])\(/g, (_, mark: string) => `${mark}${ZERO_WIDTH_SPACE}(`);
}

/**
 * Host text as Markdown source that renders as exactly that text (escapeMarkdownLine: no link, image,
 * tag, heading, list or code block). VS Code's appendText escapes only some syntax and joins words with
 * `&nbsp;`, so GFM's autolinker took a bare URL and every word after it as one href. Spaces stay as
 * `&nbsp;` (no indented code block, runs of spaces kept) and each line ends in a hard break.
 */
export function inertMarkdown(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => escapeMarkdownLine(line).replace(/[ \t]/g, '&nbsp;'))
    .join('\\\n');
}
