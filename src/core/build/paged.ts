// Streams a table in pages by rowid, yielding between pages, so 100k-row scans stay cancellable and
// never hold a statement open across an await.
import type { CorpusStore, Row } from '../store/corpusStore';
import { checkpoint } from './abort';

/**
 * `select` is a SELECT whose first column is `id` and which ends in "WHERE id > ?" or
 * "AND id > ?" (without ORDER BY / LIMIT); rows arrive in id order.
 */
export async function eachPaged(store: CorpusStore, select: string, onRow: (row: Row) => void, signal?: AbortSignal, pageSize = 5000): Promise<void> {
  const sql = `${select} ORDER BY id LIMIT ${pageSize}`;
  let after = -1;
  for (;;) {
    let n = 0;
    store.each(sql, [after], (row) => {
      n++;
      after = Number(row.id);
      onRow(row);
    });
    if (n < pageSize) return;
    await checkpoint(signal);
  }
}
