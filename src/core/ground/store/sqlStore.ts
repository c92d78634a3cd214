// What the store's own modules need of a CorpusStore (diffText.ts reads and writes through it), apart
// from the class, so corpusStore.ts can call them without an import cycle.
import type { BindParams, SqlValue, Statement } from 'sql.js';
import type { BlobPack } from './blobPack';

export type Row = Record<string, SqlValue>;

export interface SqlStore {
  prepare(sql: string): Statement;
  run(sql: string, params?: BindParams): void;
  all<T = Row>(sql: string, params?: BindParams): T[];
  get<T = Row>(sql: string, params?: BindParams): T | undefined;
  scalar(sql: string, params?: BindParams): SqlValue | undefined;
  transaction<T>(work: () => T): T;
  /** Where blobs' bytes go and are read from (blobPack.ts). */
  readonly blobPack: BlobPack;
}
