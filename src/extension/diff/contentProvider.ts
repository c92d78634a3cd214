// Serves an example's two sides (whole files or the hunk alone: exampleView.ts), removed-comment notes and Compare Builds reports as read-only virtual documents.
import * as vscode from 'vscode';
import { commentEvidence, evidenceLines } from '../../core/review/inspect/evidence';
import { getComment } from '../../core/review/inspect/example';
import { changeNoteText, getRemovedChange } from '../../core/review/inspect/changeNote';
import { compareBuilds, comparisonReport } from '../../core/publish/verify/compareBuilds';
import { buildLabel } from '../../core/publish/versions/tags';
import type { CorpusSession } from '../session';
import { URI_SCHEME } from '../ids/views';
import { parseDocUri } from './uris';
import { wholeExampleText } from './twin';
import { exampleDocName, unavailableLine } from './unavailable';

export class CorpusContentProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly session: CorpusSession) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const corpus = this.session.corpus;
    const ref = parseDocUri(uri);
    if (!ref) return 'This document names nothing Review Corpus can show. Open an example from the Review Corpus view.';
    if (ref.kind === 'example') {
      const view = corpus ? this.session.examples.view(ref) : undefined;
      if (!view) return unavailableLine(this.session, exampleDocName(this.session, ref, uri.path));
      return ref.side === 'before' ? view.before : view.after;
    }
    if (!corpus) return unavailableLine(this.session, uri.path.split('/').pop() ?? 'This document');
    if (ref.kind === 'whole') {
      const e = this.session.examples.get(ref.id);
      return e
        ? wholeExampleText(e)
        : `${uri.path.split('/').pop()} is not in the current build (a rebuild removed it or numbered the examples anew). Open it again from the Review Corpus view.`;
    }
    if (ref.kind === 'compare') return compareReport(corpus.store, ref.from, ref.to);
    if (ref.kind === 'change') {
      const change = getRemovedChange(corpus.store, corpus.buildId ?? -1, ref.id);
      return change
        ? changeNoteText(change)
        : `Change #${/change-(\d+)\.txt$/.exec(uri.path)?.[1] ?? '?'} is not among the changes the current build removed. Open it again from the Review Corpus view.`;
    }
    const c = getComment(corpus.store, ref.id, corpus.buildId ?? -1);
    if (!c)
      return 'This removed comment is not in the corpus file open now. Open it again from the Review Corpus view.';
    // Plain text: the comment is shown as data, never rendered.
    return [
      `${c.project} #${c.changeNumber} ${c.path}  PS${c.patchSet ?? '?'}${c.line === null ? '' : ` line ${c.line}`}${c.side === 'PARENT' ? ' (parent side)' : ''}`,
      `removed by: ${c.removedBy ?? 'kept'}`,
      ...evidenceLines(commentEvidence(corpus.store, corpus.buildId ?? -1, ref.id)).map((l) => `  ${l}`),
      `author: ${c.author ?? 'unknown'}`,
      '',
      c.message,
      '',
    ].join('\n');
  }

  refreshAll(): void {
    for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === URI_SCHEME) this.changed.fire(doc.uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerContentProvider(session: CorpusSession): vscode.Disposable[] {
  const provider = new CorpusContentProvider(session);
  return [
    provider,
    vscode.workspace.registerTextDocumentContentProvider(URI_SCHEME, provider),
    session.onDidChange(() => provider.refreshAll()),
  ];
}

/** Plain text: example keys carry host file names, shown as data only. The same lines as `review-corpus diff --verbose`. */
function compareReport(store: Parameters<typeof compareBuilds>[0], from: number, to: number): string {
  let cmp;
  try {
    cmp = compareBuilds(store, from, to);
  } catch (e) {
    return `(cannot compare build ${from} with build ${to}: ${e instanceof Error ? e.message : String(e)})`;
  }
  const names = { from: buildLabel(store, from), to: buildLabel(store, to) };
  const { rows, summary } = comparisonReport(cmp, names, true);
  const section = (kind: string, title: string) => {
    const list = rows.filter((r) => r[0] === kind).map((r) => `- ${r.slice(1).join('  ')}`);
    return [`## ${title} (${list.length})`, ...list, ''];
  };
  return [
    `# ${names.from} → ${names.to}`,
    '',
    ...summary,
    '',
    ...section('left', 'Left: key, the rule that removed it'),
    ...section('entered', 'Entered: key, the rule that had removed it, why it entered'),
    ...section('moved', 'Moved between windows: key, from, to'),
    ...section('changed', 'Kept in both, text changed: key, window'),
  ].join('\n');
}
