// The one way the extension makes a MarkdownString (hovers, comment threads, tree tooltips): untrusted,
// so no command link runs; no HTML, so no tag renders; no theme icons, so `$(name)` stays text. Host
// text still goes in through inertMarkdown (plainText.ts), which escapes its Markdown.
import * as vscode from 'vscode';

export function untrustedMarkdown(): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  md.supportThemeIcons = false;
  return md;
}
