// Shows why protected_overlap removed an example, where it stands: the matched span of the before or
// after side (or, for a comment match, the comment's range) highlighted, with a hover naming the
// reference set, the item and the policy. Reference ids and set names are the user's text, not a
// host's, but still go in as inert markdown: no link, no command.
import * as vscode from 'vscode';
import { decisionEvidence } from '../../core/review/inspect/evidence';
import type { Evidence } from '../../core/rules/types';
import { Colors } from '../ids/colors';
import type { CorpusSession } from '../session';
import { viewThreads, type ExampleView } from './exampleView';
import { parseDocUri } from './uris';
import { inertMarkdown } from '../plainText';
import { untrustedMarkdown } from '../untrustedMarkdown';
import { Disposable } from '../lifecycle';

/**
 * One line naming what the example overlaps; plain text. A cross-window match (decontam.crossWindow)
 * names the other window and quotes what matched on both sides, as its evidence holds them.
 */
export function protectedOverlapText(e: Evidence): string {
  const field = e.reference_field ? ` (its ${String(e.reference_field)})` : '';
  const jaccard = typeof e.jaccard === 'number' ? `, Jaccard ${e.jaccard}` : '';
  const set = String(e.reference_set);
  const quote =
    typeof e.matched_text === 'string'
      ? ` Matched here: "${e.matched_text}"; in ${set.replace(/^window:/, '')}: "${String(e.reference_text)}".`
      : '';
  return (
    `Protected overlap: reference "${set}" item "${String(e.reference_id)}"${field}, policy ${String(e.policy)}${jaccard}.${quote} ` +
    'Removed from the corpus by protected_overlap.'
  );
}

export interface ShownOverlap {
  uri: string;
  range: vscode.Range;
  text: string;
}

export class ProtectedOverlapDecorations extends Disposable {
  private readonly span = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor(Colors.flagSpan),
    border: '1px solid',
    borderColor: new vscode.ThemeColor('editorError.foreground'),
    overviewRulerColor: new vscode.ThemeColor('editorError.foreground'),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  });
  /** What is drawn now, per document: the integration suite reads it. */
  readonly shown = new Map<string, ShownOverlap>();

  constructor(private readonly session: CorpusSession) {
    super();
    this._register(this.span);
    this._register(vscode.window.onDidChangeVisibleTextEditors((e) => this.decorate(e)));
    this._register(session.onDidChange(() => this.decorate(vscode.window.visibleTextEditors)));
    this.decorate(vscode.window.visibleTextEditors);
  }

  decorate(editors: readonly vscode.TextEditor[]): void {
    const corpus = this.session.corpus;
    for (const editor of editors) {
      const ref = parseDocUri(editor.document.uri);
      if (!ref || ref.kind !== 'example') continue;
      // No corpus, or the example has left the build: its span goes too.
      const view = corpus ? this.session.examples.view(ref) : undefined;
      const example = view?.example;
      const uri = editor.document.uri.toString();
      const range = example?.rule === 'protected_overlap' ? this.rangeOf(editor, view!, ref.side) : undefined;
      if (!range) {
        if (this.shown.delete(uri)) editor.setDecorations(this.span, []);
        continue;
      }
      const evidence = decisionEvidence(corpus!.store, example!.buildId, example!.unit, example!.key)!;
      const text = protectedOverlapText(evidence);
      const hover = untrustedMarkdown();
      hover.appendMarkdown(inertMarkdown(text));
      editor.setDecorations(this.span, [{ range, hoverMessage: hover }]);
      this.shown.set(uri, { uri, range, text });
    }
  }

  /** The matched span on this side, or undefined when the match lies elsewhere (or there is no evidence). */
  private rangeOf(editor: vscode.TextEditor, view: ExampleView, side: 'before' | 'after'): vscode.Range | undefined {
    const example = view.example;
    const e = decisionEvidence(this.session.corpus!.store, example.buildId, example.unit, example.key);
    if (!e || typeof e.span_start !== 'number' || typeof e.span_end !== 'number') return undefined;
    const doc = editor.document;
    if (e.side === side) {
      // The span's offsets are in the hunk's text; in a whole file that text starts at the hunk's first line.
      const hunk = doc.offsetAt(new vscode.Position((side === 'before' ? view.beforeHunk : view.afterHunk).from, 0));
      return new vscode.Range(doc.positionAt(hunk + e.span_start), doc.positionAt(hunk + e.span_end));
    }
    if (e.side !== 'comment' || side !== 'before') return undefined;
    // A comment matched: highlight the lines its thread is drawn on.
    const thread = viewThreads(view).find((t) => [t.root, ...t.replies].some((c) => c.gerritId === e.comment));
    if (!thread) return undefined;
    const last = Math.min(thread.endLine, doc.lineCount - 1);
    return new vscode.Range(thread.startLine, 0, last, doc.lineAt(last).text.length);
  }
}
