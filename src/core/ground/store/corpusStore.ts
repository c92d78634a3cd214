import { randomInt } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import type { BindParams, Database, SqlValue, Statement } from 'sql.js';
import { removeStaleTemps, saveAtomically, type SaveHooks } from './atomicSave';
import { CorpusFileError, UserError } from './errors';
import {
  appendJournal,
  baseIdOf,
  commitRecord,
  foldThreshold,
  journalPath,
  readJournal,
  removeJournal,
  stampOf,
  type BaseId,
  type PageTracker,
} from './journal';
import { loadPaged, loadWhole, reserveWithin } from './loadDatabase';
import type { PagedFile } from './pagedFile';
import { BlobPack } from './blobPack';
import { moveInlineDiffsToBlobs } from './diffText';
import { CORPUS_FORMAT, MIGRATIONS, latestSchemaVersion } from './schema';
import { loadSqlJs } from './sqljs';

/** SQLite's words (SQLITE_CORRUPT, SQLITE_NOTADB) for pages that do not hold a database: a truncated or overwritten file. */
const DAMAGE = /database disk image is malformed|malformed database schema|file is not a database/;

export type Row = Record<string, SqlValue>;
import type { StoreStatement } from './sqlStore';
export type { StoreStatement } from './sqlStore';

export interface OpenOptions {
  /**
   * Zero bytes appended to the in-memory file. sql.js keeps the database in an in-memory file that
   * grows by 12.5% at a time, copying itself on every step; a build that adds hundreds of MB to a
   * large corpus spends seconds on those copies. Space reserved up front is used in place, and
   * export() leaves it out. SQLite reads the database size from its header, so the tail is ignored.
   */
  reserveBytes?: number;
  /**
   * Read the file page by page as queries need them, not whole (pagedFile.ts): opening costs
   * milliseconds and memory stays small whatever the file's size. Pages written stay in memory until
   * a save, which journals them as a whole store's save does. For a long-lived process with few
   * writes (SMALL_EDITS_OPEN); not for a build, whose full save would read the whole file back.
   */
  paged?: boolean;
  /** Where a one-line note on the journal goes (a torn tail dropped, a stale journal ignored); default stderr. */
  onNotice?: (message: string) => void;
}

/** Where a save went: appended to the journal, or the whole file written (folding any journal). */
export type SaveKind = 'journal' | 'full';

/**
 * Room for a fetch to add pages in place, so that its checkpoints stay journal appends (a write past
 * the reserve moves the in-memory file and makes every later save a full one). Zeroed memory is only
 * committed when written, so unused reserve costs address space, not RSS.
 */
export const FETCH_RESERVE_BYTES = 1 << 30;

/**
 * Room for small edits (labels, flag decisions) to grow the file in place: no copy of the whole file
 * into a larger array when an edit needs a new page, and saves can write the live file (liveImage).
 */
export const EDIT_RESERVE_BYTES = 16 << 20;

/**
 * How a long-lived process that makes small edits opens a corpus: the extension host, and the saver
 * process that writes its label and flag decisions. Paged (pagedFile.ts) where another writer may
 * replace a file this process holds open (POSIX rename): opening then costs milliseconds, not a read
 * of the whole file, and the process holds SQLite's cache, not the corpus (BENCHMARKS.md, "The
 * extension host reads pages"). On Windows, untested there, the whole file with room for the edits.
 */
export const SMALL_EDITS_OPEN: OpenOptions =
  process.platform === 'win32' ? { reserveBytes: EDIT_RESERVE_BYTES } : { paged: true };

/**
 * Room for a build to add examples and decisions: three times what the file holds, at most 2 GiB. A
 * build adds about 3.2 KB per example, and a database whose file versions are in its blob pack holds
 * about 1.5–1.9 KB per generated example before its first build (BENCHMARKS.md "Storage"); a build
 * that outgrows its room makes sql.js copy the whole file into a larger array, several times.
 */
export function buildReserve(file: string): number {
  return existsSync(file) ? Math.min(3 * statSync(file).size, 2 ** 31) : 0;
}

