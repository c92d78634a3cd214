// The small changes the inspector makes to a corpus (a label, flag decisions, sealing a window,
// registering a protected reference set, tagging a build) as
// plain data. The extension applies an edit to its open copy at once and hands the same edit to a
// background worker, which applies it to a copy of its own and saves the file (saving a large corpus
// takes seconds). Each edit carries its time, so both copies end up identical.
import { sealWindow, unsealWindow } from '../ground/config/windows';
import { decideFlag } from '../build/flags/flagDecisions';
import { clearLabel, setLabel, type Label } from '../review/labels/labels';
import { statSync } from 'node:fs';
import { CorpusStore, SMALL_EDITS_OPEN } from '../ground/store/corpusStore';
import { withWriterLock } from '../ground/store/writerLock';
import { journalPath } from '../ground/store/journal';
import { registerReferenceSet, type ReferenceItem } from '../rules/decontam/referenceSets';
import { drawAuditSample } from '../review/labels/auditSample';
import { tagAndFreeze } from '../publish/export/frozenExport';
import { registerHalves } from '../build/halves/halvesRegistry';
import { setQualityLabel } from '../build/judgments/judgmentStore';
import type { QualityLabel } from '../build/judgments/types';

export type CorpusEdit =
  | { kind: 'label'; exampleKey: string; rater: string; label: Label; at: string }
  /** Undoes a rater's first label of an example (undoing a later one is a 'label' edit back to the one before, with its time). */
  | { kind: 'unlabel'; exampleKey: string; rater: string }
  | { kind: 'flags'; flagIds: number[]; status: 'confirmed' | 'rejected'; rater: string; at: string }
  | { kind: 'seal'; window: string; at: string }
  | { kind: 'unseal'; window: string; rater: string; at: string }
  | { kind: 'protect'; name: string; items: ReferenceItem[]; replace: boolean; at: string }
  | { kind: 'auditSample'; buildId: number; size: number; seed: string; redraw: boolean; at: string }
  | { kind: 'tag'; buildId: number; name: string; at: string }
  | { kind: 'halves'; buildId: number; org: string; window?: string; replace: boolean; at: string }
  | { kind: 'qualityLabel'; label: QualityLabel };

/** Applies one edit; returns the window's seal hash for 'seal', the set's SHA-256 for 'protect', the name for 'tag'. Throws UserError for an impossible edit. */
export function applyEdit(store: CorpusStore, edit: CorpusEdit): string | undefined {
  switch (edit.kind) {
    case 'label':
      setLabel(store, edit.exampleKey, edit.rater, edit.label, edit.at);
      return undefined;
    case 'unlabel':
      clearLabel(store, edit.exampleKey, edit.rater);
      return undefined;
    case 'flags':
      for (const id of edit.flagIds) decideFlag(store, id, edit.status, edit.rater, edit.at);
      return undefined;
    case 'seal':
      return sealWindow(store, edit.window, edit.at);
    case 'unseal':
      unsealWindow(store, edit.window, edit.rater, edit.at);
      return undefined;
    case 'auditSample': // deterministic in build and seed, so both copies draw the same items
      return drawAuditSample(store, {
        buildId: edit.buildId,
        size: edit.size,
        seed: edit.seed,
        redraw: edit.redraw,
        at: edit.at,
      }).itemsSha256;
    case 'protect':
      return registerReferenceSet(store, edit.name, edit.items, { replace: edit.replace, at: edit.at }).sha256;
    case 'tag':
      return tagAndFreeze(store, edit.buildId, edit.name, edit.at).name;
    case 'halves':
      registerHalves(store, {
        buildId: edit.buildId,
        org: edit.org,
        window: edit.window,
        replace: edit.replace,
        at: edit.at,
      });
      return undefined;
    case 'qualityLabel': // a hand label on the judge's framework (Label Comment Quality…); carries its own time
      setQualityLabel(store, edit.label);
      return undefined;
  }
}

/**
 * Worker → main thread: the edits of request `seq` are in the file, or could not be saved; or, before
 * either, the save waits for another writer of the file (`message` names it).
 */
