// The items under one tree group, a page at a time, and the full record of one item.
import type { CorpusStore } from '../store/corpusStore';

export interface ItemFilter {
  flagged?: boolean;
  label?: string;
  /** Text that must occur in one of the item's comments (case-insensitive). */
  text?: string;
}

export interface GroupRef {
  buildId: number;
  org: string;
  window: string | null;
  /** 'kept' or a rule id. */
  rule: string;
  unit: 'examples' | 'hunks' | 'comments' | 'changes';
}

export interface ExampleItem {
  kind: 'example';
  id: number;
  key: string;
  changeNumber: number;
  project: string;
  path: string;
  psBefore: number;
  psAfter: number;
  rule: string | null;
  firstComment: string;
  flags: number;
  openFlags: number;
  labels: number;
}

export interface CommentItem {
  kind: 'comment';
  id: number;
  changeNumber: number;
  project: string;
  path: string;
  patchSet: number | null;
  line: number | null;
  rule: string;
  message: string;
  /** The example the comment is anchored in, when it reached one. */
  exampleId: number | null;
}

export type Item = ExampleItem | CommentItem;

/**
 * A page of a group's items. `afterId`, the id of the last example of the previous page, reads the next
 * page of examples from the index instead of skipping `offset` rows (removed comments page by offset).
 */
export function listItems(store: CorpusStore, group: GroupRef, offset: number, limit: number, filter: ItemFilter = {}, afterId?: number): Item[] {
  if (group.unit === 'comments') return listComments(store, group, offset, limit, filter);
  if (group.unit === 'changes') return [];
  const where = ['e.build_id = ?', 'h.org = ?', 'e.window IS ?', group.rule === 'kept' ? 'e.rule IS NULL' : 'e.rule = ?'];
  const params: (string | number | null)[] = [group.buildId, group.org, group.window];
  if (group.rule !== 'kept') params.push(group.rule);
  if (afterId !== undefined) {
    where.push('e.id > ?');
    params.push(afterId);
  }
  addFilter(where, params, filter, 'e.example_key', 'EXISTS (SELECT 1 FROM example_comments x JOIN comments cc ON cc.id = x.comment_id WHERE x.example_id = e.id AND lower(cc.message) LIKE ?)');
  // Examples are numbered in the order the tree lists them (build/exampleStage.ts, treeOrder), so a
  // page is a walk of examples_group in id order; the per-row subqueries then run for that page only.
  const rows = store.all<Record<string, number | string | null>>(
    `WITH page AS (
       SELECT e.id FROM examples e JOIN changes c ON c.id = e.change_id JOIN hosts h ON h.id = c.host_id
       WHERE ${where.join(' AND ')} ORDER BY e.id LIMIT ? OFFSET ?)
     SELECT e.id, e.example_key, c.number, c.project, e.path, e.ps_before, e.ps_after, e.rule,
       (SELECT cm.message FROM example_comments x JOIN comments cm ON cm.id = x.comment_id WHERE x.example_id = e.id ORDER BY cm.line, cm.updated LIMIT 1) AS first_comment,
       (SELECT count(*) FROM flags f WHERE f.example_key = e.example_key) AS flags,
       (SELECT count(*) FROM flags f WHERE f.example_key = e.example_key AND f.status = 'open') AS open_flags,
       (SELECT count(*) FROM labels l WHERE l.example_key = e.example_key) AS labels
     FROM page JOIN examples e ON e.id = page.id JOIN changes c ON c.id = e.change_id
     ORDER BY e.id`,
    [...params, limit, afterId === undefined ? offset : 0],
  );
  return rows.map((r) => ({
    kind: 'example', id: Number(r.id), key: String(r.example_key), changeNumber: Number(r.number), project: String(r.project),
    path: String(r.path), psBefore: Number(r.ps_before), psAfter: Number(r.ps_after), rule: r.rule === null ? null : String(r.rule),
    firstComment: String(r.first_comment ?? ''), flags: Number(r.flags), openFlags: Number(r.open_flags), labels: Number(r.labels),
  }));
}

function addFilter(where: string[], params: (string | number | null)[], filter: ItemFilter, keyColumn: string, textExists: string): void {
  if (filter.flagged) where.push(`EXISTS (SELECT 1 FROM flags f WHERE f.example_key = ${keyColumn})`);
  if (filter.label) {
    where.push(`EXISTS (SELECT 1 FROM labels l WHERE l.example_key = ${keyColumn} AND l.label = ?)`);
    params.push(filter.label);
  }
  if (filter.text) {
    where.push(textExists);
    params.push(`%${filter.text.toLowerCase()}%`);
  }
}

function listComments(store: CorpusStore, group: GroupRef, offset: number, limit: number, filter: ItemFilter): CommentItem[] {
  // `window IS ?` matches the window by name, or no window (null), and can use the index.
  const where = ['d.build_id = ?', "d.unit = 'comments'", 'd.org = ?', 'd.window IS ?', 'd.rule = ?'];
  const params: (string | number | null)[] = [group.buildId, group.org, group.window, group.rule];
  if (filter.flagged || filter.label) return []; // flags and labels belong to examples, not removed comments
  if (filter.text) {
    where.push('lower(cm.message) LIKE ?');
    params.push(`%${filter.text.toLowerCase()}%`);
  }
  const rows = store.all<Record<string, number | string | null>>(
    `SELECT cm.id, c.number, c.project, cm.path, cm.patch_set, cm.line, d.rule, cm.message,
       (SELECT x.example_id FROM example_comments x JOIN examples e ON e.id = x.example_id WHERE x.comment_id = cm.id AND e.build_id = d.build_id LIMIT 1) AS example_id
     FROM decisions d JOIN comments cm ON cm.id = d.unit_id JOIN changes c ON c.id = cm.change_id
     WHERE ${where.join(' AND ')}
     ORDER BY c.created, c.number, cm.path, cm.line LIMIT ? OFFSET ?`,
    [...params, limit, offset],
  );
  return rows.map((r) => ({
    kind: 'comment', id: Number(r.id), changeNumber: Number(r.number), project: String(r.project), path: String(r.path),
    patchSet: r.patch_set === null ? null : Number(r.patch_set), line: r.line === null ? null : Number(r.line), rule: String(r.rule),
    message: String(r.message), exampleId: r.example_id === null ? null : Number(r.example_id),
  }));
}
