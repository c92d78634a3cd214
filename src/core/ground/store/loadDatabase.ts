// Opening a corpus database for CorpusStore.open: read whole into one Buffer with room to grow, or
// paged (pagedFile.ts); either way its header checked, its journal replayed, and sql.js's database
// opened over it.
import { constants as bufferConstants } from 'node:buffer';
import { open as openFile, type FileHandle } from 'node:fs/promises';
import type { Database } from 'sql.js';
import { CorpusFileError } from './errors';
import {
  baseIdOf,
  headerPageSize,
  journalPath,
  PageTracker,
  replay,
  replayExtent,
  trackWrites,
  type BaseId,
  type JournalState,
} from './journal';
import { PagedFile } from './pagedFile';
import { loadSqlJs } from './sqljs';

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * Bytes per read call: each is done on libuv's thread pool, between them the event loop runs. Also
 * keeps every call under the 2^31 - 1 bytes one read may ask for, whatever the file's size.
 */
export const READ_CHUNK_BYTES = 16 << 20;

/** One read call (a test seam, to watch what each call asks for); resolves with the bytes read. */
export type ReadChunk = (handle: FileHandle, bytes: Buffer, offset: number, length: number) => Promise<number>;

const readChunk: ReadChunk = async (handle, bytes, offset, length) =>
  (await handle.read(bytes, offset, length, offset)).bytesRead;

/** The reserve is only room to grow into: never so much that the Buffer passes what Node allocates. */
export function reserveWithin(size: number, reserve: number): number {
  return Math.max(0, Math.min(reserve, bufferConstants.MAX_LENGTH - size));
}

/**
 * Reads a file into a Buffer with `reserve` zero bytes after it, without an intermediate copy. A
 * Buffer, because sql.js slice()s its input: on a Buffer that is a view (so the Buffer becomes the
 * in-memory file), on a plain Uint8Array a second full copy. Read in chunks off the calling thread:
 * on a VM the page faults of filling 800 MB take seconds, which would otherwise freeze the
 * extension host's main thread for as long.
 */
