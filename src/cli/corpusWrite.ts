// The skeleton of every CLI command that writes a corpus file without a job of its own (tag, protect,
// flags set, audit sample, labels import, halves register): the writer lock, waiting up to --wait and
// saying for whom; the file opened; the work; the file closed whatever happens. The work saves what it
// changed (some save only when something did), so a refused edit never rewrites the file.
import type { CliIo } from './command';
import { waitingLine } from './command';
import { CorpusStore, type OpenOptions } from '../core/ground/store/corpusStore';
import { withWriterLock } from '../core/ground/store/writerLock';

export interface CorpusWrite {
  db: string;
  /** As the lock file names the holder: "review-corpus tag". */
  command: string;
  /** From lockWaitMs, read with the other options before anything is opened. */
  waitMs: number;
  open?: OpenOptions;
}

export function withCorpusWrite(
  io: CliIo,
  w: CorpusWrite,
  work: (store: CorpusStore) => number | Promise<number>,
): Promise<number> {
  return withWriterLock(
    w.db,
    {
      command: w.command,
      waitMs: w.waitMs,
      signal: io.signal,
      onWait: (_, holder) => io.err(waitingLine(w.db, holder, w.waitMs)),
      mustExist: true,
    },
    async () => {
      const store = await CorpusStore.open(w.db, w.open);
      try {
        return await work(store);
      } finally {
        store.close();
      }
    },
  );
}