export type EditSaverReply =
  | { type: 'saved'; seq: number }
  | { type: 'failed'; seq: number; message: string }
  | { type: 'waiting'; seq: number; message: string };

/** Main thread → worker: apply these edits in one transaction, then save the file. */
export interface EditSaverRequest {
  seq: number;
  edits: CorpusEdit[];
}

/** What the saver writes in the corpus file's lock, for another writer's message. */
export const SAVER_LOCK_COMMAND = 'Review Corpus: saving labels and flag decisions';

/**
 * Identifies the file's current state on disk: every atomic save is a new inode with a new mtime, and
 * every journal append (store/journal.ts) changes the journal's size and mtime.
 */
function fileStamp(file: string): string {
  const stamp = (f: string) => {
    const s = statSync(f, { bigint: true, throwIfNoEntry: false });
    return s ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : 'none';
  };
  const s = statSync(file, { bigint: true }); // a missing corpus is an error here, as before
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}|${stamp(journalPath(file))}`;
}

interface SaverCopy {
  store: CorpusStore;
  /** The file's stamp when this copy was read or last saved: another writer's save changes it. */
  stamp: string;
}

/**
 * How many diffs an older tool stored inline one saver save moves into blobs (about 0.5 ms each on a
 * quiet machine, 3.5 ms under load): a label decision on a corpus of schema 4 reaches the disk in
 * seconds, not after every diff has moved (80k at 100k examples); the rest move with the saves after
 * it, or all at once in a build or fetch.
 */
export const SAVER_INLINE_DIFFS_PER_SAVE = 1000;

async function readCopy(dbFile: string): Promise<SaverCopy> {
  const stamp = fileStamp(dbFile); // before the read: a save in between makes the stamp old, never the bytes
  return { stamp, store: await CorpusStore.open(dbFile, SMALL_EDITS_OPEN) };
}

/**
 * The worker's side: reads `dbFile` once, then for each request takes the corpus file's writer lock
 * (waiting for as long as another writer holds it: a decision is never dropped), applies its edits and
 * saves atomically, in order. If another writer (a CLI build or fetch) saved the file since this copy
 * was read, the copy is read again under the lock first, so that writer's work is kept. A request that
 * fails leaves the file as it was; the next one starts from the file.
 */
export function serveEdits(
  dbFile: string,
  onRequest: (handler: (r: EditSaverRequest) => void) => void,
  reply: (r: EditSaverReply) => void,
  opts: { lockPollMs?: number; inlineDiffsPerSave?: number } = {},
): void {
  // Read at once, before any request and without the lock, so the first save rarely waits for a
  // read; the stamp says under the lock whether it is still the file.
  let opening: Promise<SaverCopy | undefined> | undefined = readCopy(dbFile).catch(() => undefined);
  let copy: SaverCopy | undefined;
  let queue = Promise.resolve();
  onRequest((request) => {
    queue = queue.then(async () => {
      let result: EditSaverReply;
      try {
        await withWriterLock(
          dbFile,
          {
            command: SAVER_LOCK_COMMAND,
            waitMs: Infinity,
            pollMs: opts.lockPollMs,
            mustExist: true,
            onWait: (message) => reply({ type: 'waiting', seq: request.seq, message }),
          },
          async () => {
            if (opening) {
              copy = await opening;
              opening = undefined;
            }
            if (copy && copy.stamp !== fileStamp(dbFile)) {
              copy.store.close();
              copy = undefined;
            }
            copy ??= await readCopy(dbFile);
            const store = copy.store;
            try {
              store.transaction(() => request.edits.forEach((e) => applyEdit(store, e)));
              store.save({ inlineDiffsAtMost: opts.inlineDiffsPerSave ?? SAVER_INLINE_DIFFS_PER_SAVE });
              copy.stamp = fileStamp(dbFile);
            } catch (e) {
              store.close(); // may hold edits the file does not: the next request reads the file again
              copy = undefined;
              throw e;
            }
          },
        );
        result = { type: 'saved', seq: request.seq }; // sent once the lock is released
      } catch (e) {
        result = { type: 'failed', seq: request.seq, message: (e as Error).message };
      }
      reply(result);
    });
  });
}
