// `export --format hub --out DIR`: a folder the Hugging Face Hub takes as it is. DIR/data holds each
// split's Parquet shards (`<split>-NNNNN-of-MMMMM.parquet`), DIR/README.md the dataset card with the
// Hub's front matter, and beside it counts.csv, curation_audit.jsonl, dataset-funnel.json and the label
// audits, the same files the JSONL export writes (publish.ts).
//
// The records are the JSONL export's, byte for byte before typing: a build's stored records
// (buildRecords.ts) read one at a time in export order, or, for a tagged build, the split files the tag
// froze (frozenExport.ts), so a tag's shards are the same bytes at every export. Everything is written
// into a staging folder inside DIR first and moved into place at the end, file by file; a failure or a
// cancellation leaves DIR as it was.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { blobText, recordManifest, buildRecordLines } from '../../../build/records/buildRecords';
import { recordColumns, type RecordColumn } from '../../../build/records/recordColumns';
import { recordedConfig, storedConfig } from '../../../build/stages/loadCorpus';
import type { CorpusConfig } from '../../../ground/config/types';
import type { CorpusStore } from '../../../ground/store/corpusStore';
import { BlobReader } from '../../../ground/store/diffText';
import { UserError } from '../../../ground/store/errors';
import { saveAtomically } from '../../../ground/store/atomicSave';
import { writeFunnel } from '../exportJsonl';
import { FROZEN_EXAMPLES_FILE, frozenTagOf } from '../frozenExport';
import { CARD_FILE, publishedSplits, SPLITS_DIR, writePublishables } from '../publish';
import { frozenFiles, type FrozenFile } from './frozenLines';
import { hubCard, type HubFile, type HubSplit } from './hubCard';
import { hubFeatures, rowConverter } from './hubColumns';
import { SplitShardWriter, type WrittenShard } from './parquetShards';

/** `--shard-size`'s default, in MB (10^6 bytes). */
export const DEFAULT_SHARD_MB = 256;

/** A shard's name: `<split>-NNNNN-of-MMMMM.parquet` (datatrove's and the Hub's layout). */
const SHARD_NAME = /^[A-Za-z0-9_.]+-\d{5}-of-\d{5}\.parquet$/;

export interface HubExportOptions {
  /** The card's license, language, title and split names; absent: the config stored with the build. */
  config?: CorpusConfig;
  /** The most bytes a shard holds; default DEFAULT_SHARD_MB. */
  shardBytes?: number;
  signal?: AbortSignal;
  onProgress?: (p: { split: string; done: number; total: number }) => void;
}

export interface HubExportResult {
  buildId: number;
  /** The tag whose frozen records were exported; undefined: the build's stored records. */
  frozenTag: string | undefined;
  splits: HubSplit[];
  examples: number;
  outsideWindows: number;
  /** Every file written into DIR, shards first. */
  files: string[];
  warnings: string[];
}

/** One split to write: its name, its window where known, and its records' JSON lines in export order. */
interface SplitSource {
  split: string;
  window?: string;
  total: number;
  lines: () => Iterable<string>;
}

