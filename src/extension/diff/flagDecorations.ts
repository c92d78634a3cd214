// Shows an example's flags where they stand: a warning highlight on the comment, the matching span on
// the after side, and a warning in the Problems view from a DiagnosticCollection on the virtual document.
import * as vscode from 'vscode';
import { flagsOf, type StoredFlag } from '../../core/flags/flagStore';
import { Colors } from '../ids/colors';
import type { CorpusSession } from '../session';
import { groupThreads } from './threads';
import { exampleUri, parseDocUri } from './uris';
import { plainText } from '../plainText';

const REASON_TEXT: Record<string, string> = {
  suggestion_fence_variant: 'a suggestion fence the suggested_edit rule does not catch',
  fenced_after_side: 'a fenced block in the comment equals the after side',
  fix_applied_variant: 'a "Fix applied" reply the applied_fix rule does not catch',
  target_in_comment: 'the after side appears verbatim in the comment',
};

export function flagMessage(f: StoredFlag): string {
  return `Suspected reviewer-written target: ${REASON_TEXT[f.reason] ?? plainText(f.reason)}. Confirm to exclude it at the next build (manual_flag), or dismiss.`;
}

export class FlagDecorations implements vscode.Disposable {
  private readonly commentType = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor(Colors.flagRange),
    border: '1px dashed',
    borderColor: new vscode.ThemeColor('editorWarning.foreground'),
    overviewRulerColor: new vscode.ThemeColor('editorWarning.foreground'),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  });
  private readonly spanType = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor(Colors.flagSpan),
    isWholeLine: true,
  });
  readonly diagnostics = vscode.languages.createDiagnosticCollection('reviewCorpus.flags');
  /** Documents (by URI) whose editors or diagnostics show flags now. */
  private readonly flagged = new Set<string>();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly session: CorpusSession) {
    this.disposables = [
      vscode.window.onDidChangeVisibleTextEditors((e) => this.decorate(e)),
      session.onDidChange(() => this.refresh()),
    ];
    this.decorate(vscode.window.visibleTextEditors);
  }

  refresh(): void {
    this.diagnostics.clear();
    this.decorate(vscode.window.visibleTextEditors);
  }

  decorate(editors: readonly vscode.TextEditor[]): void {
    const corpus = this.session.corpus;
    if (!corpus) return;
    for (const editor of editors) {
      const ref = parseDocUri(editor.document.uri);
      if (!ref || ref.kind !== 'example') continue;
      const example = this.session.examples.get(ref.id);
      if (!example) continue;
      const flags = flagsOf(corpus.store, example.key).filter((f) => f.status === 'open');
      // Most examples have no flag: then a fresh editor needs no message at all, only one that shows some.
      const shown = editor.document.uri.toString();
      if (flags.length === 0 && !this.flagged.has(shown)) continue;
      if (flags.length === 0) this.flagged.delete(shown);
      else this.flagged.add(shown);
      const lastLine = editor.document.lineCount - 1;
      if (ref.side === 'before') {
        const threads = groupThreads(example);
        const ranges: vscode.DecorationOptions[] = [];
        const diags: vscode.Diagnostic[] = [];
        for (const f of flags) {
          const t = threads.find((th) => [th.root, ...th.replies].some((c) => c.id === f.commentId)) ?? threads[0];
          const range = new vscode.Range(t?.startLine ?? 0, 0, Math.min(t?.endLine ?? 0, lastLine), editor.document.lineAt(Math.min(t?.endLine ?? 0, lastLine)).text.length);
          ranges.push({ range, hoverMessage: new vscode.MarkdownString().appendText(flagMessage(f)) });
          const d = new vscode.Diagnostic(range, flagMessage(f), vscode.DiagnosticSeverity.Warning);
          d.source = 'Review Corpus';
          d.code = f.reason;
          diags.push(d);
        }
        editor.setDecorations(this.commentType, ranges);
        this.diagnostics.set(exampleUri(example.id, 'before', example.path), diags);
      } else {
        const spans = flags.filter((f) => f.afterLines).map((f) => new vscode.Range(Math.min(f.afterLines!.start, lastLine), 0, Math.min(f.afterLines!.end, lastLine), 0));
        editor.setDecorations(this.spanType, spans);
      }
    }
  }

  dispose(): void {
    this.commentType.dispose();
    this.spanType.dispose();
    this.diagnostics.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
