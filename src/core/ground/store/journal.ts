// The corpus file's side journal, `<db>.rcj` (docs/storage-journal.md): saves that do not grow with
// the file. A save appends the database pages written since the last save, fsynced, instead of
// rewriting the whole file; opening replays them over the file; a full save folds them into the file
// and removes the journal. The name is not SQLite's own `<db>-journal`, which the sqlite3 CLI would
// take for a hot rollback journal of its own.
//
// Layout: an 8-byte magic, then records, each [u32 LE payload length][SHA-256 of payload][payload].
// The first record names the base (the corpus file the journal applies to: its size and the hash of
// its first page, which changes on every commit); each further one is a commit: the database's page
// count and the whole pages written since the save before. A record that is short or fails its hash
// is a torn tail (a process killed mid-append) and it and everything after it are dropped: the state
// is that of the last whole record, never part of one. A journal whose base is not the file beside it
// is stale (a fold was killed after its rename, before the removal) and is ignored.
//
// The journal holds pages of the database and nothing else, so nothing the file itself would not
// hold: pseudonyms, never account identity or the salt.
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import path from 'node:path';
import { saveStreamAtomically } from './atomicSave';
import { CorpusFileError } from './errors';

export const JOURNAL_SUFFIX = '.rcj';
const MAGIC = Buffer.from('RCJ1\n\0\0\0', 'latin1');
const FRAME_HEAD = 4 + 32;
const BASE = 0x42; // 'B'
const COMMIT = 0x43; // 'C'

export function journalPath(dbFile: string): string {
  return `${dbFile}${JOURNAL_SUFFIX}`;
}

/**
 * A full save folds the journal once it would pass this: a quarter of the file, at least 64 MiB. The
 * fold rewrites the file, so each journalled byte costs at most about four bytes of rewrite, whatever
 * the file's size, and a replay at open reads at most a quarter more than the file.
 */
export function foldThreshold(fileBytes: number): number {
  return Math.max(64 << 20, Math.floor(fileBytes / 4));
}

// ---- which pages were written ------------------------------------------------------------------

const trackers = new WeakMap<ArrayBufferLike, PageTracker>();

/** The pages of one in-memory database image written since the last save. */
export class PageTracker {
  readonly dirty = new Set<number>();
  constructor(readonly pageSize: number) {}
  mark(offset: number, length: number): void {
    if (length <= 0) return;
    const last = Math.floor((offset + length - 1) / this.pageSize);
    for (let p = Math.floor(offset / this.pageSize); p <= last; p++) this.dirty.add(p);
  }
}

/**
 * A view that reports what is written into it. sql.js keeps the database in an Emscripten in-memory
 * file whose contents start as `slice()` of the array it is given and take every write through
 * `contents.set(bytes, position)`: a slice that stays a view of the same memory and a set() that marks
 * its pages are all it takes to know the pages a save must write. When the file outgrows the array it
 * moves to a plain one; the caller finds that (CorpusStore.liveImage) and saves in full.
 */
class TrackedBytes extends Uint8Array {
  override set(array: ArrayLike<number>, offset = 0): void {
    trackers.get(this.buffer)?.mark(this.byteOffset + offset, array.length);
    super.set(array, offset);
  }
  override slice(start?: number, end?: number): TrackedBytes {
    return this.subarray(start, end) as TrackedBytes;
  }
}

/** The array to hand sql.js for `image`, and the tracker of its writes. */
export function trackWrites(image: Buffer, pageSize: number): { view: Uint8Array; tracker: PageTracker } {
  const tracker = new PageTracker(pageSize);
  trackers.set(image.buffer, tracker);
  return { view: new TrackedBytes(image.buffer as ArrayBuffer, image.byteOffset, image.length), tracker };
}

/** A SQLite file's page size from its header (offset 16, big-endian; 1 means 65536). */
export function headerPageSize(bytes: Uint8Array): number {
  const v = (bytes[16] << 8) | bytes[17];
  return v === 1 ? 65536 : v;
}

/** What identifies a base file: its size and the hash of its first page. */
export interface BaseId {
  size: number;
  page1: Buffer;
}

