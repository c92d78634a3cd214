// Draws each comment on its anchored range of the before side: a gutter mark, a highlighted range
// in a contributed theme colour, a short after-text with the author's pseudonym, and the thread on hover.
// A comment a rule removed is drawn fainter, its rule in its after-text. In a whole-file diff the
// example's hunk is marked on both sides. An example that has left the build keeps no marks.
import * as vscode from 'vscode';
import { Colors } from '../ids/colors';
import type { CorpusSession } from '../session';
import { threadHover } from './hover';
import { commentJudge } from './commentJudge';
import { inlineSummary } from './threads';
import { viewThreads, type ExampleView } from './exampleView';
import { spanRange } from './openItem';
import { parseDocUri } from './uris';
import { plainText } from '../plainText';
import { Disposable } from '../lifecycle';

/** What one document shows now (the integration suite reads it). */
export interface ShownComments {
  /** The hunk's lines, marked in a whole-file diff. */
  hunk: vscode.Range | undefined;
  threads: { range: vscode.Range; removedBy: string | null; inline: string }[];
}

export class CommentDecorations extends Disposable {
  private readonly range: vscode.TextEditorDecorationType;
  private readonly removedRange: vscode.TextEditorDecorationType;
  private readonly inline: vscode.TextEditorDecorationType;
  private readonly removedInline: vscode.TextEditorDecorationType;
  private readonly hunk: vscode.TextEditorDecorationType;
  readonly shown = new Map<string, ShownComments>();

  constructor(
    private readonly session: CorpusSession,
    extensionUri: vscode.Uri,
  ) {
    super();
    this.range = this._register(
      vscode.window.createTextEditorDecorationType({
        backgroundColor: new vscode.ThemeColor(Colors.commentRange),
        isWholeLine: false,
        gutterIconPath: vscode.Uri.joinPath(extensionUri, 'media', 'comment-gutter.svg'),
        gutterIconSize: 'contain',
        overviewRulerColor: new vscode.ThemeColor(Colors.commentRange),
        overviewRulerLane: vscode.OverviewRulerLane.Left,
      }),
    );
    this.removedRange = this._register(
      vscode.window.createTextEditorDecorationType({
        backgroundColor: new vscode.ThemeColor(Colors.removedCommentRange),
        gutterIconPath: vscode.Uri.joinPath(extensionUri, 'media', 'comment-gutter-removed.svg'),
        gutterIconSize: 'contain',
      }),
    );
    this.inline = this._register(
      vscode.window.createTextEditorDecorationType({
        after: { color: new vscode.ThemeColor(Colors.commentInlineText), margin: '0 0 0 2em', fontStyle: 'italic' },
      }),
    );
    this.removedInline = this._register(
      vscode.window.createTextEditorDecorationType({
        after: { color: new vscode.ThemeColor('disabledForeground'), margin: '0 0 0 2em', fontStyle: 'italic' },
      }),
    );
    this.hunk = this._register(
      vscode.window.createTextEditorDecorationType({
        backgroundColor: new vscode.ThemeColor(Colors.hunkRange),
        isWholeLine: true,
        overviewRulerColor: new vscode.ThemeColor(Colors.hunkRange),
        overviewRulerLane: vscode.OverviewRulerLane.Center,
      }),
    );
    this._register(vscode.window.onDidChangeVisibleTextEditors((editors) => this.decorate(editors)));
    this._register(session.onDidChange(() => this.decorate(vscode.window.visibleTextEditors)));
    // A document's text follows the session a moment later (the content provider's change event).
    this._register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (parseDocUri(e.document.uri)?.kind === 'example')
          this.decorate(vscode.window.visibleTextEditors.filter((ed) => ed.document === e.document));
      }),
    );
    this.decorate(vscode.window.visibleTextEditors);
  }

  decorate(editors: readonly vscode.TextEditor[]): void {
    for (const editor of editors) {
      const ref = parseDocUri(editor.document.uri);
      if (ref?.kind !== 'example') continue;
      const view = this.session.corpus ? this.session.examples.view(ref) : undefined;
      if (view) this.apply(editor, view, ref.side);
      else if (this.shown.delete(editor.document.uri.toString())) this.clear(editor);
    }
  }

  private clear(editor: vscode.TextEditor): void {
    for (const type of [this.range, this.removedRange, this.inline, this.removedInline, this.hunk])
      editor.setDecorations(type, []);
  }

  private apply(editor: vscode.TextEditor, view: ExampleView, side: 'before' | 'after'): void {
    const doc = editor.document;
    const span = side === 'before' ? view.beforeHunk : view.afterHunk;
    const hunk = view.whole && span.to > span.from && span.to <= doc.lineCount ? spanRange(span) : undefined;
    editor.setDecorations(this.hunk, hunk ? [hunk] : []);
    const shown: ShownComments = { hunk, threads: [] };
    this.shown.set(doc.uri.toString(), shown);
    if (side === 'after') return;
    const kept = { ranges: [] as vscode.DecorationOptions[], inline: [] as vscode.DecorationOptions[] };
    const removed = { ranges: [] as vscode.DecorationOptions[], inline: [] as vscode.DecorationOptions[] };
    const judge = commentJudge(this.session.corpus, view.example);
    for (const t of viewThreads(view)) {
      if (t.endLine >= doc.lineCount) continue; // the document is not (yet) this view's text
      const endLine = doc.lineAt(t.endLine);
      const end =
        t.endCharacter !== undefined && t.endCharacter > 0
          ? new vscode.Position(t.endLine, Math.min(t.endCharacter, endLine.text.length))
          : endLine.range.end;
      const range = new vscode.Range(
        new vscode.Position(t.startLine, Math.min(t.startCharacter, doc.lineAt(t.startLine).text.length)),
        end,
      );
      const to = t.root.removedBy ? removed : kept;
      to.ranges.push({ range, hoverMessage: threadHover(t, judge) });
      const removedReplies = t.replies.filter((c) => c.removedBy).length;
      const count =
        t.replies.length === 0
          ? ''
          : ` (+${t.replies.length}${removedReplies > 0 ? `, ${removedReplies} removed` : ''})`;
      const inline = plainText(
        (t.root.removedBy ? `removed by ${t.root.removedBy} · ` : '') + inlineSummary(t.root) + count,
      );
      to.inline.push({ range: endLine.range, renderOptions: { after: { contentText: inline } } });
      shown.threads.push({ range, removedBy: t.root.removedBy, inline });
    }
    editor.setDecorations(this.range, kept.ranges);
    editor.setDecorations(this.inline, kept.inline);
    editor.setDecorations(this.removedRange, removed.ranges);
    editor.setDecorations(this.removedInline, removed.inline);
  }
}
