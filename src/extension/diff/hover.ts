// Hover text for a comment thread. Comment text is untrusted: it goes in through inertMarkdown, which
// escapes all of its markdown, and the MarkdownString is untrusted with HTML off, so links and tags stay inert.
import * as vscode from 'vscode';
import { exactRange, type CommentThreadModel } from './threads';
import type { ExampleComment } from '../../core/review/inspect/example';
import { inertMarkdown } from '../plainText';
import { untrustedMarkdown } from '../untrustedMarkdown';

/** `judge` gives each comment's judge line (core/review/quality/commentQuality.ts): file text, escaped like the comment. */
export function threadHover(thread: CommentThreadModel, judge?: (c: ExampleComment) => string): vscode.MarkdownString {
  const md = untrustedMarkdown();
  // Gerrit's own line numbers (patch set N's file), whatever part of the file the document shows.
  const { first, last } = exactRange(thread.root, 0);
  if (first > 0)
    md.appendMarkdown(inertMarkdown(first === last ? `Line ${first}` : `Lines ${first}–${last}`)).appendMarkdown(
      '\n\n',
    );
  for (const c of [thread.root, ...thread.replies]) {
    md.appendMarkdown(inertMarkdown(`${c.author ?? 'unknown'}${c.removedBy ? ` (removed: ${c.removedBy})` : ''}:`));
    md.appendMarkdown('\n\n');
    md.appendMarkdown(inertMarkdown(c.message));
    if (judge) md.appendMarkdown('\n\n').appendMarkdown(inertMarkdown(judge(c)));
    md.appendMarkdown('\n\n---\n\n');
  }
  return md;
}