export async function readWithReserve(
  file: string,
  reserve: number | ((size: number) => number),
  read = readChunk,
): Promise<{ bytes: Buffer; size: number }> {
  const handle = await openFile(file, 'r');
  try {
    const size = (await handle.stat()).size;
    if (size > bufferConstants.MAX_LENGTH)
      throw new CorpusFileError(
        file,
        `too large to open: ${size} bytes, more than the ${bufferConstants.MAX_LENGTH} this Node.js holds in one Buffer`,
      );
    const bytes = Buffer.alloc(size + reserveWithin(size, typeof reserve === 'number' ? reserve : reserve(size)));
    let offset = 0;
    while (offset < size) {
      const bytesRead = await read(handle, bytes, offset, Math.min(READ_CHUNK_BYTES, size - offset));
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return { bytes, size };
  } finally {
    await handle.close();
  }
}

/**
 * One-line errors for a file that is empty, not SQLite, or cut short; `head` is its first 100 bytes.
 * A file shorter than its header says is damaged wherever the cut is: caught here, before any query,
 * so no command reads the pages that are still there as if they were the whole corpus.
 */
function checkHeader(file: string, head: Uint8Array, size: number): void {
  if (size === 0) throw new CorpusFileError(file, 'empty file, not a corpus');
  const magic = Buffer.from(head.subarray(0, 16)).toString('latin1');
  if (size < 16 || magic !== SQLITE_MAGIC) throw new CorpusFileError(file, 'not a SQLite database, so not a corpus');
  if (size < 100)
    throw new CorpusFileError(file, `damaged: cut short: ${size} bytes, less than SQLite's 100-byte header`);
  const expected = headerDatabaseSize(head);
  if (expected !== undefined && size < expected)
    throw new CorpusFileError(file, `damaged: cut short: ${size} bytes, where its header says ${expected}`);
}

/**
 * The database's size by its header (page count at offset 28 × page size), or undefined where SQLite
 * itself would not trust that count: a file last written by a SQLite before 3.7.0 leaves "version valid
 * for" (offset 92) behind the change counter (offset 24). Every save of ours writes the whole database
 * (or journals pages past it), so a corpus file is never shorter than this.
 */
function headerDatabaseSize(head: Uint8Array): number | undefined {
  const view = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const pages = view.readUInt32BE(28);
  if (pages === 0 || view.readUInt32BE(92) !== view.readUInt32BE(24)) return undefined;
  return pages * headerPageSize(head);
}

/** Applies the journal to `image`; its size after, or undefined when there is none or it is stale (noticed). */
function replayJournal(
  file: string,
  journal: JournalState,
  image: Uint8Array,
  base: BaseId,
  notice: (message: string) => void,
): number | undefined {
  const size = journal.read ? replay(journal.read, image, base) : undefined;
  if (journal.read && size === undefined)
    notice(`${journalPath(file)}: its base is not ${file} (a fold ended before removing it); ignored`);
  if (journal.notice && (size !== undefined || !journal.read)) notice(journal.notice);
  return size;
}

/** sql.js's database over `bytes`, after `setup`; SQLite finding it damaged is a one-line CorpusFileError. */
async function openDatabase(file: string, bytes: Uint8Array, setup: string[] = []): Promise<Database> {
  const SQL = await loadSqlJs();
  let db: Database | undefined;
  try {
    db = new SQL.Database(bytes);
    for (const sql of setup) db.exec(sql);
    db.exec('SELECT count(*) FROM sqlite_master');
    return db;
  } catch (e) {
    db?.close();
    if (e instanceof CorpusFileError) throw e;
    throw new CorpusFileError(file, `damaged: ${(e as Error).message}`);
  }
}

/** A database opened for a CorpusStore, and what its saves need to know. */
export interface LoadedDatabase {
  db: Database;
  /** The Buffer sql.js's in-memory file is a view of (a whole open). */
  image?: Buffer;
  /** The file under a paged open. */
  paged?: PagedFile;
  /** The pages written from now on, for a journal save. */
  tracker: PageTracker;
  /** The file on disk the journal applies to. */
  base: BaseId;
  /** The journal was replayed: saves append to it. */
  replayed: boolean;
}

/** The whole file in memory, with `reserve` bytes of room, and the journal replayed into it. */
export async function loadWhole(
  file: string,
  journal: JournalState,
  notice: (message: string) => void,
  reserve: number,
): Promise<LoadedDatabase> {
  const extent = journal.read ? replayExtent(journal.read) : 0;
  const { bytes, size } = await readWithReserve(file, (n) => reserve + Math.max(0, extent - n));
  checkHeader(file, bytes.subarray(0, Math.min(size, 100)), size);
  const base = baseIdOf(bytes, size);
  if (journal.read && bytes.length < extent)
    throw new CorpusFileError(file, `too large to open with its journal: ${extent} bytes`);
  const replayed = replayJournal(file, journal, bytes, base, notice) !== undefined;
  const { view, tracker } = trackWrites(bytes, headerPageSize(bytes));
  return { db: await openDatabase(file, view), image: bytes, tracker, base, replayed };
}

/**
 * The file read page by page as queries need them (pagedFile.ts), the journal's pages held in memory
 * over it. Its saves append the pages written to the journal, as a whole store's do; a full save (a
 * fold) writes the whole file and then reads the new file the same way.
 */
export async function loadPaged(
  file: string,
  journal: JournalState,
  notice: (message: string) => void,
): Promise<LoadedDatabase> {
  let paged: PagedFile;
  try {
    paged = new PagedFile(file);
  } catch (e) {
    throw new CorpusFileError(file, `could not open it: ${(e as Error).message}`);
  }
  try {
    const size = paged.diskSize;
    const head = paged.read(0, Math.min(size, 100));
    checkHeader(file, head, size);
    paged.blockSize = headerPageSize(head);
    const base = baseIdOf(paged.read(0, Math.min(size, paged.blockSize)), size);
    const replayedSize = replayJournal(file, journal, paged.bytes(), base, notice);
    paged.size = Math.max(size, replayedSize ?? 0);
    paged.tracker = new PageTracker(paged.blockSize); // after the replay: its pages are in the journal
    const db = await openDatabase(file, paged.bytes(), [
      // Nothing reaches the file before COMMIT, so a rollback never truncates it (pagedFile.ts).
      'PRAGMA cache_spill = false',
      // Pages come from disk one read call each: keep the ones read (64 MB at most).
      'PRAGMA cache_size = -65536',
    ]);
    return { db, paged, tracker: paged.tracker, base, replayed: replayedSize !== undefined };
  } catch (e) {
    paged.close();
    throw e;
  }
}
