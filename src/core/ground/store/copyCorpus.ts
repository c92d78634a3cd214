// A corpus database is more than its file: it keeps its file versions in a blob pack beside it, and
// may have a side journal of saves not yet folded in. A copy of the file alone is not the corpus.
import { copyFileSync, existsSync } from 'node:fs';
import { blobPackPath } from './blobPack';
import { journalPath } from './journal';

/** The files kept beside a corpus database under its name. */
export function filesBeside(dbFile: string): string[] {
  return [blobPackPath(dbFile), journalPath(dbFile)];
}

/** Copies a corpus database with the files it keeps beside it (those that exist). */
export function copyCorpus(fromDb: string, toDb: string): void {
  copyFileSync(fromDb, toDb);
  const [from, to] = [filesBeside(fromDb), filesBeside(toDb)];
  from.forEach((f, i) => {
    if (existsSync(f)) copyFileSync(f, to[i]);
  });
}
