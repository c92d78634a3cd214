// The blob pack (docs/storage.md "Blob pack"): file versions' compressed bytes in an append-only file
// beside the corpus, `<corpus>.blobs`, which the `blobs` rows point into (pack_offset, pack_length).
//
// Why outside the database: sql.js holds the whole database in memory, in one Buffer of at most 4 GiB,
// and the extension host holds it for as long as a corpus is open. File versions are about two thirds
// of a realistic corpus (BENCHMARKS.md "Storage"), and only a build, a fetch and a few reads of one
// example need them. Here they are read where they lie, by positional reads, and cost no memory.
//
// Crash safety: bytes are appended, then fsynced by `sync()`, which CorpusStore.save calls before the
// database save that refers to them. A process killed in between leaves bytes no row refers to at the
// end of the pack; the next writer appends after them. Nothing is ever overwritten, so a reader of an
// older database image always finds its bytes. The pack's id (its header) is in the database's meta,
// so a pack from another corpus, or a copy without it, is named as such, not misread.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { syncDirectory } from './atomicSave';
import { CorpusFileError } from './errors';

export function blobPackPath(dbFile: string): string {
  return `${dbFile}.blobs`;
}

const MAGIC = 'RCBLOBS1';
/** The magic and the pack's id, 16 hex digits. */
const HEADER_BYTES = 24;
/** Meta keys: the pack's id, and how many of its bytes the database may refer to (set at each sync). */
export const PACK_ID_KEY = 'blob_pack_id';
export const PACK_BYTES_KEY = 'blob_pack_bytes';

/**
 * Bytes per read when a blob is not in the last window read: a build reads versions in about the
 * order they were written, so one read serves many blobs.
 */
export const PACK_WINDOW_BYTES = 1 << 20;

/** What the pack needs of its store: the meta table. */
export interface PackMeta {
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
}

export class BlobPack {
  readonly file: string;
  private readFd: number | undefined;
  private writeFd: number | undefined;
  /** The id of the pack writeFd appends to, and its end after this store's last append. */
  private writingId: string | undefined;
  private end = 0;
  private unsynced = false;
  private created = false;
  private window: { start: number; bytes: Buffer } | undefined;

  /** `writable`: new blobs may go here; otherwise (a scratch copy in memory) they stay in the database. */
  constructor(
    private readonly dbFile: string,
    private readonly meta: PackMeta,
    readonly writable: boolean,
    private readonly windowBytes = PACK_WINDOW_BYTES,
  ) {
    this.file = blobPackPath(dbFile);
  }

  /**
   * Checks, when the database refers to a pack, that it is there, is this corpus's, and holds every byte
   * referred to; else a one-line CorpusFileError naming the pack. Opening a corpus calls it.
   */
  check(): void {
    const id = this.meta.getMeta(PACK_ID_KEY);
    if (id === undefined) return;
    const need = Number(this.meta.getMeta(PACK_BYTES_KEY) ?? HEADER_BYTES);
    const fd = this.reader(id);
    const size = fstatSync(fd).size;
    if (size < need)
      throw this.error(
        `truncated: ${size} bytes, and ${path.basename(this.dbFile)} refers to ${need} (copy the pack with its corpus)`,
      );
  }

  /** Appends `bytes` (one blob's packed bytes); returns their offset. Durable only after sync(). */
  append(bytes: Uint8Array): number {
    if (!this.writable) throw new Error('this store keeps its blobs in the database');
    const id = this.meta.getMeta(PACK_ID_KEY);
    if (this.writeFd === undefined || id !== this.writingId) this.openForAppend(id);
    // The pack's end as it is now, not as it was: another writer (a fetch, in turn under the writer lock)
    // may have appended since this store last did, and its bytes must never be written over.
    this.end = fstatSync(this.writeFd!).size;
    const offset = this.end;
    let done = 0;
    while (done < bytes.length) done += writeSync(this.writeFd!, bytes, done, bytes.length - done, offset + done);
    this.end += bytes.length;
    this.unsynced = true;
    return offset;
  }

  /** Makes every append durable and records the pack's length in meta; before the database save that refers to them. */
  sync(): void {
    if (!this.unsynced || this.writeFd === undefined) return;
    fsyncSync(this.writeFd);
    if (this.created) syncDirectory(path.dirname(this.file));
    this.created = false;
    this.unsynced = false;
    this.meta.setMeta(PACK_BYTES_KEY, String(this.end));
  }

  /** `length` bytes at `offset`; throws naming the pack if they are not there. */
  read(offset: number, length: number): Buffer {
    const w = this.window;
    if (w && offset >= w.start && offset + length <= w.start + w.bytes.length)
      return w.bytes.subarray(offset - w.start, offset - w.start + length);
    const id = this.meta.getMeta(PACK_ID_KEY);
    if (id === undefined) throw this.error('the corpus refers to blob bytes but names no pack');
    const fd = this.reader(id);
    // From our own rows, but a damaged row must not become a huge allocation or a read of the header.
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < HEADER_BYTES || length < 0)
      throw new CorpusFileError(this.dbFile, `damaged: a blob at offset ${offset}, ${length} bytes, in ${this.file}`);
    const cut = () => this.error(`truncated: no ${length} bytes at offset ${offset} (copy the pack with its corpus)`);
    if (offset + length > fstatSync(fd).size) throw cut();
    const bytes = Buffer.allocUnsafe(Math.max(length, this.windowBytes));
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    if (got < length) throw cut();
    this.window = { start: offset, bytes: bytes.subarray(0, got) };
    return this.window.bytes.subarray(0, length);
  }

  close(): void {
    for (const fd of [this.readFd, this.writeFd]) if (fd !== undefined) closeSync(fd);
    this.readFd = this.writeFd = undefined;
    this.window = undefined;
  }

  /** The read handle, opened once and checked against the id the database names. */
  private reader(id: string): number {
    if (this.readFd !== undefined) return this.readFd;
    if (!existsSync(this.file))
      throw this.error(
        `missing: ${path.basename(this.dbFile)} keeps its file versions there (copy it with the corpus)`,
      );
    const fd = openSync(this.file, 'r');
    try {
      this.checkHeader(fd, id);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
    this.readFd = fd;
    return fd;
  }

  private checkHeader(fd: number, id: string): void {
    const header = Buffer.alloc(HEADER_BYTES);
    readSync(fd, header, 0, HEADER_BYTES, 0);
    if (header.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) throw this.error('not a blob pack');
    const found = header.subarray(MAGIC.length).toString('latin1');
    if (found !== id) throw this.error(`belongs to another corpus (pack ${found}, the corpus names ${id})`);
  }

  /**
   * Opens the pack the database names for appending, after its last byte (bytes of a process killed
   * before its save are left where they are, unreferenced). A database that names none gets a new pack,
   * replacing any file there: no row can refer to it, since the id is committed with the first row that does.
   */
  private openForAppend(id: string | undefined): void {
    this.close();
    if (id !== undefined) {
      closeSync(this.reader(id)); // it is there, and it is this corpus's
      this.readFd = undefined;
      this.writeFd = openSync(this.file, 'r+');
    } else {
      id = randomBytes(8).toString('hex');
      this.writeFd = openSync(this.file, 'w+');
      writeSync(this.writeFd, Buffer.from(MAGIC + id, 'latin1'), 0, HEADER_BYTES, 0);
      this.created = true;
      this.unsynced = true;
      this.meta.setMeta(PACK_ID_KEY, id);
    }
    this.writingId = id;
  }

  private error(problem: string): CorpusFileError {
    return new CorpusFileError(this.file, problem);
  }
}
