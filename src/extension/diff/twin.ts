// "Open Kept Twin": a duplicate beside the example its evidence names. The two open as one native diff
// of two whole-example documents (before side, then after side, each under a marker line), kept twin
// on the left. One diff rather than two editors, and both sides rather than only the after side,
// because the Jaccard that removed the example is taken over before + after: the diff then marks
// exactly the text by which the pair differs, on either side, and nothing where they agree.
import * as vscode from 'vscode';
import { exampleNameOfId, exampleNameOfKey } from '../../core/review/inspect/exampleName';
import { findTwin, twinStatus } from '../../core/review/inspect/evidence';
import type { ExampleRecord } from '../../core/review/inspect/example';
import type { CorpusSession } from '../session';
import { plainText } from '../plainText';
import { wholeExampleUri } from './uris';

/** The document of one whole example: a marker line, the before side, a marker line, the after side. */
export function wholeExampleText(e: Pick<ExampleRecord, 'before' | 'after' | 'psBefore' | 'psAfter'>): string {
  const ended = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
  return `=== before (PS${e.psBefore}) ===\n${ended(e.before)}=== after (PS${e.psAfter}) ===\n${ended(e.after)}`;
}

/** The title of a twin diff: which example is the kept twin, which the duplicate, and its rule. */
export function twinDiffTitle(twin: ExampleRecord, removed: ExampleRecord): string {
  return plainText(
    `${twin.project} #${twin.changeNumber} ${twin.path} (twin) ↔ #${removed.changeNumber} ${removed.path} (${removed.rule ?? 'kept'})`,
  );
}

/** Opens example `id` beside its twin; a warning (and undefined) when it names none or the twin is not in the build. */
export async function openKeptTwin(
  session: CorpusSession,
  id: number,
): Promise<{ twin: ExampleRecord; removed: ExampleRecord } | undefined> {
  const corpus = session.corpus;
  const removed = corpus ? session.examples.get(id) : undefined;
  if (!corpus || !removed) {
    void vscode.window.showWarningMessage(
      plainText(
        `Review Corpus: ${(corpus && exampleNameOfId(corpus.store, id)) ?? 'this example'} is not in the current build; open it again from the Review Corpus view.`,
      ),
    );
    return undefined;
  }
  const found = findTwin(corpus.store, removed.buildId, removed.evidence);
  if (!found) {
    void vscode.window.showWarningMessage(
      plainText(
        `Review Corpus: ${exampleNameOfKey(removed.key) ?? removed.key} is not a duplicate; its removal names no twin.`,
      ),
    );
    return undefined;
  }
  const twin = found.id === null ? undefined : session.examples.get(found.id);
  if (!twin) {
    void vscode.window.showWarningMessage(
      plainText(`Review Corpus: the twin ${exampleNameOfKey(found.key) ?? found.key} is ${twinStatus(found)}.`),
    );
    return undefined;
  }
  await vscode.commands.executeCommand(
    'vscode.diff',
    wholeExampleUri(twin.id, twin.path),
    wholeExampleUri(removed.id, removed.path),
    twinDiffTitle(twin, removed),
    {
      preview: true,
    } satisfies vscode.TextDocumentShowOptions,
  );
  return { twin, removed };
}