export function baseIdOf(bytes: Uint8Array, size: number): BaseId {
  const end = Math.min(size, headerPageSize(bytes));
  return { size, page1: createHash('sha256').update(bytes.subarray(0, end)).digest() };
}

const sameBase = (a: BaseId, b: BaseId) => a.size === b.size && a.page1.equals(b.page1);

// ---- records -------------------------------------------------------------------------------------

function frame(payload: Buffer): Buffer {
  const head = Buffer.alloc(FRAME_HEAD);
  head.writeUInt32LE(payload.length, 0);
  createHash('sha256').update(payload).digest().copy(head, 4);
  return Buffer.concat([head, payload]);
}

function baseRecord(base: BaseId): Buffer {
  const p = Buffer.alloc(1 + 8 + 32);
  p[0] = BASE;
  p.writeDoubleLE(base.size, 1);
  base.page1.copy(p, 9);
  return frame(p);
}

/** One commit: the page count after it and the pages written, read from the live image. */
export function commitRecord(image: Uint8Array, pageSize: number, pageCount: number, pages: number[]): Buffer {
  const kept = pages.filter((p) => p < pageCount).sort((a, b) => a - b);
  const p = Buffer.alloc(1 + 4 + 4 + 4 + kept.length * (4 + pageSize));
  p[0] = COMMIT;
  p.writeUInt32LE(pageSize, 1);
  p.writeUInt32LE(pageCount, 5);
  p.writeUInt32LE(kept.length, 9);
  let at = 13;
  for (const no of kept) {
    p.writeUInt32LE(no, at);
    p.set(image.subarray(no * pageSize, (no + 1) * pageSize), at + 4);
    at += 4 + pageSize;
  }
  return frame(p);
}

export interface Commit {
  pageSize: number;
  pageCount: number;
  pages: { no: number; bytes: Buffer }[];
}

export interface JournalRead {
  base: BaseId;
  commits: Commit[];
  /** Bytes up to the end of the last whole record: where the next append goes. */
  validLength: number;
  /** The journal file's length as read (more than validLength when a torn tail was dropped). */
  fileLength: number;
}

