// An export is many files read from the corpus as they are written. A damaged page met halfway (or any
// other failure) must leave the export folder as it was, not with some files new and some old: every
// file is written into a staging folder beside the real one, and moved into place only once all are.
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { syncDirectory } from '../../ground/store/atomicSave';

/**
 * Runs `write` with the examples file's path inside a fresh staging folder (in `out`'s folder, so the
 * moves are renames on one file system), then moves everything it wrote to the same place under `out`'s
 * folder. `relocate` turns a staged path of the result into its final one. When `write` throws, the
 * staging folder goes and nothing has moved.
 */
export function writeStaged<T>(
  out: string,
  write: (stagedOut: string) => T,
  relocate: (result: T, finalPath: (staged: string) => string) => T,
): T {
  const dir = path.dirname(path.resolve(out));
  const stage = mkdtempSync(path.join(dir, '.review-corpus-export-'));
  try {
    const result = write(path.join(stage, path.basename(out)));
    const moved = new Set<string>();
    for (const rel of stagedFiles(stage)) {
      const target = path.join(dir, rel);
      mkdirSync(path.dirname(target), { recursive: true });
      renameSync(path.join(stage, rel), target);
      moved.add(path.dirname(target));
    }
    for (const d of moved) syncDirectory(d);
    return relocate(result, (staged) => path.join(dir, path.relative(stage, staged)));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Every file under `stage`, as paths relative to it. */
function stagedFiles(stage: string): string[] {
  return readdirSync(stage, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(stage, path.join(e.parentPath ?? e.path, e.name)));
}
