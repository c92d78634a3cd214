// One writer at a time per corpus file. Every writer (the CLI's fetch and build, the extension's job
// process, its background saver) holds a lock file beside the corpus, `.<name>.lock`, from before it
// reads the file to after its last atomic save: two writers that both read the same state would
// otherwise each save their own copy, and the later rename drops the earlier one's work. Readers take
// no lock: saves are atomic renames, so a reader sees the old file or the new one.
//
// The lock file is created with O_EXCL and holds who took it ({pid, startedAt, host, command}). It is
// stale when its process is gone: same host name and no process with that pid (kill(pid, 0) says
// ESRCH); such a lock is taken over. A lock from another host is never judged stale here, since its
// process may be running there. Taking over is done under a second, short-lived O_EXCL file
// (`.<name>.lock.break`) so that two processes that both find the same stale lock cannot both
// delete it and then one of them delete the other's fresh lock.
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { processIsGone } from './atomicSave';
import { CorpusFileError } from './errors';

export interface LockHolder {
  pid: number;
  /** ISO time the lock was taken. */
  startedAt: string;
  host: string;
  /** What holds it, e.g. "review-corpus build". */
  command: string;
}

export interface WriterLockOptions {
  /** Written into the lock for a second writer's message, e.g. "review-corpus build". */
  command: string;
  /** How long to wait for another writer before failing; 0 fails at once, Infinity never fails. Default 0. */
  waitMs?: number;
  /** Between attempts while waiting. Default 100 ms. */
  pollMs?: number;
  /** Aborts the wait (AbortError). */
  signal?: AbortSignal;
  /** Called once, when the first attempt finds the file in use and the lock is to be waited for. */
  onWait?: (message: string, holder: LockHolder | undefined) => void;
  /**
   * The corpus file must exist already (build, the saver): then a missing file or a folder is the
   * store's one-line error, as if no lock were taken. Otherwise the folder must exist.
   */
  mustExist?: boolean;
}

/** A writer's lock on one corpus file; release() when the last save is done. */
export interface WriterLock {
  readonly file: string;
  readonly lockFile: string;
  readonly holder: LockHolder;
  release(): void;
}

/** The second writer's error: one line naming the holder and the lock file. */
export class CorpusInUseError extends CorpusFileError {
  constructor(
    file: string,
    readonly lockFile: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(file, inUseProblem(lockFile, holder));
  }
}

/** `<dir>/.<name>.lock`, beside the corpus file. */
export function lockFileOf(file: string): string {
  const abs = path.resolve(file);
  return path.join(path.dirname(abs), `.${path.basename(abs)}.lock`);
}

/** Who holds the lock on `file` now, if anyone (a lock file that does not parse: undefined holder, held). */
export function readLockHolder(file: string): { held: boolean; holder?: LockHolder } {
  const raw = readRaw(lockFileOf(file));
  return raw === undefined ? { held: false } : { held: true, holder: parseHolder(raw) };
}

/**
 * How long a fetch or build waits for another writer by default (the CLI's `--wait`, the extension's
 * jobs): long enough for a save by the extension's saver, which holds the lock for seconds; a fetch or
 * build holds it for minutes, and waiting that long unasked would look like a hang, so then the second
 * writer fails with the holder's line.
 */
export const DEFAULT_WRITER_WAIT_MS = 10_000;

/** A lock file that does not parse is judged stale only this long after it was last written (its writer takes microseconds). */
const GARBLED_STALE_MS = 10_000;
const MAX_TAKEOVERS = 5;

const held = new Set<{ lockFile: string; content: string }>();
let exitHookInstalled = false;

/**
 * Takes the lock on `file`, waiting up to `waitMs` for another writer. Throws CorpusInUseError (one
 * line: who holds it, since when, and which file to remove if that process is gone).
 */
export async function acquireWriterLock(file: string, opts: WriterLockOptions): Promise<WriterLock> {
  if (opts.mustExist) {
    if (!existsSync(file)) throw new CorpusFileError(file, 'no such file');
    if (statSync(file).isDirectory()) throw new CorpusFileError(file, 'is a directory, not a corpus file');
  }
  const lockFile = lockFileOf(file);
  const waitMs = opts.waitMs ?? 0;
  const pollMs = opts.pollMs ?? 100;
  const start = Date.now();
  let waiting = false;
  let takeovers = 0;
  for (;;) {
    opts.signal?.throwIfAborted();
    const holder: LockHolder = {
      pid: process.pid,
      startedAt: new Date().toISOString(),
      host: hostname(),
      command: opts.command,
    };
    const content = JSON.stringify(holder) + '\n';
    if (tryCreate(file, lockFile, content)) return granted(file, lockFile, holder, content);
    const raw = readRaw(lockFile);
    if (raw === undefined) continue; // released between our attempt and the read: try again at once
    const current = parseHolder(raw);
    if (isStale(lockFile, current) && takeovers < MAX_TAKEOVERS) {
      takeovers++;
      if (breakStale(lockFile, raw)) continue;
    }
    if (Date.now() - start >= waitMs) throw new CorpusInUseError(file, lockFile, current);
    if (!waiting) {
      waiting = true;
      opts.onWait?.(`${file}: ${inUseProblem(lockFile, current)}`, current);
    }
    await sleep(Math.min(pollMs, Math.max(1, waitMs - (Date.now() - start))), opts.signal);
  }
}