/**
 * One corpus file, opened by sql.js (whole in memory, or paged: loadDatabase.ts) and written back
 * atomically. The database is reached only through this class, and every call into it runs through
 * `guard`: a page can be found damaged by any step of any query, long after open() read the file, so
 * there is one mapping and no statement outside it.
 */
export class CorpusStore {
  private readonly statements = new Map<string, { raw: Statement; wrapped: StoreStatement }>();

  /**
   * @param image The Buffer sql.js was given: its in-memory file starts as a view of it, so it may
   * hold the database's current bytes (liveImage says when).
   * @param packWritable New blobs go to the pack beside `file`; false for a scratch copy in memory,
   * which must never write beside the corpus it copies (its blobs stay in the database).
   */
  private constructor(
    readonly file: string,
    private readonly db: Database,
    private readonly image?: Buffer,
    packWritable = true,
  ) {
    this.blobPack = new BlobPack(file, this, packWritable);
  }

  /** File versions' bytes, beside the file (blobPack.ts). */
  readonly blobPack: BlobPack;

  /** Pages written since the last save, while the in-memory file is a view of `image`; else undefined and every save is full. */
  private tracker: PageTracker | undefined;
  /** The file on disk the journal applies to, and its stamp (dev:ino), to tell if another writer replaced it. */
  private base: BaseId | undefined;
  private baseStamp: string | undefined;
  /** End of the last whole journal record (0: no journal of ours) and the journal's stamp. */
  private journalEnd = 0;
  private journalStamp: string | undefined;

  /**
   * Creates a new, empty corpus in memory; nothing touches the disk until `save()` (but file versions
   * written before it, in the blob pack). `reserveBytes`: room to grow into, as for open().
   */
  static async create(file: string, opts: Pick<OpenOptions, 'reserveBytes'> = {}): Promise<CorpusStore> {
    const SQL = await loadSqlJs();
    let store = new CorpusStore(file, new SQL.Database());
    store.migrate(0);
    store.setMeta('format', CORPUS_FORMAT);
    store.setMeta('created_at', new Date().toISOString());
    if (opts.reserveBytes) {
      const schema = store.export();
      const image = Buffer.alloc(schema.length + reserveWithin(schema.length, opts.reserveBytes));
      image.set(schema);
      store.close();
      store = new CorpusStore(file, new SQL.Database(image), image);
    }
    return store;
  }

  /**
   * Opens an existing corpus. Anything that is not a corpus of a schema we can read fails with a
   * one-line CorpusFileError naming the file; the file itself is only read, never written. Once it
   * has opened, the temporary files of saves killed before their rename are removed (removeStaleTemps);
   * not before: beside a damaged corpus, such a copy may be the one to recover from.
   */
  static async open(file: string, opts: OpenOptions = {}): Promise<CorpusStore> {
    if (!existsSync(file)) throw new CorpusFileError(file, 'no such file');
    if (statSync(file).isDirectory()) throw new CorpusFileError(file, 'is a directory, not a corpus file');
    // The journal first: a fold between the two reads then shows as a stale journal, not lost records.
    const journal = await readJournal(file);
    const baseStamp = stampOf(file);
    const notice = opts.onNotice ?? ((m: string) => void process.stderr.write(`review-corpus: ${m}\n`));
    const loaded = opts.paged
      ? await loadPaged(file, journal, notice)
      : await loadWhole(file, journal, notice, opts.reserveBytes ?? 0);
    const store = new CorpusStore(file, loaded.db, loaded.image);
    store.paged = loaded.paged;
    store.tracker = loaded.tracker;
    store.base = loaded.base;
    if (loaded.replayed) {
      store.journalEnd = journal.read!.validLength;
      store.journalStamp = journal.stamp;
    }
    store.baseStamp = baseStamp;
    try {
      store.migrate(store.readableSchemaVersion());
      store.blobPack.check();
    } catch (e) {
      store.close();
      throw e;
    }
    removeStaleTemps(file);
    removeStaleTemps(journalPath(file)); // a journal's creation killed before its rename
    return store;
  }

  /** The file under a paged store (open with `paged`); undefined for a store held whole in memory. */
  private paged: PagedFile | undefined;

