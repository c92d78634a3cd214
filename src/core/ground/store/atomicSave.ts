import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * Bytes per write call. fs.writeSync takes at most 2^31 - 1 bytes at once (more is a RangeError),
 * and a corpus can be larger than that.
 */
export const WRITE_CHUNK_BYTES = 64 << 20;

/** Test seams. */
export interface SaveHooks {
  /** Runs after the temporary file is written and synced, before the rename. */
  beforeRename?: (tempPath: string) => void;
  /** Bytes per write call instead of WRITE_CHUNK_BYTES. */
  chunkBytes?: number;
  /** The write call, to watch what each call is handed; fs.writeSync's signature. */
  write?: (fd: number, bytes: Uint8Array, offset: number, length: number) => number;
}

/**
 * Writes `bytes` to `target` so that a crash at any point leaves the old file or the new one:
 * write a temporary file in the same folder, fsync it, rename it over the target, fsync the folder.
 */
export function saveAtomically(target: string, bytes: Uint8Array, hooks: SaveHooks = {}): void {
  saveStreamAtomically(target, (put) => put(bytes), hooks);
}

/**
 * `lines`, each followed by "\n", saved atomically and written a few MB at a time: a file of more text
 * than one JavaScript string holds (about 512 MB) is written whole all the same.
 */
export function saveLinesAtomically(target: string, lines: Iterable<string>, hooks: SaveHooks = {}): void {
  saveStreamAtomically(
    target,
    (put) => {
      let pending: string[] = [];
      let chars = 0;
      for (const line of lines) {
        pending.push(line, '\n');
        chars += line.length + 1;
        if (chars >= 8 << 20) {
          put(Buffer.from(pending.join(''), 'utf8'));
          pending = [];
          chars = 0;
        }
      }
      if (pending.length) put(Buffer.from(pending.join(''), 'utf8'));
    },
    hooks,
  );
}

/**
 * saveAtomically for output made piece by piece (an export of 100k whole files): `produce` hands each
 * piece to `put`, which writes it to the temporary file at once, so the whole never sits in memory.
 */
export function saveStreamAtomically(
  target: string,
  produce: (put: (bytes: Uint8Array) => void) => void,
  hooks: SaveHooks = {},
): void {
  const dir = path.dirname(path.resolve(target));
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  const chunk = hooks.chunkBytes ?? WRITE_CHUNK_BYTES;
  const write: NonNullable<SaveHooks['write']> = hooks.write ?? writeSync;
  let renamed = false;
  try {
    const fd = openSync(temp, 'wx', 0o644);
    try {
      produce((bytes) => {
        let offset = 0;
        while (offset < bytes.length) offset += write(fd, bytes, offset, Math.min(chunk, bytes.length - offset));
      });
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    hooks.beforeRename?.(temp);
    renameSync(temp, target);
    renamed = true;
    syncDirectory(dir);
  } finally {
    if (!renamed) rmSync(temp, { force: true });
  }
}

/**
 * Removes the temporary files that saves of `target` killed before their rename left beside it
 * (each is a whole copy of the corpus), but only those whose process is gone: a live process may be
 * writing its temp right now (the extension's saver, another CLI). Returns the paths removed.
 */
export function removeStaleTemps(target: string): string[] {
  const dir = path.dirname(path.resolve(target));
  const name = path.basename(target).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^\\.${name}\\.(\\d+)\\.\\d+\\.tmp$`);
  const removed: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return removed; // housekeeping only: a folder we cannot list keeps its files
  }
  for (const entry of entries) {
    const pid = Number(pattern.exec(entry)?.[1]);
    if (!(pid > 0) || !processIsGone(pid)) continue;
    try {
      rmSync(path.join(dir, entry), { force: true });
      removed.push(path.join(dir, entry));
    } catch {
      // Not ours to fix (permissions, a read-only folder); the corpus opens all the same.
    }
  }
  return removed;
}

/** True only when no process has that pid. EPERM means one does, owned by someone else. */
export function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** fsyncs a folder, so that a file created or renamed in it survives a crash. */
export function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a directory; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
