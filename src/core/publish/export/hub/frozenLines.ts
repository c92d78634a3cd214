// A tag's frozen export (frozenExport.ts) as the Hub export reads it: each frozen split file's records,
// line by line from the blob's bytes (never one string of the whole split), and the other frozen files.
import { SPLIT_NAME_PATTERN } from '../../../ground/config/types';
import type { CorpusStore } from '../../../ground/store/corpusStore';
import {
  BlobReader,
  isDerivedCodec,
  storedBlobBytes,
  unpackBlob,
  type StoredBlob,
} from '../../../ground/store/diffText';
import { UserError } from '../../../ground/store/errors';
import { blobText } from '../../../build/records/buildRecords';
import { FROZEN_EXAMPLES_FILE } from '../frozenExport';
import { SPLITS_DIR } from '../publish';

export interface FrozenFile {
  path: string;
  text: () => string;
}

export interface FrozenHubSource {
  /** One per frozen split file, in the order of their paths. */
  splits: { split: string; total: number; lines: () => Iterable<string> }[];
  /** Lines of the frozen examples file: every record, those outside every window too. */
  examples: number;
  /** Every frozen file but the examples and the split files (reports, card). */
  rest: FrozenFile[];
}

const SPLIT_FILE = new RegExp(`^${SPLITS_DIR}/(.+)\\.jsonl$`);

export function frozenFiles(store: CorpusStore, tag: string): FrozenHubSource {
  const rows = store.all<{ path: string; sha256: string }>(
    'SELECT path, sha256 FROM tag_files WHERE tag = ? ORDER BY path',
    [tag],
  );
  const out: FrozenHubSource = { splits: [], examples: 0, rest: [] };
  for (const r of rows) {
    const rel = String(r.path);
    const sha = String(r.sha256);
    if (rel.startsWith('/') || rel.split('/').includes('..')) throw new UserError(`tag ${tag}: bad frozen path ${rel}`);
    const split = SPLIT_FILE.exec(rel)?.[1];
    if (rel === FROZEN_EXAMPLES_FILE) out.examples = lineCount(blobBytes(store, sha));
    else if (split !== undefined) {
      if (!new RegExp(SPLIT_NAME_PATTERN).test(split))
        throw new UserError(`tag ${tag}: frozen split file ${rel} has no split name the Hub accepts`);
      out.splits.push({
        split,
        total: lineCount(blobBytes(store, sha)),
        lines: () => bufferLines(blobBytes(store, sha)),
      });
    } else out.rest.push({ path: rel, text: () => blobText(store, sha) });
  }
  return out;
}

/** A frozen file's UTF-8 bytes (a frozen file is stored whole; a delta, which no export writes, is joined). */
function blobBytes(store: CorpusStore, sha: string): Buffer {
  const row = store.get<StoredBlob>('SELECT codec, bytes, base, pack_offset, pack_length FROM blobs WHERE sha256 = ?', [
    sha,
  ]);
  if (!row) throw new Error(`blob ${sha} is missing`);
  const codec = String(row.codec);
  if (isDerivedCodec(codec)) return Buffer.from(new BlobReader(store).lines(sha, row).join('\n'), 'utf8');
  return unpackBlob(codec, storedBlobBytes(store, row));
}

/** Lines of a JSONL file's bytes: each ends with "\n". */
function lineCount(bytes: Buffer): number {
  let n = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) n++;
  return n;
}

function* bufferLines(bytes: Buffer): Iterable<string> {
  let start = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, start)) {
    yield bytes.toString('utf8', start, at);
    start = at + 1;
  }
}