  /** The schema version of a corpus this tool can read; for anything else a CorpusFileError. */
  private readableSchemaVersion(): number {
    const hasMeta = this.get("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'meta'");
    if ((hasMeta ? this.getMeta('format') : undefined) !== CORPUS_FORMAT) {
      throw new CorpusFileError(this.file, 'a SQLite database, but not a review corpus (no review-corpus meta table)');
    }
    const raw = this.getMeta('schema_version');
    // Only what migrate() writes: Number() would also take '', ' 2', '0x2' and '2e0'.
    if (raw === undefined || !/^[1-9]\d*$/.test(raw)) {
      const shown = raw === undefined ? 'missing' : JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
      throw new CorpusFileError(
        this.file,
        `damaged: schema_version in the meta table is ${shown}, not a version number`,
      );
    }
    const version = Number(raw);
    if (version > latestSchemaVersion()) {
      throw new CorpusFileError(
        this.file,
        `corpus schema version ${version} is newer than this tool reads (${latestSchemaVersion()}); update review-corpus`,
      );
    }
    return version;
  }

  /** A scratch copy of a corpus held only in memory (verify rebuilds into one). */
  static async fromBytes(file: string, bytes: Uint8Array, opts: OpenOptions = {}): Promise<CorpusStore> {
    const SQL = await loadSqlJs();
    // Always a copy of our own: `bytes` may be another store's live image.
    const image = Buffer.alloc(bytes.length + reserveWithin(bytes.length, opts.reserveBytes ?? 0));
    image.set(bytes);
    return new CorpusStore(file, new SQL.Database(image), image, false);
  }

  /** Opens the file if it exists, otherwise creates a new corpus for it. */
  static async openOrCreate(file: string, opts: OpenOptions = {}): Promise<CorpusStore> {
    if (existsSync(file)) return CorpusStore.open(file, opts);
    removeStaleTemps(file); // a first save killed before its rename leaves a temp and no corpus
    return CorpusStore.create(file);
  }

  get schemaVersion(): number {
    return Number(this.getMeta('schema_version'));
  }

  private migrate(from: number): void {
    const latest = latestSchemaVersion();
    if (from >= latest) return;
    this.transaction(() => {
      for (let v = from; v < latest; v++) this.exec(MIGRATIONS[v]);
      this.setMeta('schema_version', String(latest));
    });
  }

  getMeta(key: string): string | undefined {
    const row = this.get('SELECT value FROM meta WHERE key = ?', [key]);
    return row ? String(row.value) : undefined;
  }

