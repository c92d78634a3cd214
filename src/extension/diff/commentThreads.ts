// Read-only comment threads (CommentController) on the before side of an example diff. They exist
// only while that diff is open and are disposed when it closes.
import * as vscode from 'vscode';
import { getExample } from '../../core/inspect/example';
import type { CorpusSession } from '../session';
import { groupThreads } from './threads';
import { parseDocUri } from './uris';

export class ReadOnlyCommentThreads implements vscode.Disposable {
  private readonly controller = vscode.comments.createCommentController('reviewCorpus.comments', 'Review Corpus');
  private readonly threads = new Map<string, vscode.CommentThread[]>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly session: CorpusSession) {
    this.controller.options = { placeHolder: 'Reviewer comments are read-only here.', prompt: 'Read-only' };
    this.disposables.push(
      vscode.window.tabGroups.onDidChangeTabs(() => this.sync()),
      session.onDidChange(() => { this.clear(); this.sync(); }),
    );
    this.sync();
  }

  /** Creates threads for each open example diff, disposes those whose diff closed. */
  private sync(): void {
    const open = new Set<string>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        if (tab.input instanceof vscode.TabInputTextDiff && parseDocUri(tab.input.original)?.kind === 'example') {
          open.add(tab.input.original.toString());
        }
      }
    }
    for (const [uri, threads] of this.threads) {
      if (!open.has(uri)) {
        for (const t of threads) t.dispose();
        this.threads.delete(uri);
      }
    }
    for (const uri of open) if (!this.threads.has(uri)) this.create(vscode.Uri.parse(uri));
  }

  private create(uri: vscode.Uri): void {
    const ref = parseDocUri(uri);
    const corpus = this.session.corpus;
    if (!ref || ref.kind !== 'example' || !corpus) return;
    const example = getExample(corpus.store, ref.id);
    if (!example) return;
    const created = groupThreads(example).map((t) => {
      const thread = this.controller.createCommentThread(uri, new vscode.Range(t.startLine, 0, t.endLine, 0), [t.root, ...t.replies].map((c) => {
        const body = new vscode.MarkdownString(undefined, false);
        body.isTrusted = false;
        body.supportHtml = false;
        body.appendText(c.message);
        return {
          body,
          mode: vscode.CommentMode.Preview,
          author: { name: c.author ?? 'unknown' },
          label: c.removedBy ? `removed: ${c.removedBy}` : undefined,
          contextValue: 'reviewCorpus.comment',
        } satisfies vscode.Comment;
      }));
      thread.canReply = false;
      thread.label = 'Reviewer';
      thread.collapsibleState = vscode.CommentThreadCollapsibleState.Collapsed;
      return thread;
    });
    this.threads.set(uri.toString(), created);
  }

  /** The live threads of one open example diff (by its before-side URI). */
  threadsFor(uri: vscode.Uri): readonly vscode.CommentThread[] {
    return this.threads.get(uri.toString()) ?? [];
  }

  private clear(): void {
    for (const threads of this.threads.values()) for (const t of threads) t.dispose();
    this.threads.clear();
  }

  dispose(): void {
    this.clear();
    this.controller.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
