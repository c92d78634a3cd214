// Streams a table in pages by rowid, yielding between pages, so 100k-row scans stay cancellable and
// never hold a statement open across an await. Rows arrive as arrays in SELECT order: building an
// object per row asks sql.js for every column name again, which costs more than the read itself.
import type { SqlValue } from 'sql.js';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { checkpoint } from './abort';

/** Runs `sql` to the end, handing each row (as an array) to `onRow`; a damaged page names the file (CorpusStore). */
export function eachRow(store: CorpusStore, sql: string, params: SqlValue[], onRow: (row: SqlValue[]) => void): void {
  store.prepare(sql).eachArray(params, onRow);
}

/**
 * `select` is a SELECT whose FIRST column is the rowid `id` and which ends in "WHERE id > ?" (or
 * "AND id > ?"), without ORDER BY or LIMIT; rows arrive in id order.
 */
export async function eachPaged(
  store: CorpusStore,
  select: string,
  onRow: (row: SqlValue[]) => void,
  signal?: AbortSignal,
  pageSize = 5000,
): Promise<void> {
  const sql = `${select} ORDER BY id LIMIT ${pageSize}`;
  let after = -1;
  for (;;) {
    let n = 0;
    eachRow(store, sql, [after], (row) => {
      n++;
      after = Number(row[0]);
      onRow(row);
    });
    if (n < pageSize) return;
    await checkpoint(signal);
  }
}
