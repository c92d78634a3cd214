// Shows an example's flags where they stand: a warning highlight on the comment, the matching span on
// the after side, and a warning in the Problems view from a DiagnosticCollection on the virtual document.
import * as vscode from 'vscode';
import { flagsOf, type StoredFlag } from '../../core/build/flags/flagStore';
import { Colors } from '../ids/colors';
import type { CorpusSession } from '../session';
import { viewThreads } from './exampleView';
import { parseDocUri } from './uris';
import { inertMarkdown, plainText } from '../plainText';
import { Disposable } from '../lifecycle';
import { untrustedMarkdown } from '../untrustedMarkdown';

const REASON_TEXT: Record<string, string> = {
  suggestion_fence_variant: 'a suggestion fence the suggested_edit rule does not catch',
  fenced_after_side: 'a fenced block in the comment equals the after side',
  fix_applied_variant: 'a "Fix applied" reply the applied_fix rule does not catch',
  target_in_comment: 'the after side appears verbatim in the comment',
};

export function flagMessage(f: StoredFlag): string {
  return `Suspected reviewer-written target: ${REASON_TEXT[f.reason] ?? plainText(f.reason)}. Confirm to exclude it at the next build (manual_flag), or reject.`;
}

export class FlagDecorations extends Disposable {
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

  constructor(private readonly session: CorpusSession) {
    super();
    this._register(this.commentType);
    this._register(this.spanType);
    this._register(this.diagnostics);
    this._register(vscode.window.onDidChangeVisibleTextEditors((e) => this.decorate(e)));
    this._register(session.onDidChange(() => this.refresh()));
    this._register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.flagged.has(e.document.uri.toString()))
          this.decorate(vscode.window.visibleTextEditors.filter((ed) => ed.document === e.document));
      }),
    );
    this.decorate(vscode.window.visibleTextEditors);
  }

  refresh(): void {
    this.diagnostics.clear();
    this.decorate(vscode.window.visibleTextEditors);
  }

  decorate(editors: readonly vscode.TextEditor[]): void {
    const corpus = this.session.corpus;
    for (const editor of editors) {
      const ref = parseDocUri(editor.document.uri);
      if (ref?.kind !== 'example') continue;
      const shown = editor.document.uri.toString();
      const view = corpus ? this.session.examples.view(ref) : undefined;
      // Most examples have no flag: then a fresh editor needs no message at all, only one that shows some.
      const flags = view ? flagsOf(corpus!.store, view.example.key).filter((f) => f.status === 'open') : [];
      if (flags.length === 0 && !this.flagged.has(shown)) continue;
      if (flags.length === 0) this.flagged.delete(shown);
      else this.flagged.add(shown);
      const lastLine = editor.document.lineCount - 1;
      if (ref.side === 'before') {
        const threads = view ? viewThreads(view) : [];
        const ranges: vscode.DecorationOptions[] = [];
        const diags: vscode.Diagnostic[] = [];
        for (const f of flags) {
          const t = threads.find((th) => [th.root, ...th.replies].some((c) => c.id === f.commentId)) ?? threads[0];
          const last = Math.min(t?.endLine ?? 0, lastLine);
          const range = new vscode.Range(
            Math.min(t?.startLine ?? 0, last),
            0,
            last,
            editor.document.lineAt(last).text.length,
          );
          ranges.push({ range, hoverMessage: untrustedMarkdown().appendMarkdown(inertMarkdown(flagMessage(f))) });
          const d = new vscode.Diagnostic(range, flagMessage(f), vscode.DiagnosticSeverity.Warning);
          d.source = 'Review Corpus';
          d.code = f.reason;
          diags.push(d);
        }
        editor.setDecorations(this.commentType, ranges);
        this.diagnostics.set(editor.document.uri, diags);
      } else {
        // The flag's after-side lines are the hunk's: in a whole file they start at the hunk's first line.
        const offset = view?.afterHunk.from ?? 0;
        const spans = flags
          .filter((f) => f.afterLines)
          .map(
            (f) =>
              new vscode.Range(
                Math.min(offset + f.afterLines!.start, lastLine),
                0,
                Math.min(offset + f.afterLines!.end, lastLine),
                0,
              ),
          );
        editor.setDecorations(this.spanType, spans);
      }
    }
  }
}
