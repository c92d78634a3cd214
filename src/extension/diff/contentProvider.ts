// Serves the before/after hunks and removed-comment notes as read-only virtual documents.
import * as vscode from 'vscode';
import { getComment } from '../../core/inspect/example';
import type { CorpusSession } from '../session';
import { URI_SCHEME } from '../ids/views';
import { parseDocUri } from './uris';

export class CorpusContentProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly session: CorpusSession) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const corpus = this.session.corpus;
    const ref = parseDocUri(uri);
    if (!corpus || !ref) return '';
    if (ref.kind === 'example') {
      const e = this.session.examples.get(ref.id);
      if (!e) return `(example ${ref.id} is not in the current build)`;
      return ref.side === 'before' ? e.before : e.after;
    }
    const c = getComment(corpus.store, ref.id, corpus.buildId ?? -1);
    if (!c) return `(comment ${ref.id} is not in this corpus)`;
    // Plain text: the comment is shown as data, never rendered.
    return [
      `${c.project} #${c.changeNumber} ${c.path}  PS${c.patchSet ?? '?'}${c.line === null ? '' : ` line ${c.line}`}${c.side === 'PARENT' ? ' (parent side)' : ''}`,
      `removed by: ${c.removedBy ?? 'kept'}`,
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
  return [provider, vscode.workspace.registerTextDocumentContentProvider(URI_SCHEME, provider), session.onDidChange(() => provider.refreshAll())];
}
