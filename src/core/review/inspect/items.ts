// The items under one tree group, a page at a time, and the full record of one item.
import type { CorpusStore } from '../../ground/store/corpusStore';
import type { Evidence } from '../../rules/types';
import { readEvidence, twinKey } from './evidence';
import { qualityExampleIds, type QualityFilter } from '../quality/qualityFilter';

export interface ItemFilter {
  flagged?: boolean;
  label?: string;
  /** Only examples of the current label audit sample (the latest draw). */
  audit?: boolean;
  /** Text that must occur in one of the item's comments (case-insensitive). */
  text?: string;
  /** Only examples with a kept comment the judge classes so (core/review/quality/qualityFilter.ts). */
  quality?: QualityFilter;
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
  /** The example a duplicate's evidence names as its twin; null for any other. */
  twin: string | null;
  firstComment: string;
  flags: number;
  openFlags: number;
  /** Confirmed flags: a kept example with one leaves (manual_flag) at the next build. */
  confirmedFlags: number;
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

/** A change a collection rule removed (no_comments, not_merged, …): what is known of it, and why. */
export interface ChangeItem {
  kind: 'change';
  /** changes.id */
  id: number;
  changeNumber: number;
  project: string;
  created: string;
  /** As the host listed it (MERGED, ABANDONED, …); null for a change stored before the status was kept. */
  status: string | null;
  rule: string;
  /** The rule's evidence (decisions.evidence); null when the rule records none. */
  evidence: Evidence | null;
}

export type Item = ExampleItem | CommentItem | ChangeItem;

/**
 * A page of a group's items. `afterId`, the id of the last example of the previous page, reads the next
 * page of examples from the index instead of skipping `offset` rows (removed comments page by offset).
 */
export function listItems(
  store: CorpusStore,
  group: GroupRef,
  offset: number,
  limit: number,
  filter: ItemFilter = {},
  afterId?: number,
): Item[] {
  if (group.unit === 'comments') return listComments(store, group, offset, limit, filter);
  if (group.unit === 'changes') return filtersItems(filter) ? [] : listChanges(store, group, offset, limit);
  const where = [
    'e.build_id = ?',
    'h.org = ?',
    'e.window IS ?',
    group.rule === 'kept' ? 'e.rule IS NULL' : 'e.rule = ?',
  ];
  const params: (string | number | null)[] = [group.buildId, group.org, group.window];
  if (group.rule !== 'kept') params.push(group.rule);
  if (afterId !== undefined) {
    where.push('e.id > ?');
    params.push(afterId);
  }
  addFilter(where, params, filter, 'e.example_key', EXAMPLE_TEXT_EXISTS);
  addQualityFilter(store, group.buildId, where, params, filter);
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
       (SELECT count(*) FROM flags f WHERE f.example_key = e.example_key AND f.status = 'confirmed') AS confirmed_flags,
       (SELECT count(*) FROM labels l WHERE l.example_key = e.example_key) AS labels,
       (SELECT d.evidence FROM decisions d WHERE d.build_id = e.build_id AND d.unit = e.unit AND d.unit_key = e.example_key) AS evidence
     FROM page JOIN examples e ON e.id = page.id JOIN changes c ON c.id = e.change_id
     ORDER BY e.id`,
    [...params, limit, afterId === undefined ? offset : 0],
  );
  return rows.map((r) => ({
    kind: 'example',
    id: Number(r.id),
    key: String(r.example_key),
    changeNumber: Number(r.number),
    project: String(r.project),
    path: String(r.path),
    psBefore: Number(r.ps_before),
    psAfter: Number(r.ps_after),
    rule: r.rule === null ? null : String(r.rule),
    twin: twinKey(readEvidence(r.evidence)),
    firstComment: String(r.first_comment ?? ''),
    flags: Number(r.flags),
    openFlags: Number(r.open_flags),
    confirmedFlags: Number(r.confirmed_flags),
    labels: Number(r.labels),
  }));
}

const EXAMPLE_TEXT_EXISTS =
  'EXISTS (SELECT 1 FROM example_comments x JOIN comments cc ON cc.id = x.comment_id WHERE x.example_id = e.id AND lower(cc.message) LIKE ?)';

/** The key of one tree group in filteredCounts: rule ids are unique across units. */
export const groupKey = (org: string, window: string | null, rule: string): string =>
  JSON.stringify([org, window, rule]);

/**
 * Under an item filter, how many items each group lists (by groupKey; a group not in the map lists none),
 * so every count the tree shows is the count of what it lists. Two grouped counts over the build: examples
 * (kept and removed) and, for a text filter, removed comments. Changes are never matched by an item filter.
 */
export function filteredCounts(store: CorpusStore, buildId: number, filter: ItemFilter): Map<string, number> {
  const counts = new Map<string, number>();
  if (!filtersItems(filter)) return counts;
  const where = ['e.build_id = ?'];
  const params: (string | number | null)[] = [buildId];
  addFilter(where, params, filter, 'e.example_key', EXAMPLE_TEXT_EXISTS);
  addQualityFilter(store, buildId, where, params, filter);
  const examples = store.all<{ org: string; window: string | null; rule: string; n: number }>(
    `SELECT h.org, e.window, coalesce(e.rule, 'kept') AS rule, count(*) AS n
     FROM examples e JOIN changes c ON c.id = e.change_id JOIN hosts h ON h.id = c.host_id
     WHERE ${where.join(' AND ')} GROUP BY h.org, e.window, coalesce(e.rule, 'kept')`,
    params,
  );
  for (const r of examples) counts.set(groupKey(r.org, r.window, r.rule), Number(r.n));
  if (filter.text && !filter.flagged && !filter.label && !filter.audit && !filter.quality) {
    const comments = store.all<{ org: string; window: string | null; rule: string; n: number }>(
      `SELECT d.org, d.window, d.rule, count(*) AS n FROM decisions d JOIN comments cm ON cm.id = d.unit_id
       WHERE d.build_id = ? AND d.unit = 'comments' AND d.rule != 'kept' AND lower(cm.message) LIKE ?
       GROUP BY d.org, d.window, d.rule`,
      [buildId, `%${filter.text.toLowerCase()}%`],
    );
    for (const r of comments) counts.set(groupKey(r.org, r.window, r.rule), Number(r.n));
  }
  return counts;
}

/**
 * What an item filter asks of a build's examples, as conditions on `examples e` (for counts beside the
 * tree's, e.g. labelling progress): the same conditions the tree's pages and counts use.
 */
export function exampleFilterSql(
  store: CorpusStore,
  buildId: number,
  filter: ItemFilter,
): { where: string[]; params: (string | number | null)[] } {
  const where: string[] = [];
  const params: (string | number | null)[] = [];
  addFilter(where, params, filter, 'e.example_key', EXAMPLE_TEXT_EXISTS);
  addQualityFilter(store, buildId, where, params, filter);
  return { where, params };
}

/** True when the filter narrows items (flags, labels and comment text belong to examples and comments, never to changes). */
export function filtersItems(filter: ItemFilter): boolean {
  return Boolean(filter.flagged || filter.label || filter.audit || filter.quality || filter.text);
}

function addFilter(
  where: string[],
  params: (string | number | null)[],
  filter: ItemFilter,
  keyColumn: string,
  textExists: string,
): void {
  // "Flagged" means a flag still open: a confirmed flag removes the example at the next build, a rejected one is done with.
  if (filter.flagged)
    where.push(`EXISTS (SELECT 1 FROM flags f WHERE f.example_key = ${keyColumn} AND f.status = 'open')`);
  if (filter.audit)
    where.push(
      `EXISTS (SELECT 1 FROM audit_items a WHERE a.example_key = ${keyColumn} AND a.sample_id = (SELECT max(id) FROM audit_samples))`,
    );
  if (filter.label) {
    where.push(`EXISTS (SELECT 1 FROM labels l WHERE l.example_key = ${keyColumn} AND l.label = ?)`);
    params.push(filter.label);
  }
  if (filter.text) {
    where.push(textExists);
    params.push(`%${filter.text.toLowerCase()}%`);
  }
}

/** The judge's classes are computed in code (thresholds, latest judgment per comment), so the matching ids go in as a JSON list. */
function addQualityFilter(
  store: CorpusStore,
  buildId: number,
  where: string[],
  params: (string | number | null)[],
  filter: ItemFilter,
): void {
  if (!filter.quality) return;
  where.push('e.id IN (SELECT value FROM json_each(?))');
  params.push(JSON.stringify(qualityExampleIds(store, buildId, filter.quality)));
}

function listComments(
  store: CorpusStore,
  group: GroupRef,
  offset: number,
  limit: number,
  filter: ItemFilter,
): CommentItem[] {
  // `window IS ?` matches the window by name, or no window (null), and can use the index.
  const where = ['d.build_id = ?', "d.unit = 'comments'", 'd.org = ?', 'd.window IS ?', 'd.rule = ?'];
  const params: (string | number | null)[] = [group.buildId, group.org, group.window, group.rule];
  if (filter.flagged || filter.label || filter.audit || filter.quality) return []; // flags, labels and the audit sample belong to examples, not removed comments
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
    kind: 'comment',
    id: Number(r.id),
    changeNumber: Number(r.number),
    project: String(r.project),
    path: String(r.path),
    patchSet: r.patch_set === null ? null : Number(r.patch_set),
    line: r.line === null ? null : Number(r.line),
    rule: String(r.rule),
    message: String(r.message),
    exampleId: r.example_id === null ? null : Number(r.example_id),
  }));
}

function listChanges(store: CorpusStore, group: GroupRef, offset: number, limit: number): ChangeItem[] {
  const rows = store.all<Record<string, number | string | null>>(
    `SELECT c.id, c.number, c.project, c.created, c.status, d.rule, d.evidence
     FROM decisions d JOIN changes c ON c.id = d.unit_id
     WHERE d.build_id = ? AND d.unit = 'changes' AND d.org = ? AND d.window IS ? AND d.rule = ?
     ORDER BY c.created, c.number LIMIT ? OFFSET ?`,
    [group.buildId, group.org, group.window, group.rule, limit, offset],
  );
  return rows.map((r) => ({
    kind: 'change',
    id: Number(r.id),
    changeNumber: Number(r.number),
    project: String(r.project),
    created: String(r.created),
    status: r.status === null ? null : String(r.status),
    rule: String(r.rule),
    evidence: readEvidence(r.evidence),
  }));
}
