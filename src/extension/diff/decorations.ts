// Draws each comment on its anchored range of the before side: a gutter mark, a highlighted range
// in a contributed theme colour, a short after-text with the author's pseudonym, and the thread on hover.
import * as vscode from 'vscode';
import type { ExampleRecord } from '../../core/inspect/example';
import { Colors } from '../ids/colors';
import type { CorpusSession } from '../session';
import { threadHover } from './hover';
import { groupThreads, inlineSummary } from './threads';
import { parseDocUri } from './uris';
import { plainText } from '../plainText';

export class CommentDecorations implements vscode.Disposable {
  private readonly range: vscode.TextEditorDecorationType;
  private readonly inline: vscode.TextEditorDecorationType;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly session: CorpusSession, extensionUri: vscode.Uri) {
    this.range = vscode.window.createTextEditorDecorationType({
      backgroundColor: new vscode.ThemeColor(Colors.commentRange),
      isWholeLine: false,
      gutterIconPath: vscode.Uri.joinPath(extensionUri, 'media', 'comment-gutter.svg'),
      gutterIconSize: 'contain',
      overviewRulerColor: new vscode.ThemeColor(Colors.commentRange),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    });
    this.inline = vscode.window.createTextEditorDecorationType({
      after: { color: new vscode.ThemeColor(Colors.commentInlineText), margin: '0 0 0 2em', fontStyle: 'italic' },
    });
    this.disposables.push(
      vscode.window.onDidChangeVisibleTextEditors((editors) => this.decorate(editors)),
      session.onDidChange(() => this.decorate(vscode.window.visibleTextEditors)),
    );
    this.decorate(vscode.window.visibleTextEditors);
  }

  decorate(editors: readonly vscode.TextEditor[]): void {
    const corpus = this.session.corpus;
    for (const editor of editors) {
      const ref = parseDocUri(editor.document.uri);
      if (!ref || ref.kind !== 'example' || ref.side !== 'before' || !corpus) continue;
      const example = this.session.examples.get(ref.id);
      if (example) this.apply(editor, example);
    }
  }

  private apply(editor: vscode.TextEditor, example: ExampleRecord): void {
    const ranges: vscode.DecorationOptions[] = [];
    const inline: vscode.DecorationOptions[] = [];
    for (const t of groupThreads(example)) {
      const endLine = editor.document.lineAt(t.endLine);
      const end = t.endCharacter !== undefined && t.endCharacter > 0 ? new vscode.Position(t.endLine, Math.min(t.endCharacter, endLine.text.length)) : endLine.range.end;
      const range = new vscode.Range(new vscode.Position(t.startLine, t.startCharacter), end);
      const hoverMessage = threadHover(t);
      ranges.push({ range, hoverMessage });
      const count = t.replies.length > 0 ? ` (+${t.replies.length})` : '';
      inline.push({ range: endLine.range, renderOptions: { after: { contentText: plainText(inlineSummary(t.root) + count) } } });
    }
    editor.setDecorations(this.range, ranges);
    editor.setDecorations(this.inline, inline);
  }

  dispose(): void {
    this.range.dispose();
    this.inline.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
