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
import { visibleEscapes } from '../core/text/visibleEscapes';

const ZERO_WIDTH_SPACE = '\u200b';

/** Host text as inert plain text: no link, no icon; controls and bidi marks as visible escapes. */
export function plainText(text: string): string {
  return visibleEscapes(text).replace(/([\]$])\(/g, (_, mark: string) => `${mark}${ZERO_WIDTH_SPACE}(`);
}
