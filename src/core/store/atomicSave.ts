import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
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
  const { dir, temp } = tempBeside(target);
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

/**
 * saveAtomically without holding the event loop: the writes, fsyncs and rename run on libuv's thread
 * pool (an 800 MB corpus takes seconds to write). Same steps, same guarantees.
 */
export async function saveAtomicallyAsync(target: string, bytes: Uint8Array, hooks: SaveHooks = {}): Promise<void> {
  const { dir, temp } = tempBeside(target);
  let renamed = false;
  try {
    const file = await open(temp, 'wx', 0o644);
    try {
      for (let offset = 0; offset < bytes.length;) offset += (await file.write(bytes, offset, bytes.length - offset)).bytesWritten;
      await file.sync();
    } finally {
      await file.close();
    }
    hooks.beforeRename?.(temp);
    await rename(temp, target);
    renamed = true;
    syncDirectory(dir); // one small fsync; not worth a round trip through the pool
  } finally {
    if (!renamed) await rm(temp, { force: true });
  }
}

/** A temp file name in the target's folder (so the rename stays on one file system), unique per save. */
function tempBeside(target: string): { dir: string; temp: string } {
  const dir = path.dirname(path.resolve(target));
  tempCounter = (tempCounter + 1) % 1_000_000;
  return { dir, temp: path.join(dir, `.${path.basename(target)}.${process.pid}.${Date.now()}.${tempCounter}.tmp`) };
}
let tempCounter = 0;

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
