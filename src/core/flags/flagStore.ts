// Flags in the corpus file. Detection adds open flags for the kept examples of a build; a user's
// confirm or dismiss is kept, with the rater's pseudonym, across rebuilds (keyed by example key).
import type { CorpusStore } from '../store/corpusStore';
import { UserError } from '../store/errors';
import { detectFlags, type DetectedFlag } from './detect';

export interface StoredFlag extends DetectedFlag {
  id: number;
  exampleKey: string;
  status: 'open' | 'confirmed' | 'dismissed';
  rater: string | null;
  decidedAt: string | null;
}

/** Detects flags on every kept example of `buildId`; returns how many new flags were added. */
export function refreshFlags(store: CorpusStore, buildId: number): number {
  const comments = new Map<number, { id: number; message: string }[]>();
  store.each(
    `SELECT x.example_id, cm.id, cm.message FROM example_comments x JOIN examples e ON e.id = x.example_id JOIN comments cm ON cm.id = x.comment_id
     WHERE e.build_id = ? AND e.rule IS NULL ORDER BY cm.updated, cm.id`,
    [buildId],
    (r) => {
      const list = comments.get(Number(r.example_id)) ?? [];
      list.push({ id: Number(r.id), message: String(r.message) });
      comments.set(Number(r.example_id), list);
    },
  );
  let added = 0;
  const rows: { key: string; flag: DetectedFlag }[] = [];
  store.each('SELECT id, example_key, before_text, after_text FROM examples WHERE build_id = ? AND rule IS NULL', [buildId], (r) => {
    for (const flag of detectFlags({ before: String(r.before_text), after: String(r.after_text), comments: comments.get(Number(r.id)) ?? [] })) {
      rows.push({ key: String(r.example_key), flag });
    }
  });
  store.transaction(() => {
    for (const { key, flag } of rows) {
      const before = store.scalar('SELECT count(*) FROM flags WHERE example_key = ? AND reason = ?', [key, flag.reason]);
      store.run('INSERT OR IGNORE INTO flags(example_key, reason, detail) VALUES (?, ?, ?)', [key, flag.reason, JSON.stringify(flag)]);
      if (Number(before) === 0) added++;
    }
  });
  return added;
}

export function flagsOf(store: CorpusStore, exampleKey: string): StoredFlag[] {
  return store.all<{ id: number; example_key: string; detail: string; status: StoredFlag['status']; rater: string | null; decided_at: string | null }>(
    'SELECT id, example_key, detail, status, rater, decided_at FROM flags WHERE example_key = ? ORDER BY reason', [exampleKey],
  ).map((r) => ({ ...(JSON.parse(r.detail) as DetectedFlag), id: r.id, exampleKey: r.example_key, status: r.status, rater: r.rater, decidedAt: r.decided_at }));
}

export function decideFlag(store: CorpusStore, flagId: number, status: 'confirmed' | 'dismissed', rater: string, now = new Date().toISOString()): void {
  if (!store.get('SELECT 1 AS x FROM flags WHERE id = ?', [flagId])) throw new UserError(`no flag ${flagId} in this corpus`);
  store.run('UPDATE flags SET status = ?, rater = ?, decided_at = ? WHERE id = ?', [status, rater, now, flagId]);
}
