// What the store's own modules need of a CorpusStore (diffText.ts reads and writes through it), apart
// from the class, so corpusStore.ts can call them without an import cycle.
import type { BindParams, SqlValue } from 'sql.js';
import type { BlobPack } from './blobPack';

export type Row = Record<string, SqlValue>;

/**
 * A prepared statement of a CorpusStore: every call runs through the store's damage mapping, so a
 * damaged page it meets is one line naming the file, wherever the scan is.
 */
export interface StoreStatement {
  /** Runs it once; returns the rows it changed. */
  run(params?: BindParams): number;
  /** Each row it gives, as an array in SELECT order (no object per row: cheaper for long scans). */
  eachArray(params: BindParams, onRow: (row: SqlValue[]) => void): void;
}

export interface SqlStore {
  prepare(sql: string): StoreStatement;
  run(sql: string, params?: BindParams): void;
  all<T = Row>(sql: string, params?: BindParams): T[];
  get<T = Row>(sql: string, params?: BindParams): T | undefined;
  scalar(sql: string, params?: BindParams): SqlValue | undefined;
  transaction<T>(work: () => T): T;
  /** Where blobs' bytes go and are read from (blobPack.ts). */
  readonly blobPack: BlobPack;
}
