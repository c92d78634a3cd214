// Hover text for a comment thread. Comment text is untrusted: it goes in through appendText, which
// escapes markdown, and the MarkdownString is untrusted with HTML off, so links and tags stay inert.
import * as vscode from 'vscode';
import type { CommentThreadModel } from './threads';

export function threadHover(thread: CommentThreadModel): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  md.supportThemeIcons = false;
  for (const c of [thread.root, ...thread.replies]) {
    md.appendText(`${c.author ?? 'unknown'}${c.removedBy ? ` (removed: ${c.removedBy})` : ''}:`);
    md.appendMarkdown('\n\n');
    md.appendText(c.message);
    md.appendMarkdown('\n\n---\n\n');
  }
  return md;
}
