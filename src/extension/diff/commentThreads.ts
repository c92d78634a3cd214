// Read-only comment threads (CommentController) on the before side of an example diff. They exist
// only while that diff is open: created just after it opens, disposed just after it closes.
import * as vscode from 'vscode';
import type { CorpusSession, OpenCorpus } from '../session';
import { viewThreads } from './exampleView';
import { commentJudge } from './commentJudge';
import { parseDocUri } from './uris';
import { inertMarkdown } from '../plainText';
import { untrustedMarkdown } from '../untrustedMarkdown';
import { Disposable } from '../lifecycle';

/**
 * How long after an example diff opens (or closes) its comment threads are created (or disposed). 150 ms
 * still collided with the next diff's first frame when one replaced another (BENCHMARKS.md).
 */
export const THREADS_AFTER_MS = 500;

/** The before-side URIs of the example diffs open in any tab group. */
function openExampleDiffs(): Set<string> {
  const open = new Set<string>();
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (tab.input instanceof vscode.TabInputTextDiff && parseDocUri(tab.input.original)?.kind === 'example')
        open.add(tab.input.original.toString());
    }
  }
  return open;
}

export class ReadOnlyCommentThreads extends Disposable {
  private readonly controller = vscode.comments.createCommentController('reviewCorpus.comments', 'Review Corpus');
  private readonly threads = new Map<string, vscode.CommentThread[]>();
  /** The corpus (a new object on every open, reload or rebuild) the threads were made from. */
  private shownCorpus: OpenCorpus | undefined;

  constructor(private readonly session: CorpusSession) {
    super();
    this.shownCorpus = session.corpus;
    this.controller.options = { placeHolder: 'Reviewer comments are read-only here.', prompt: 'Read-only' };
    this._register(this.controller);
    this._register(vscode.window.tabGroups.onDidChangeTabs(() => this.sync()));
    // A label or flag decision announces the same corpus again: its threads stay as they are.
    this._register(
      session.onDidChange((corpus) => {
        if (corpus === this.shownCorpus) return;
        this.shownCorpus = corpus;
        this.clear();
        this.sync();
      }),
    );
    this.sync();
  }

  /** Brings the threads in line with the open example diffs a moment from now (see `pending`). */
  private sync(): void {
    this.pending ??= setTimeout(() => this.reconcile(), THREADS_AFTER_MS);
  }

  /**
   * Threads follow their diffs by a moment: the workbench renders each thread's comments (as markdown)
   * as soon as it hears of them, and adding or removing threads while it draws a diff competes with the
   * diff's first frame (both sides and the comment decorations). BENCHMARKS.md has the figures.
   */
  private pending: NodeJS.Timeout | undefined;

  private reconcile(): void {
    this.pending = undefined;
    try {
      this.reconcileNow();
    } catch (e) {
      // A timer's exception reaches nobody but the host's error log. The likely one: the corpus file cut
      // short or replaced under the open corpus, which the tree names once (treeProvider.ts); no threads then.
      this.session.log.warn(`comment threads: ${(e as Error).message}`);
    }
  }

  private reconcileNow(): void {
    const open = openExampleDiffs();
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
    const view = this.session.examples.view(ref);
    if (!view) return;
    const judge = commentJudge(corpus, view.example);
    const created = viewThreads(view).map((t) => {
      const thread = this.controller.createCommentThread(
        uri,
        new vscode.Range(t.startLine, 0, t.endLine, 0),
        [t.root, ...t.replies].map((c) => {
          const body = untrustedMarkdown();
          body
            .appendMarkdown(inertMarkdown(c.message))
            .appendMarkdown('\n\n')
            .appendMarkdown(inertMarkdown(judge(c)));
          return {
            body,
            mode: vscode.CommentMode.Preview,
            author: { name: c.author ?? 'unknown' },
            label: c.removedBy ? `removed: ${c.removedBy}` : undefined,
            contextValue: 'reviewCorpus.comment',
          } satisfies vscode.Comment;
        }),
      );
      thread.canReply = false;
      // A removed comment says so where the thread is listed (the Comments panel) as well as on the comment.
      thread.label = t.root.removedBy ? `Reviewer · removed by ${t.root.removedBy}` : 'Reviewer';
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

  override dispose(): void {
    clearTimeout(this.pending);
    this.clear(); // the threads before their controller
    super.dispose();
  }
}