  setMeta(key: string, value: string): void {
    this.run('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [
      key,
      value,
    ]);
  }

  /**
   * `e`, or, when it is SQLite finding the file damaged, a one-line CorpusFileError saying so.
   */
  private damaged(e: unknown): unknown {
    return e instanceof Error && !(e instanceof UserError) && DAMAGE.test(e.message)
      ? new CorpusFileError(this.file, `damaged: ${e.message}`)
      : e;
  }

  /** Runs `work`, which calls into the database, with SQLite's damage mapped (damaged()). */
  private guard<T>(work: () => T): T {
    try {
      return work();
    } catch (e) {
      throw this.damaged(e);
    }
  }

  /** A cached prepared statement of sql.js; only this class steps it, inside guard(). */
  private statement(sql: string): { raw: Statement; wrapped: StoreStatement } {
    let entry = this.statements.get(sql);
    if (!entry) {
      const raw = this.guard(() => this.db.prepare(sql));
      const wrapped: StoreStatement = {
        run: (params = []) =>
          this.guard(() => {
            raw.run(params);
            return this.db.getRowsModified();
          }),
        eachArray: (params, onRow) =>
          this.guard(() => {
            try {
              raw.bind(params);
              while (raw.step()) onRow(raw.get());
            } finally {
              raw.reset();
            }
          }),
      };
      entry = { raw, wrapped };
      this.statements.set(sql, entry);
    }
    return entry;
  }

  /** A cached prepared statement, reused across calls for bulk writes and paged scans. */
  prepare(sql: string): StoreStatement {
    return this.statement(sql).wrapped;
  }

  run(sql: string, params: BindParams = []): void {
    this.statement(sql).wrapped.run(params);
  }

  /** Runs SQL without parameters or rows: a PRAGMA, a SAVEPOINT, or several statements. */
  exec(sql: string): void {
    this.guard(() => this.db.exec(sql));
  }

  /** Rows the last INSERT, UPDATE or DELETE changed. */
  rowsModified(): number {
    return this.db.getRowsModified();
  }

  /** Runs an INSERT and returns the new rowid. */
  insert(sql: string, params: BindParams = []): number {
    this.run(sql, params);
    return Number(this.scalar('SELECT last_insert_rowid()'));
  }

  all<T = Row>(sql: string, params: BindParams = []): T[] {
    const { raw } = this.statement(sql);
    const rows: T[] = [];
    this.guard(() => {
      try {
        raw.bind(params);
        while (raw.step()) rows.push(raw.getAsObject() as T);
      } finally {
        raw.reset();
      }
    });
    return rows;
  }

  /** Streams rows without materialising them all, for scans over 100k rows. */
  each(sql: string, params: BindParams, onRow: (row: Row) => void): void {
    this.guard(() => {
      let stmt: Statement | undefined;
      try {
        stmt = this.db.prepare(sql);
        stmt.bind(params);
        while (stmt.step()) onRow(stmt.getAsObject());
      } finally {
        stmt?.free();
      }
    });
  }

  get<T = Row>(sql: string, params: BindParams = []): T | undefined {
    const { raw } = this.statement(sql);
    return this.guard(() => {
      try {
        raw.bind(params);
        return raw.step() ? (raw.getAsObject() as T) : undefined;
      } finally {
        raw.reset();
      }
    });
  }

  scalar(sql: string, params: BindParams = []): SqlValue | undefined {
    const row = this.get(sql, params);
    return row ? Object.values(row)[0] : undefined;
  }

  /** Runs `work` in one transaction; rolls back if it throws. Nested calls join the outer one. */
  transaction<T>(work: () => T): T {
    if (this.inTransaction) return work();
    this.exec('BEGIN');
    this.inTransaction = true;
    try {
      const result = work();
      this.exec('COMMIT');
      return result;
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw this.damaged(e);
    } finally {
      this.inTransaction = false;
    }
  }
  private inTransaction = false;

  /**
   * Runs `work` as one unit inside the current transaction (or as its own): when it throws, what it
   * wrote is undone (a SQLite savepoint) and the error passed on, and the transaction around it goes on.
   * The fetch stores each host record so, so one record that fails leaves nothing half-written.
   */
  unit<T>(work: () => T): T {
    if (!this.inTransaction) return this.transaction(work);
    this.exec('SAVEPOINT record_unit');
    try {
      const result = work();
      this.exec('RELEASE record_unit');
      return result;
    } catch (e) {
      this.exec('ROLLBACK TO record_unit');
      this.exec('RELEASE record_unit');
      throw this.damaged(e);
    }
  }

  /**
   * Saves what changed since the last save, old or new, never torn: as one fsynced journal record when
   * the pages written are known and the journal stays under foldThreshold; otherwise (or with `full`)
   * by writing the whole database atomically (temp file, fsync, rename) and then removing the
   * journal, which that file now holds.
   */
  save(hooks?: SaveHooks & { full?: boolean; inlineDiffsAtMost?: number }): SaveKind {
    // Diffs an older tool stored inline go into blobs first (docs/storage.md): at the first save (or,
    // for a writer that must stay quick, `inlineDiffsAtMost` per save), so opening a file only to read it
    // stays as fast as before and never writes.
    moveInlineDiffsToBlobs(this, hooks?.inlineDiffsAtMost);
    this.blobPack.sync(); // before the database that refers to its bytes
    if (!hooks?.full && this.appendToJournal()) return 'journal';
    const bytes = this.export();
    saveAtomically(this.file, bytes, hooks);
    removeJournal(this.file);
    this.journalEnd = 0;
    this.journalStamp = undefined;
    if (this.paged && this.tracker) {
      // The file is now exactly what this store holds: read it instead of the old file and the pages
      // written over it (which would otherwise stay in memory, and the old file on disk).
      this.base = baseIdOf(bytes, bytes.length);
      this.baseStamp = stampOf(this.file);
      if (this.paged.reopen(this.base.size, this.base.page1)) this.tracker.dirty.clear();
      else this.tracker = undefined;
    } else if (this.tracker && this.image && bytes.buffer === this.image.buffer) {
      this.tracker.dirty.clear();
      this.base = baseIdOf(bytes, bytes.length);
      this.baseStamp = stampOf(this.file);
    } else {
      this.tracker = undefined; // the in-memory file moved off the image: its writes are no longer seen
    }
    return 'full';
  }

  /** One journal record of the pages written since the last save; false when a full save is due instead. */
  private appendToJournal(): boolean {
    const { tracker, base } = this;
    if (!tracker || !base || this.inTransaction) return false;
    // Written by another writer since (not under one lock with us): a record of ours would not apply to it.
    if (stampOf(this.file) !== this.baseStamp) return false;
    if (this.journalEnd > 0 && stampOf(journalPath(this.file)) !== this.journalStamp) return false;
    const pageCount = Number(this.scalar('PRAGMA page_count'));
    const pageSize = Number(this.scalar('PRAGMA page_size'));
    if (pageSize !== tracker.pageSize) return false;
    const live = this.paged
      ? this.pagedImage(pageCount) // also dirties page 1 (the canary)
      : this.liveImage(pageCount, pageCount * pageSize);
    if (!live) {
      this.tracker = undefined;
      return false;
    }
    if (this.journalEnd + tracker.dirty.size * pageSize > foldThreshold(base.size)) return false;
    const record = commitRecord(live, pageSize, pageCount, [...tracker.dirty]);
    const { end, stamp } = appendJournal(this.file, base, this.journalEnd, record);
    this.journalEnd = end;
    this.journalStamp = stamp;
    tracker.dirty.clear();
    return true;
  }

  /**
   * The database's bytes. Usually a view of the live in-memory file (valid until the next write),
   * since copying a large corpus out of sql.js costs seconds; otherwise sql.js's own export().
   */
  export(): Uint8Array {
    const pageCount = Number(this.scalar('PRAGMA page_count'));
    const size = pageCount * Number(this.scalar('PRAGMA page_size'));
    const live = this.liveImage(pageCount, size);
    if (live) return live;
    // sql.js's export() closes open statements, so drop our cache first.
    this.freeStatements();
    const bytes = this.guard(() => this.db.export());
    // A file opened with reserved space carries zero bytes past the database's last page: not saved.
    return bytes.length > size ? bytes.subarray(0, size) : bytes;
  }

  /**
   * The first `size` bytes of the Buffer given to sql.js, if they are the database as committed.
   * sql.js's in-memory file is a view of that Buffer until a write goes past its end or SQLite
   * truncates the file (a rollback of pages already written does); then the file moves to a new
   * array, which committedShows tells.
   */
  private liveImage(pageCount: number, size: number): Uint8Array | undefined {
    const image = this.image;
    if (!image || this.inTransaction || size > image.length || size < 100) return undefined;
    return this.committedShows(() => image, pageCount) ? image.subarray(0, size) : undefined;
  }

  /**
   * A paged store's database as committed, read lazily (for a journal record: only its written pages
   * are read), checked as liveImage checks the image.
   */
  private pagedImage(pageCount: number): Uint8Array | undefined {
    const paged = this.paged;
    if (!paged || this.inTransaction) return undefined;
    return this.committedShows(() => paged.read(0, 100), pageCount) ? paged.bytes() : undefined;
  }

  /**
   * Whether the bytes sql.js writes to are the ones `head` reads: a random user_version (header offset
   * 60; unused otherwise) is committed and must show in `head()`, with the page count (offset 28).
   * Outside a transaction every committed page is then there.
   */
  private committedShows(head: () => Buffer, pageCount: number): boolean {
    const canary = randomInt(1, 2 ** 31 - 1);
    this.exec(`PRAGMA user_version = ${canary}`);
    const bytes = head();
    return bytes.readInt32BE(60) === canary && bytes.readUInt32BE(28) === pageCount;
  }

  close(): void {
    this.freeStatements();
    this.blobPack.close();
    this.db.close();
    this.paged?.close();
  }

  private freeStatements(): void {
    for (const { raw } of this.statements.values()) raw.free();
    this.statements.clear();
  }
}
