// A tag is a snapshot: tagging a build writes its whole export once (the examples, the split files,
// dataset-funnel.json, counts.csv, curation_audit.jsonl, the label audits and the card) and keeps every
// file's bytes in the corpus file (tag_files, blobs), so `export --build <tag>` writes the same bytes
// forever, whatever is refetched, labelled or configured later.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { blobText, recordManifest } from '../../build/records/buildRecords';
import { saveAtomically } from '../../ground/store/atomicSave';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { BlobReader, putBlob } from '../../ground/store/diffText';
import { UserError } from '../../ground/store/errors';
import { tagBuild, type BuildTag } from '../versions/tags';
import { exportCorpus } from './exportJsonl';
import type { CardSplit } from './cardHeader';
import { SPLITS_DIR } from './publish';

/** The name a tagged build's examples file is frozen under (the card names it). */
export const FROZEN_EXAMPLES_FILE = 'examples.jsonl';

/** Tags build `buildId` as `name` and freezes its export; throws a one-line UserError if it cannot. */
export function tagAndFreeze(store: CorpusStore, buildId: number, name: string, at?: string): BuildTag {
  if (!recordManifest(store, buildId))
    throw new UserError(
      `build ${buildId} was written before builds stored their published records, so it cannot be frozen as it was published; rebuild, then tag the new build`,
    );
  const tag = tagBuild(store, buildId, name, at);
  const dir = mkdtempSync(path.join(tmpdir(), 'review-corpus-tag-'));
  try {
    const written = exportCorpus(store, path.join(dir, FROZEN_EXAMPLES_FILE), {}, buildId);
    const insert = store.prepare('INSERT INTO tag_files(tag, path, sha256) VALUES (?, ?, ?)');
    for (const file of written.files) {
      const rel = path.relative(dir, file).split(path.sep).join('/');
      insert.run([name, rel, putBlob(store, readFileSync(file, 'utf8'))]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return tag;
}

/** The earliest tag of `buildId` whose export is frozen; undefined when none is. */
export function frozenTagOf(store: CorpusStore, buildId: number): string | undefined {
  const row = store.get<{ name: string }>(
    `SELECT t.name FROM build_tags t WHERE t.build_id = ? AND EXISTS (SELECT 1 FROM tag_files f WHERE f.tag = t.name)
     ORDER BY t.tagged_at, t.name LIMIT 1`,
    [buildId],
  );
  return row ? String(row.name) : undefined;
}

/** Refuses an examples file named otherwise than tag `tag` froze it (its card names that file). */
export function checkFrozenOut(tag: string, out: string): void {
  if (path.basename(out) !== FROZEN_EXAMPLES_FILE)
    throw new UserError(
      `--out ${out}: tag ${tag}'s export is frozen with its examples as ${FROZEN_EXAMPLES_FILE} (its card names that file); use --out ${path.join(path.dirname(out), FROZEN_EXAMPLES_FILE)}`,
    );
}

/** Writes tag `tag`'s frozen files: the examples to `out` (named as frozen), the rest beside it. */
export function writeFrozenExport(
  store: CorpusStore,
  tag: string,
  out: string,
): { examples: number; files: string[]; splits: CardSplit[]; warnings: string[] } {
  checkFrozenOut(tag, out);
  const dir = path.dirname(path.resolve(out));
  const reader = new BlobReader(store);
  const rows = store.all<{ path: string; sha256: string }>(
    'SELECT path, sha256 FROM tag_files WHERE tag = ? ORDER BY path',
    [tag],
  );
  const files: string[] = [];
  const splits: CardSplit[] = [];
  let examples = 0;
  for (const r of rows) {
    const rel = String(r.path);
    // Written by tagAndFreeze from the export's own names; checked again, as any path read from a file is.
    if (rel.startsWith('/') || rel.split('/').includes('..')) throw new UserError(`tag ${tag}: bad frozen path ${rel}`);
    const file = path.join(dir, ...rel.split('/'));
    const text = blobText(store, String(r.sha256), reader);
    mkdirSync(path.dirname(file), { recursive: true });
    saveAtomically(file, Buffer.from(text, 'utf8'));
    files.push(file);
    const lines = text === '' ? 0 : text.split('\n').length - 1;
    if (rel === FROZEN_EXAMPLES_FILE) examples = lines;
    const split = new RegExp(`^${SPLITS_DIR}/(.+)\\.jsonl$`).exec(rel);
    if (split) splits.push({ window: split[1], split: split[1], path: rel, examples: lines });
  }
  return { examples, files, splits, warnings: [] };
}
