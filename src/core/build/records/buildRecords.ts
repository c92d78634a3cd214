// A build's published records, stored with the build: each kept example's exported JSON line is a
// blob of its own (content-addressed, so a record unchanged between builds is stored once; since schema
// 15 a line of a shared compressed chunk, diffText.ts LineChunks), and the
// build names a manifest blob listing them in export order. The corpus hash covers the manifest, so
// it covers every byte an export writes; an export of the build writes these lines, never a fresh
// read of records a refetch may have changed since.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { BlobReader, LineChunks, putBlob } from '../../ground/store/diffText';
import { eachExportedExample, exportedExamples } from './publishedRecords';

/** One published record of a build: its blob, its example key and its window (for the split files). */
export interface RecordEntry {
  sha256: string;
  key: string;
  window: string | null;
}

/** Computes the published records of build `buildId` from the rows just written, stores them; returns the manifest's blob id. */
export function storeBuildRecords(store: CorpusStore, buildId: number): string {
  const entries: [string, string, string | null][] = [];
  const records = new LineChunks(store);
  eachExportedExample(store, buildId, true, (e) => entries.push([records.add(JSON.stringify(e)), e.id, e.window]));
  records.flush();
  const manifest = putBlob(store, JSON.stringify(entries));
  store.run('UPDATE builds SET records_sha256 = ? WHERE id = ?', [manifest, buildId]);
  return manifest;
}

/** Whether the build stored its published records (builds written before records were stored did not). */
export function recordsStored(store: CorpusStore, buildId: number): boolean {
  return typeof store.scalar('SELECT records_sha256 FROM builds WHERE id = ?', [buildId]) === 'string';
}

/** The build's stored records in export order; undefined for a build written before records were stored. */
export function recordManifest(store: CorpusStore, buildId: number): RecordEntry[] | undefined {
  const id = store.scalar('SELECT records_sha256 FROM builds WHERE id = ?', [buildId]);
  if (typeof id !== 'string') return undefined;
  const entries = JSON.parse(blobText(store, id)) as [string, string, string | null][];
  return entries.map(([sha256, key, window]) => ({ sha256, key, window }));
}

/** A stored blob's text (a record, a manifest, a frozen file); throws naming the blob when it is missing. */
export function blobText(store: CorpusStore, id: string, reader = new BlobReader(store)): string {
  return reader.lines(id).join('\n');
}

/**
 * The JSON lines an export of build `buildId` writes, with their windows: the records stored with the
 * build, or, for a build written before records were stored, the records as they read now.
 */
export function buildRecordLines(store: CorpusStore, buildId: number): { window: string | null; line: string }[] {
  const manifest = recordManifest(store, buildId);
  if (!manifest)
    return exportedExamples(store, buildId, true).map((e) => ({ window: e.window, line: JSON.stringify(e) }));
  const reader = new BlobReader(store);
  return manifest.map((m) => ({ window: m.window, line: blobText(store, m.sha256, reader) }));
}
