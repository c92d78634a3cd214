import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Test seam: runs after the temporary file is written and synced, before the rename. */
export interface SaveHooks {
  beforeRename?: (tempPath: string) => void;
}

/**
 * Writes `bytes` to `target` so that a crash at any point leaves the old file or the new one:
 * write a temporary file in the same folder, fsync it, rename it over the target, fsync the folder.
 */
export function saveAtomically(target: string, bytes: Uint8Array, hooks: SaveHooks = {}): void {
  const dir = path.dirname(path.resolve(target));
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  let renamed = false;
  try {
    const fd = openSync(temp, 'wx', 0o644);
    try {
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
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

function syncDirectory(dir: string): void {
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
