// Hover text for a comment thread. Comment text is untrusted: it goes in through inertMarkdown, which
// escapes all of its markdown, and the MarkdownString is untrusted with HTML off, so links and tags stay inert.
import * as vscode from 'vscode';
import type { CommentThreadModel } from './threads';
import { inertMarkdown } from '../plainText';

export function threadHover(thread: CommentThreadModel): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  md.supportThemeIcons = false;
  for (const c of [thread.root, ...thread.replies]) {
    md.appendMarkdown(inertMarkdown(`${c.author ?? 'unknown'}${c.removedBy ? ` (removed: ${c.removedBy})` : ''}:`));
    md.appendMarkdown('\n\n');
    md.appendMarkdown(inertMarkdown(c.message));
    md.appendMarkdown('\n\n---\n\n');
  }
  return md;
}
