// A corpus database read from its file page by page as queries need them, instead of read whole into
// memory: for a process that holds a large corpus open for long and writes little (the extension host,
// the saver of its decisions), where a whole copy costs seconds to open and, while held, makes every
// fork of the process slow (BENCHMARKS.md, "500,000 examples"). Writes stay in memory, over the file:
// nothing here writes to disk (CorpusStore.save journals the pages written).
//
// Why a typed array and not a VFS: sql.js exposes neither SQLite's VFS registration nor Emscripten's
// FS. The one seam is the array MEMFS keeps a file's bytes in (node.contents). MEMFS takes it over on
// the first write to an empty file (`data.slice(0, n)`), reads through `contents.subarray(from, to)`,
// checks `contents.length` as capacity before a write and writes through `contents.set(bytes, at)`.
// PagedBytes answers those four from the file and an overlay of written blocks. A truncation
// (resizeFileStorage) would copy the whole file; the store turns off cache spilling, so a rolled-back
// transaction has written nothing to the file and SQLite never truncates it (no auto_vacuum either).
// test/unit/pagedFile.test.ts pins this behaviour of the sql.js we ship.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { CorpusFileError } from './errors';
import type { PageTracker } from './journal';

/** SQLite's largest page size. */
const MAX_PAGE_SIZE = 65536;

/** The file under a paged database, with the blocks written since it was opened. */
export class PagedFile {
  private readonly overlay = new Map<number, Buffer>();
  private fd: number | undefined;
  /** Bytes on disk when opened; the descriptor keeps that file even if another writer replaces its name. */
  diskSize: number;
  /** The database's size as sql.js is told it at open: the file's, or more after a journal's replay. */
  size: number;
  /** Set once a read failed: every later read fails the same way, since SQLite's state is then unknown. */
  private failure: CorpusFileError | undefined;

