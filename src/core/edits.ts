// The small changes the inspector makes to a corpus (a label, flag decisions, sealing a window) as
// plain data. The extension applies an edit to its open copy at once and hands the same edit to a
// background worker, which applies it to a copy of its own and saves the file (saving a large corpus
// takes seconds). Each edit carries its time, so both copies end up identical.
import { sealWindow, unsealWindow } from './config/windows';
import { decideFlag } from './flags/flagStore';
import { setLabel, type Label } from './labels/labels';
import { CorpusStore, EDIT_RESERVE_BYTES } from './store/corpusStore';

export type CorpusEdit =
  | { kind: 'label'; exampleKey: string; rater: string; label: Label; at: string }
  | { kind: 'flags'; flagIds: number[]; status: 'confirmed' | 'dismissed'; rater: string; at: string }
  | { kind: 'seal'; window: string; at: string }
  | { kind: 'unseal'; window: string; rater: string; at: string };

/** Applies one edit; returns the window's seal hash for 'seal'. Throws UserError for an impossible edit. */
export function applyEdit(store: CorpusStore, edit: CorpusEdit): string | undefined {
  switch (edit.kind) {
    case 'label':
      setLabel(store, edit.exampleKey, edit.rater, edit.label, edit.at);
      return undefined;
    case 'flags':
      for (const id of edit.flagIds) decideFlag(store, id, edit.status, edit.rater, edit.at);
      return undefined;
    case 'seal':
      return sealWindow(store, edit.window, edit.at);
    case 'unseal':
      unsealWindow(store, edit.window, edit.rater, edit.at);
      return undefined;
  }
}

/** Worker → main thread: the edits of request `seq` are in the file, or could not be saved. */
export type EditSaverReply = { type: 'saved'; seq: number } | { type: 'failed'; seq: number; message: string };

/** Main thread → worker: apply these edits in one transaction, then save the file. */
export interface EditSaverRequest {
  seq: number;
  edits: CorpusEdit[];
}

/**
 * The worker's side: opens `dbFile` once, then for each request applies its edits and saves
 * atomically, in order. A request that fails leaves this copy as the file is (rolled back).
 */
export function serveEdits(dbFile: string, onRequest: (handler: (r: EditSaverRequest) => void) => void, reply: (r: EditSaverReply) => void): void {
  const opening = CorpusStore.open(dbFile, { reserveBytes: EDIT_RESERVE_BYTES });
  let queue = Promise.resolve();
  onRequest((request) => {
    queue = queue.then(async () => {
      try {
        const store = await opening;
        store.transaction(() => request.edits.forEach((e) => applyEdit(store, e)));
        store.save();
        reply({ type: 'saved', seq: request.seq });
      } catch (e) {
        reply({ type: 'failed', seq: request.seq, message: (e as Error).message });
      }
    });
  });
}