export async function exportHub(
  store: CorpusStore,
  dir: string,
  buildId: number,
  opts: HubExportOptions = {},
): Promise<HubExportResult> {
  const shardBytes = opts.shardBytes ?? DEFAULT_SHARD_MB * 1e6;
  const tag = frozenTagOf(store, buildId);
  const frozen = tag === undefined ? undefined : frozenFiles(store, tag);
  const sources = frozen ? frozen.splits : liveSplits(store, buildId, opts.config);
  const examples = frozen
    ? frozen.examples
    : (recordManifest(store, buildId)?.length ?? buildRecordLines(store, buildId).length);
  mkdirSync(dir, { recursive: true });
  const staging = mkdtempSync(path.join(dir, '.hub-export-'));
  try {
    mkdirSync(path.join(staging, SPLITS_DIR));
    const columns = recordColumns();
    const splits: HubSplit[] = [];
    for (const source of sources) splits.push(await writeSplit(staging, source, columns, shardBytes, opts));
    const outsideWindows = examples - splits.reduce((n, s) => n + s.rows, 0);
    const card = { splits, features: hubFeatures(columns), outsideWindows };
    let warnings: string[] = [];
    if (frozen) writeFrozenRest(staging, frozen.rest, card);
    else {
      const funnelFile = writeFunnel(store, buildId, staging);
      const windows = liveWindows(store, buildId);
      warnings = writePublishables(store, buildId, staging, FROZEN_EXAMPLES_FILE, windows, {
        config: opts.config,
        splitFiles: false,
        cardText: (text, written) =>
          hubCard(text, { ...card, files: [funnelFile, ...written].map((f) => hubFile(staging, f)) }),
      }).warnings;
    }
    const files = placeFiles(staging, dir);
    return { buildId, frozenTag: tag, splits, examples, outsideWindows, files, warnings };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The build's splits and their stored records, read one at a time (a build stored before records were: as they read now). */
function liveSplits(store: CorpusStore, buildId: number, config: CorpusConfig | undefined): SplitSource[] {
  const card = (config ?? recordedConfig(store, buildId) ?? storedConfig(store)).card;
  const manifest = recordManifest(store, buildId);
  const old = manifest ? undefined : buildRecordLines(store, buildId);
  return publishedSplits(store, buildId, card).map(({ window, split }) => {
    const total = manifest
      ? manifest.filter((m) => m.window === window).length
      : old!.filter((e) => e.window === window).length;
    function* lines(): Iterable<string> {
      if (!manifest) {
        for (const e of old!) if (e.window === window) yield e.line;
        return;
      }
      const reader = new BlobReader(store);
      for (const m of manifest) if (m.window === window) yield blobText(store, m.sha256, reader);
    }
    return { split, window, total, lines };
  });
}

/** Each exported record's window only, for the card's split counts. */
function liveWindows(store: CorpusStore, buildId: number): { window: string | null }[] {
  return recordManifest(store, buildId) ?? buildRecordLines(store, buildId).map((e) => ({ window: e.window }));
}

/** Writes one split's shards into the staging folder's data/, named as they will be published. */
async function writeSplit(
  staging: string,
  source: SplitSource,
  columns: readonly RecordColumn[],
  shardBytes: number,
  opts: HubExportOptions,
): Promise<HubSplit> {
  const data = path.join(staging, SPLITS_DIR);
  const writer = new SplitShardWriter(data, source.split, columns, shardBytes);
  const convert = rowConverter(columns);
  let written: WrittenShard[];
  let done = 0;
  let window = source.window;
  opts.signal?.throwIfAborted();
  try {
    for (const line of source.lines()) {
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        throw new UserError(`split ${source.split}: record ${done + 1} is not JSON; nothing was exported`);
      }
      window ??= (record as { window?: string }).window;
      writer.add(convert(record) as Record<string, unknown>, Buffer.byteLength(line, 'utf8'));
      // Let the job process hear a cancellation, and say how far it is.
      if (++done % 1000 === 0) {
        opts.onProgress?.({ split: source.split, done, total: source.total });
        await nextTurn();
        opts.signal?.throwIfAborted();
      }
    }
    written = writer.finish();
  } catch (e) {
    writer.abandon();
    throw e;
  }
  opts.onProgress?.({ split: source.split, done, total: source.total });
  const count = String(written.length).padStart(5, '0');
  const shards = written.map((s, i) => {
    const rel = `${SPLITS_DIR}/${source.split}-${String(i).padStart(5, '0')}-of-${count}.parquet`;
    renameSync(s.file, path.join(staging, ...rel.split('/')));
    return { path: rel, rows: s.rows, bytes: s.bytes, sha256: s.sha256 };
  });
  return { split: source.split, window, rows: done, shards, glob: `${SPLITS_DIR}/${source.split}-*.parquet` };
}

/** A tag's frozen reports, as frozen, and the Hub card made from its frozen card. */
function writeFrozenRest(
  staging: string,
  rest: readonly FrozenFile[],
  card: Omit<Parameters<typeof hubCard>[1], 'files'>,
): void {
  const files: HubFile[] = [];
  let cardText: string | undefined;
  for (const f of rest) {
    if (f.path === CARD_FILE) {
      cardText = f.text();
      continue;
    }
    const bytes = Buffer.from(f.text(), 'utf8');
    const file = path.join(staging, ...f.path.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    saveAtomically(file, bytes);
    files.push({ path: f.path, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  if (cardText === undefined) throw new UserError(`the tag's frozen files hold no ${CARD_FILE}`);
  saveAtomically(path.join(staging, CARD_FILE), Buffer.from(hubCard(cardText, { ...card, files }), 'utf8'));
}

function hubFile(staging: string, file: string): HubFile {
  const bytes = readFileSync(file);
  return {
    path: path.relative(staging, file).split(path.sep).join('/'),
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/**
 * Moves every staged file into `dir` (one rename each), after removing the shards an earlier export left
 * in DIR/data, which the card's globs would otherwise also match. Returns the final paths, shards first.
 */
function placeFiles(staging: string, dir: string): string[] {
  const staged = listFiles(staging);
  const data = path.join(dir, SPLITS_DIR);
  mkdirSync(data, { recursive: true });
  const fresh = new Set(
    staged.filter((f) => f.startsWith(`${SPLITS_DIR}/`)).map((f) => f.slice(SPLITS_DIR.length + 1)),
  );
  for (const name of readdirSync(data))
    if (SHARD_NAME.test(name) && !fresh.has(name)) unlinkSync(path.join(data, name));
  const ordered = [
    ...staged.filter((f) => f.startsWith(`${SPLITS_DIR}/`)),
    ...staged.filter((f) => !f.startsWith(`${SPLITS_DIR}/`)),
  ];
  return ordered.map((rel) => {
    const to = path.join(dir, ...rel.split('/'));
    mkdirSync(path.dirname(to), { recursive: true });
    renameSync(path.join(staging, ...rel.split('/')), to);
    return to;
  });
}

/** Files under `root`, relative and "/" separated, sorted. */
function listFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(path.join(root, r)).isDirectory()) out.push(...listFiles(root, r));
    else out.push(r);
  }
  return out;
}
