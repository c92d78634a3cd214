// Opens a tree item: an example (or a removed hunk) as a native diff of two virtual documents,
// a removed comment as its example's diff when one exists, else as a read-only note.
import * as vscode from 'vscode';
import { evidenceLines } from '../../core/review/inspect/evidence';
import { getComment, type ExampleRecord } from '../../core/review/inspect/example';
import type { CorpusSession } from '../session';
import type { LineSpan } from '../../core/review/inspect/wholeFile';
import { SETTINGS_SECTION, Settings } from '../ids/settings';
import { keyDigest, viewThreads, type ExampleView, type ViewMode } from './exampleView';
import { changeUri, commentUri, exampleUri } from './uris';
import { plainText } from '../plainText';
import { exampleNameOfId } from '../../core/review/inspect/exampleName';

/**
 * Names the change, the file and the patch sets; "hunk only" (and why, when whole files were asked
 * for) when the diff shows the hunk alone; a removed example's (or hunk's) rule and evidence.
 */
export function diffTitle(
  e: Pick<ExampleRecord, 'project' | 'changeNumber' | 'path' | 'psBefore' | 'psAfter' | 'rule' | 'evidence'>,
  view?: Pick<ExampleView, 'whole' | 'fallback'>,
): string {
  let title = `${e.project} #${e.changeNumber} ${e.path} PS${e.psBefore} → PS${e.psAfter}`;
  if (view && !view.whole) title += view.fallback ? ` · hunk only: ${view.fallback}` : ' · hunk only';
  if (e.rule === null) return plainText(title);
  const evidence = evidenceLines(e.evidence);
  return plainText(`${title} · removed by ${e.rule}${evidence.length > 0 ? ` (${evidence.join(', ')})` : ''}`);
}

/** Whole files or the hunk alone, as the setting says (read when a diff opens; open diffs keep theirs). */
export function viewMode(): ViewMode {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION).get<boolean>(Settings.wholeFile, true) ? 'whole' : 'hunk';
}

export async function openExample(
  session: CorpusSession,
  id: number,
  focusCommentId?: number,
): Promise<ExampleRecord | undefined> {
  const corpus = session.corpus;
  if (!corpus) return undefined;
  const example = session.examples.get(id);
  if (!example) {
    void vscode.window.showWarningMessage(
      plainText(
        `Review Corpus: ${exampleNameOfId(corpus.store, id) ?? 'this example'} is not in the current build; open it again from the Review Corpus view.`,
      ),
    );
    return undefined;
  }
  const mode = viewMode();
  const before = exampleUri(example, 'before', mode);
  const after = exampleUri(example, 'after', mode);
  const view = session.examples.view({ id, key: keyDigest(example.key), view: mode })!;
  const threads = viewThreads(view);
  const focus = threads.find((t) => [t.root, ...t.replies].some((c) => c.id === focusCommentId)) ?? threads[0];
  const line = focus?.startLine ?? view.beforeHunk.from;
  await vscode.commands.executeCommand('vscode.diff', before, after, diffTitle(example, view), {
    preview: true,
  } satisfies vscode.TextDocumentShowOptions);
  // The diff's own `selection` option applies to the after side; the comment sits on the before side.
  // Both sides show the hunk (and the before side the comment) unless it is in view already.
  const editorOf = (uri: vscode.Uri) =>
    vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
  const afterEditor = editorOf(after);
  afterEditor?.revealRange(spanRange(view.afterHunk), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  const beforeEditor = editorOf(before);
  if (beforeEditor) {
    beforeEditor.selection = new vscode.Selection(line, 0, line, 0);
    const hunk = spanRange(view.beforeHunk);
    beforeEditor.revealRange(
      new vscode.Range(Math.min(line, hunk.start.line), 0, Math.max(line, hunk.end.line), 0),
      vscode.TextEditorRevealType.InCenterIfOutsideViewport,
    );
  }
  return example;
}

/** A document's lines [from, to) as a range over whole lines (an empty span: the line it sits before). */
export function spanRange(span: LineSpan): vscode.Range {
  return new vscode.Range(span.from, 0, Math.max(span.from, span.to - 1), 0);
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

/** A change a collection rule removed: what is known of it and why, as a read-only plain-text note. */
export async function openChange(
  session: CorpusSession,
  id: number,
  changeNumber: number,
): Promise<vscode.TextDocument | undefined> {
  if (!session.corpus) return undefined;
  const doc = await vscode.workspace.openTextDocument(changeUri(id, changeNumber));
  await vscode.window.showTextDocument(doc, { preview: true });
  return doc;
}
