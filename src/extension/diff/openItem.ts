// Opens a tree item: an example (or a removed hunk) as a native diff of two virtual documents,
// a removed comment as its example's diff when one exists, else as a read-only note.
import * as vscode from 'vscode';
import { getComment, type ExampleRecord } from '../../core/inspect/example';
import type { CorpusSession } from '../session';
import { groupThreads } from './threads';
import { commentUri, exampleUri } from './uris';
import { plainText } from '../plainText';

export function diffTitle(e: Pick<ExampleRecord, 'project' | 'changeNumber' | 'path' | 'psBefore' | 'psAfter'>): string {
  return plainText(`${e.project} #${e.changeNumber} ${e.path} PS${e.psBefore} → PS${e.psAfter}`);
}

export async function openExample(session: CorpusSession, id: number, focusCommentId?: number): Promise<ExampleRecord | undefined> {
  const corpus = session.corpus;
  if (!corpus) return undefined;
  const example = session.examples.get(id);
  if (!example) {
    void vscode.window.showWarningMessage(plainText(`Example ${id} is not in the current build.`));
    return undefined;
  }
  const threads = groupThreads(example);
  const focus = threads.find((t) => [t.root, ...t.replies].some((c) => c.id === focusCommentId)) ?? threads[0];
  const line = focus?.startLine ?? 0;
  const selection = new vscode.Range(line, 0, line, 0);
  const before = exampleUri(id, 'before', example.path);
  await vscode.commands.executeCommand('vscode.diff', before, exampleUri(id, 'after', example.path), diffTitle(example), {
    preview: true,
  } satisfies vscode.TextDocumentShowOptions);
  // The diff's own `selection` option applies to the after side; the comment sits on the before side.
  const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === before.toString());
  if (editor) {
    editor.selection = new vscode.Selection(selection.start, selection.start);
    editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
  return example;
}

export async function openComment(session: CorpusSession, id: number): Promise<void> {
  const corpus = session.corpus;
  if (!corpus) return;
  const comment = getComment(corpus.store, id, corpus.buildId ?? -1);
  if (comment?.exampleId !== null && comment?.exampleId !== undefined) {
    await openExample(session, comment.exampleId, id);
    return;
  }
  const doc = await vscode.workspace.openTextDocument(commentUri(id));
  await vscode.window.showTextDocument(doc, { preview: true });
}