/** Runs `work` holding the lock on `file`, releasing it however `work` ends. */
export async function withWriterLock<T>(
  file: string,
  opts: WriterLockOptions,
  work: (lock: WriterLock) => Promise<T> | T,
): Promise<T> {
  const lock = await acquireWriterLock(file, opts);
  try {
    return await work(lock);
  } finally {
    lock.release();
  }
}

/** "pid 1234 (review-corpus build, since …)", with the host when it is not this one. */
export function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'a writer whose lock is being written or is damaged';
  return `pid ${holder.pid}${holder.host !== hostname() ? ` on host ${holder.host}` : ''} (${holder.command}, since ${holder.startedAt})`;
}

function inUseProblem(lockFile: string, holder: LockHolder | undefined): string {
  if (!holder)
    return `in use: its lock ${lockFile} is being written or is damaged; wait for it or remove ${lockFile} if no writer is running`;
  const foreign = holder.host !== hostname();
  const who = describeHolder(holder);
  return foreign
    ? `in use by ${who}; a lock from another host is never taken over: wait for it or remove ${lockFile} if that process is gone`
    : `in use by ${who}; wait for it or remove ${lockFile} if that process is gone`;
}

/** O_EXCL create; false when a lock is there. Any other failure is the one-line error of a writer that cannot write there. */
function tryCreate(file: string, lockFile: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockFile, 'wx', 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'ENOENT')
      throw new CorpusFileError(file, `cannot be written: the folder ${path.dirname(lockFile)} does not exist`);
    throw new CorpusFileError(file, `cannot take the writer's lock ${lockFile}: ${(e as Error).message}`);
  }
  try {
    writeSync(fd, content);
  } catch (e) {
    closeSync(fd);
    rmSync(lockFile, { force: true });
    throw new CorpusFileError(file, `cannot write the writer's lock ${lockFile}: ${(e as Error).message}`);
  }
  closeSync(fd);
  return true;
}

function granted(file: string, lockFile: string, holder: LockHolder, content: string): WriterLock {
  const entry = { lockFile, content };
  held.add(entry);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Best effort for a process that ends without reaching release() (process.exit, a parent gone).
    process.on('exit', () => {
      for (const e of held) removeIfOurs(e.lockFile, e.content);
    });
  }
  let released = false;
  return {
    file,
    lockFile,
    holder,
    release() {
      if (released) return;
      released = true;
      held.delete(entry);
      removeIfOurs(lockFile, content);
    },
  };
}

/** Removes the lock only if it is still the one we wrote: never another writer's that took ours over. */
function removeIfOurs(lockFile: string, content: string): void {
  try {
    if (readRaw(lockFile) === content) rmSync(lockFile, { force: true });
  } catch {
    // Best effort: a lock left behind is stale once this process is gone.
  }
}

function readRaw(lockFile: string): string | undefined {
  try {
    return readFileSync(lockFile, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

function parseHolder(raw: string): LockHolder | undefined {
  try {
    const h = JSON.parse(raw) as Partial<LockHolder>;
    if (typeof h.pid === 'number' && Number.isInteger(h.pid) && h.pid > 0 && typeof h.host === 'string') {
      return { pid: h.pid, startedAt: String(h.startedAt ?? '?'), host: h.host, command: String(h.command ?? '?') };
    }
  } catch {
    // fall through: not a lock we can read
  }
  return undefined;
}

/** Gone for sure: same host and no such pid; or a lock that never parsed, left long ago. */
function isStale(lockFile: string, holder: LockHolder | undefined): boolean {
  if (!holder) return ageMs(lockFile) > GARBLED_STALE_MS;
  return holder.host === hostname() && processIsGone(holder.pid);
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Removes the stale lock whose content was `raw`, under the break file, and only if the lock still
 * holds exactly `raw`. True when the caller should try to create the lock again at once.
 */
function breakStale(lockFile: string, raw: string): boolean {
  const breakFile = `${lockFile}.break`;
  let fd: number;
  try {
    fd = openSync(breakFile, 'wx', 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return false;
    // Another process is taking over right now; or one died doing so, which leaves its break file.
    const breaker = parseHolder(readRaw(breakFile) ?? '');
    if (breaker ? breaker.host === hostname() && processIsGone(breaker.pid) : ageMs(breakFile) > GARBLED_STALE_MS)
      rmSync(breakFile, { force: true });
    return false;
  }
  try {
    try {
      writeSync(
        fd,
        JSON.stringify({
          pid: process.pid,
          startedAt: new Date().toISOString(),
          host: hostname(),
          command: 'taking over a stale lock',
        }) + '\n',
      );
    } finally {
      closeSync(fd);
    }
    if (readRaw(lockFile) === raw) rmSync(lockFile, { force: true });
    return true;
  } finally {
    rmSync(breakFile, { force: true });
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