/** Parses a journal; undefined when it has no whole base record (nothing to replay). */
export function parseJournal(bytes: Buffer): JournalRead | undefined {
  if (bytes.length < MAGIC.length || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  let at = MAGIC.length;
  let base: BaseId | undefined;
  const commits: Commit[] = [];
  while (at + FRAME_HEAD <= bytes.length) {
    const len = bytes.readUInt32LE(at);
    if (at + FRAME_HEAD + len > bytes.length) break;
    const payload = bytes.subarray(at + FRAME_HEAD, at + FRAME_HEAD + len);
    if (
      !createHash('sha256')
        .update(payload)
        .digest()
        .equals(bytes.subarray(at + 4, at + FRAME_HEAD))
    )
      break;
    const parsed = base ? parseCommit(payload) : parseBase(payload);
    if (!parsed) break;
    if ('page1' in parsed) base = parsed;
    else commits.push(parsed);
    at += FRAME_HEAD + len;
  }
  return base ? { base, commits, validLength: at, fileLength: bytes.length } : undefined;
}

function parseBase(p: Buffer): BaseId | undefined {
  if (p.length !== 41 || p[0] !== BASE) return undefined;
  return { size: p.readDoubleLE(1), page1: Buffer.from(p.subarray(9, 41)) };
}

function parseCommit(p: Buffer): Commit | undefined {
  if (p.length < 13 || p[0] !== COMMIT) return undefined;
  const pageSize = p.readUInt32LE(1);
  const n = p.readUInt32LE(9);
  if (p.length !== 13 + n * (4 + pageSize)) return undefined;
  const pages: Commit['pages'] = [];
  for (let i = 0, at = 13; i < n; i++, at += 4 + pageSize)
    pages.push({ no: p.readUInt32LE(at), bytes: p.subarray(at + 4, at + 4 + pageSize) });
  return { pageSize, pageCount: p.readUInt32LE(5), pages };
}

// ---- replay --------------------------------------------------------------------------------------

/** The journal as found beside a file at open: what to replay and where the next append goes. */
export interface JournalState {
  read: JournalRead | undefined;
  /** The journal file's identity when read (dev:ino), to tell if another writer replaced it. */
  stamp: string | undefined;
  /** One line for the user when something was dropped or ignored. */
  notice?: string;
}

/** Reads the journal beside `dbFile`. Read before the file itself: a fold in between then shows as a stale journal, not as lost records. */
export async function readJournal(dbFile: string): Promise<JournalState> {
  const file = journalPath(dbFile);
  let bytes: Buffer;
  let stamp: string;
  try {
    // Off the calling thread (the extension host opens corpora too): a journal can be a quarter of the file.
    const handle = await openFile(file, 'r');
    try {
      const s = await handle.stat();
      stamp = `${s.dev}:${s.ino}`;
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { read: undefined, stamp: undefined };
    throw new CorpusFileError(file, `cannot read the journal: ${(e as Error).message}`);
  }
  const read = parseJournal(bytes);
  if (!read)
    return { read: undefined, stamp, notice: `${file}: no whole journal header (${bytes.length} bytes), ignored` };
  const dropped = read.fileLength - read.validLength;
  const notice =
    dropped > 0
      ? `${file}: dropped a torn tail of ${dropped} bytes after ${read.commits.length} whole record(s) (an append cut short)`
      : undefined;
  return { read, stamp, notice };
}

/** The bytes the replayed database needs beyond the file's own. */
export function replayExtent(read: JournalRead): number {
  let bytes = 0;
  for (const c of read.commits) bytes = Math.max(bytes, c.pageCount * c.pageSize);
  return bytes;
}

/**
 * Applies the journal's commits to `image` (the base file's bytes, with room for replayExtent) and
 * returns the database's size after them; undefined, with nothing applied, if the journal's base is
 * not this file (stale).
 */
export function replay(read: JournalRead, image: Uint8Array, base: BaseId): number | undefined {
  if (!sameBase(read.base, base)) return undefined;
  let size = base.size;
  for (const c of read.commits) {
    for (const pg of c.pages) image.set(pg.bytes, pg.no * c.pageSize);
    size = c.pageCount * c.pageSize;
  }
  return size;
}

// ---- writing -------------------------------------------------------------------------------------

/**
 * Appends one commit record, fsynced, at `offset` (the end of the last whole record: a torn tail
 * after it is overwritten and cut off). A missing journal is created whole (magic, base, this
 * record) by temp file and rename, so a journal on disk always starts with its base. Returns the
 * new end and the journal's stamp.
 */
export function appendJournal(
  dbFile: string,
  base: BaseId,
  offset: number,
  record: Buffer,
): { end: number; stamp: string | undefined } {
  const file = journalPath(dbFile);
  if (offset === 0) {
    const head = Buffer.concat([MAGIC, baseRecord(base)]);
    saveStreamAtomically(file, (put) => {
      put(head);
      put(record);
    });
    return { end: head.length + record.length, stamp: stampOf(file) };
  }
  const fd = openSync(file, 'r+');
  try {
    let done = 0;
    while (done < record.length) done += writeSync(fd, record, done, record.length - done, offset + done);
    ftruncateSync(fd, offset + record.length);
    fsyncSync(fd);
    const s = fstatSync(fd);
    return { end: offset + record.length, stamp: `${s.dev}:${s.ino}` };
  } finally {
    closeSync(fd);
  }
}

export function stampOf(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const s = statSync(file);
  return `${s.dev}:${s.ino}`;
}

/** After a full save: the journal is folded into the file. Removed, then the folder synced. */
export function removeJournal(dbFile: string): void {
  const file = journalPath(dbFile);
  if (!existsSync(file)) return; // the common case of a full save: no second folder fsync
  rmSync(file, { force: true });
  try {
    const fd = openSync(path.dirname(path.resolve(file)), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse fsync on a folder; a journal left behind is stale and ignored.
  }
}