  /** Marks the pages written, for a journal save (set after the journal's replay). */
  tracker: PageTracker | undefined;
  /** The database's page size, once known (set before anything is written). */
  blockSize = 4096;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'r');
    this.diskSize = fstatSync(this.fd).size;
    this.size = this.diskSize;
  }

  /** Bytes [start, end) as the database has them now: written blocks from memory, the rest from the file. */
  read(start: number, end: number): Buffer {
    const out = Buffer.alloc(Math.max(0, end - start)); // zeros past the file's end, as a sparse file reads
    const B = this.blockSize;
    let pos = start;
    while (pos < end) {
      const block = Math.floor(pos / B);
      const upTo = Math.min((block + 1) * B, end);
      const written = this.overlay.get(block);
      if (written) written.copy(out, pos - start, pos - block * B, upTo - block * B);
      else this.readDisk(out, pos - start, pos, Math.min(upTo, this.diskSize));
      pos = upTo;
    }
    return out;
  }

  /**
   * The same bytes as read(), as a view into this file's own buffers when they lie in one block (the
   * usual SQLite read: a page or part of one): no allocation, no copy. Valid until the next call.
   */
  view(start: number, end: number): Uint8Array {
    const B = this.blockSize;
    const block = Math.floor(start / B);
    if (end > (block + 1) * B) return this.read(start, end);
    const written = this.overlay.get(block);
    if (written) return written.subarray(start - block * B, end - block * B);
    if (end > this.diskSize || this.failure) return this.read(start, end);
    if (start < this.pageStart || end > this.pageStart + this.pageLength) this.readPage(start);
    return this.page.subarray(start - this.pageStart, end - this.pageStart);
  }

  /** Puts `bytes` at `at`, in memory only. */
  write(bytes: ArrayLike<number> & { buffer?: ArrayBufferLike; byteOffset?: number }, at: number): void {
    // HEAP8 is an Int8Array: a byte view of it copies with memcpy, not element by element.
    const src =
      ArrayBuffer.isView(bytes) && bytes.buffer
        ? new Uint8Array(bytes.buffer, bytes.byteOffset ?? 0, bytes.length)
        : Uint8Array.from(bytes);
    const B = this.blockSize;
    let pos = at;
    const end = at + src.length;
    while (pos < end) {
      const block = Math.floor(pos / B);
      let bytesOfBlock = this.overlay.get(block);
      if (!bytesOfBlock) {
        bytesOfBlock = this.read(block * B, (block + 1) * B);
        this.overlay.set(block, bytesOfBlock);
      }
      const upTo = Math.min((block + 1) * B, end);
      bytesOfBlock.set(src.subarray(pos - at, upTo - at), pos - block * B);
      this.tracker?.mark(pos, upTo - pos);
      pos = upTo;
    }
  }

  /**
   * Reads `path` from now on, dropping the blocks written, if it holds `size` bytes starting with
   * page 1 hashing to `page1` (journal.ts baseIdOf; the caller has just saved there what this
   * file holds); false, changing nothing, if not.
   */
  reopen(size: number, page1: Buffer): boolean {
    let fd: number | undefined;
    try {
      fd = openSync(this.path, 'r');
      const head = Buffer.alloc(Math.min(size, this.blockSize));
      const ok =
        fstatSync(fd).size === size &&
        readSync(fd, head, 0, head.length, 0) === head.length &&
        createHash('sha256').update(head).digest().equals(page1); // as baseIdOf hashes it
      if (!ok) {
        closeSync(fd);
        return false;
      }
    } catch {
      if (fd !== undefined) closeSync(fd);
      return false;
    }
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = fd;
    this.diskSize = this.size = size;
    this.overlay.clear();
    this.pageLength = 0;
    return true;
  }

  /**
   * Copies the file's bytes [from, to), within one page, into `out`. Through `page`, the last page
   * read (one read call), which view() hands out without a copy. No read-ahead: a scan's pages are scattered over the
   * file (tables, indexes, overflow pages), and reading 16–1,024 KB around each made a scan of every
   * example 1.1–2.5× slower, not faster (BENCHMARKS.md, "The extension host reads pages").
   */
  private readDisk(out: Buffer, outOffset: number, from: number, to: number): void {
    if (this.failure) throw this.failure;
    if (from >= to) return;
    if (from < this.pageStart || to > this.pageStart + this.pageLength) this.readPage(from);
    this.page.copy(out, outOffset, from - this.pageStart, to - this.pageStart);
  }

  private page = Buffer.alloc(0);
  private pageStart = 0;
  private pageLength = 0;

  /** Reads the page (block) holding `pos` into `page`. */
  private readPage(pos: number): void {
    const B = this.blockSize;
    if (this.page.length !== B) this.page = Buffer.alloc(B);
    const start = pos - (pos % B);
    const length = Math.min(B, this.diskSize - start);
    let done = 0;
    this.pageLength = 0;
    try {
      if (this.fd === undefined) throw new Error('closed');
      while (done < length) {
        const n = readSync(this.fd, this.page, done, length - done, start + done);
        if (n === 0)
          throw new Error(`it has ${fstatSync(this.fd).size} bytes now, ${this.diskSize} when it was opened`);
        done += n;
      }
    } catch (e) {
      this.failure = new CorpusFileError(this.path, `could not read it: ${(e as Error).message}`);
      throw this.failure;
    }
    this.pageStart = start;
    this.pageLength = length;
  }

  /** The array sql.js is given as the database's bytes (see the file's head). */
  bytes(): Uint8Array {
    return new PagedBytes(this, false);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * What MEMFS sees as its file's bytes. Before MEMFS owns it, its length is the database's size (so
 * MEMFS records that many bytes used); the array MEMFS keeps (from slice) reports unbounded capacity,
 * so MEMFS never grows it by copying.
 */
class PagedBytes extends Uint8Array {
  constructor(
    private readonly file: PagedFile,
    owned: boolean,
  ) {
    super(0);
    Object.defineProperty(this, 'length', { get: () => (owned ? Number.MAX_SAFE_INTEGER : file.size) });
  }

  override slice(start = 0, end?: number): Uint8Array<ArrayBuffer> {
    if (start !== 0 || end !== this.file.size) throw new Error(`paged database: unexpected slice(${start}, ${end})`);
    return new PagedBytes(this.file, true);
  }

  override subarray(start = 0, end?: number): Uint8Array<ArrayBuffer> {
    // SQLite reads a page (64 KB at most) or less per call; only a truncation asks for more, and it
    // would copy the whole file into a plain array: refused, so it cannot happen unnoticed.
    if (end === undefined || end - start > MAX_PAGE_SIZE)
      throw new Error(
        `paged database: a read of ${end === undefined ? 'the rest' : end - start} bytes (a truncation?)`,
      );
    return this.file.view(start, end) as Uint8Array<ArrayBuffer>; // MEMFS copies it at once
  }

  override set(bytes: ArrayLike<number>, at = 0): void {
    this.file.write(bytes, at);
  }
}
