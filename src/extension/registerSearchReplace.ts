// "Export Search/Replace…" (every kept example as verified Search/Replace blocks, in a job process like
// Export…) and "Show Search/Replace" (the active example diff's blocks, as a read-only plain-text
// document: file text and host paths shown as data, never rendered).
import * as vscode from 'vscode';
import { exampleNameOfId } from '../core/review/inspect/exampleName';
import path from 'node:path';
import { exampleSearchReplaceById, searchReplaceDocument } from '../core/publish/export/exportSearchReplace';
import { searchReplaceParameters } from '../core/rules/ruleParameters';
import { Commands } from './ids/commands';
import { SEARCH_REPLACE_SCHEME } from './ids/views';
import type { CorpusSession } from './session';
import type { ActiveExample } from './diff/activeExample';
import { runExportJob } from './jobs/exportJob';
import { registerCommand } from './registerCommand';

/** review-corpus-search-replace:/<build>/<example id>/search-replace.txt: the id alone names the example. */
function searchReplaceUri(buildId: number, exampleId: number): vscode.Uri {
  return vscode.Uri.from({ scheme: SEARCH_REPLACE_SCHEME, path: `/${buildId}/${exampleId}/search-replace.txt` });
}

class SearchReplaceDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly session: CorpusSession) {}

  /** Another corpus, a rebuild or a reloaded config (mergeGapLines): the open documents say so. */
  refreshAll(): void {
    for (const doc of vscode.workspace.textDocuments)
      if (doc.uri.scheme === SEARCH_REPLACE_SCHEME) this.changed.fire(doc.uri);
  }

  dispose(): void {
    this.changed.dispose();
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [, build, id] = uri.path.split('/');
    const corpus = this.session.corpus;
    if (!corpus || !/^\d+$/.test(id ?? '')) return '(no corpus is open)';
    if (Number(build) !== corpus.buildId)
      return `${exampleNameOfId(corpus.store, Number(id)) ?? 'This example'} is of build ${build}, not the current build ${corpus.buildId ?? 'none'}. Open it again from the Review Corpus view.`;
    const x = exampleSearchReplaceById(corpus.store, Number(id), searchReplaceParameters(corpus.config));
    return x
      ? searchReplaceDocument(x)
      : `${exampleNameOfId(corpus.store, Number(id)) ?? 'This example'} is not in the current build. Open it again from the Review Corpus view.`;
  }
}

export function registerSearchReplace(
  context: vscode.ExtensionContext,
  session: CorpusSession,
  active: ActiveExample,
): vscode.Disposable[] {
  const documents = new SearchReplaceDocuments(session);
  return [
    documents,
    vscode.workspace.registerTextDocumentContentProvider(SEARCH_REPLACE_SCHEME, documents),
    session.onDidChange(() => documents.refreshAll()),
    registerCommand(session.log, Commands.exportSearchReplace, async (target?: string) => {
      const c = session.corpus;
      if (!c) throw new Error('open a corpus first');
      const out =
        target ??
        (
          await vscode.window.showSaveDialog({
            defaultUri: vscode.Uri.file(path.join(path.dirname(c.configFile), 'search-replace.jsonl')),
            filters: { 'JSON Lines': ['jsonl'] },
            title: 'Export kept examples as Search/Replace blocks',
          })
        )?.fsPath;
      if (!out) return undefined;
      return runExportJob(context.extensionPath, session, 'Review Corpus: Export Search/Replace', {
        kind: 'export',
        format: 'search-replace',
        configFile: c.configFile,
        out,
      });
    }),
    registerCommand(session.log, Commands.showSearchReplace, async () => {
      const c = session.corpus;
      const e = active.example;
      if (!c || !e || c.buildId === undefined) throw new Error('open an example diff first');
      const doc = await vscode.workspace.openTextDocument(searchReplaceUri(c.buildId, e.id));
      await vscode.languages.setTextDocumentLanguage(doc, 'plaintext');
      await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
      return doc;
    }),
  ];
}
