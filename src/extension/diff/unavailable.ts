// What an example document says when its text cannot be shown: one line saying why and what to do,
// never an empty editor. The example is named as the user knows it (exampleName), never by row id.
import path from 'node:path';
import { getExample } from '../../core/review/inspect/example';
import { exampleName } from '../../core/review/inspect/exampleName';
import type { CorpusSession } from '../session';
import { keyDigest } from './exampleView';
import type { DocRef } from './uris';

/** The example's name: from its record when the file still holds it, else from the document's path (`/<org> #<change> <file>`). */
export function exampleDocName(
  session: CorpusSession,
  ref: Extract<DocRef, { kind: 'example' }>,
  uriPath: string,
): string {
  const store = session.corpus?.store;
  const e = store ? getExample(store, ref.id) : undefined;
  if (e && keyDigest(e.key) === ref.key)
    return exampleName({ org: e.org, changeNumber: e.changeNumber, path: e.path, line: e.beforeStart });
  return uriPath.replace(/^\//, '');
}

/** Why the example `name` (exampleDocName) cannot be shown, and what to do, as the document's one line. */
export function unavailableLine(session: CorpusSession, name: string): string {
  const file = session.dbFile ? path.basename(session.dbFile) : 'the corpus file';
  if (!session.corpus) {
    if (session.openProblem)
      return `${name} cannot be shown: ${session.openProblem}. Restore what it names beside ${file} (or fetch again), then run "Review Corpus: Refresh".`;
    if (session.configFile)
      return `${name} cannot be shown: ${file} has not been fetched on this machine. Run "Review Corpus: Fetch from Hosts" and "Rebuild", then open the example from the Review Corpus view.`;
    return `${name} cannot be shown: no corpus is open. Open its corpus.json ("Review Corpus: Open Corpus…"), then open the example from the Review Corpus view.`;
  }
  return `${name} is not in the current build (a rebuild removed it or numbered the examples anew). Open it again from the Review Corpus view.`;
}
