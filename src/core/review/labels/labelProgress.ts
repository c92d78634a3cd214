// How far one rater has got: of the examples a labeller goes through (the audit sample, or the tree's
// filter: its organization, window and rule, Kept when it names none, and its item filter), how many
// carry the rater's label. The total reads the build's examples once per scope; the labelled count
// starts from the rater's labels, so a count after each label costs as much as the labels given.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { exampleFilterSql, filtersItems, type ItemFilter } from '../inspect/items';

export interface LabelScope extends ItemFilter {
  org?: string;
  window?: string;
  /** A rule id or 'kept'; absent: Kept, except for the audit sample (its items wherever they are). */
  rule?: string;
}

export interface LabelProgress {
  labelled: number;
  total: number;
}

function scopeSql(store: CorpusStore, buildId: number, scope: LabelScope) {
  const { where, params } = exampleFilterSql(store, buildId, scope);
  const rule = scope.rule ?? (scope.audit ? undefined : 'kept');
  if (rule === 'kept') where.push('e.rule IS NULL');
  else if (rule !== undefined) {
    where.push('e.rule = ?');
    params.push(rule);
  }
  if (scope.window !== undefined) {
    where.push('e.window IS ?');
    params.push(scope.window);
  }
  if (scope.org !== undefined) {
    where.push('h.org = ?');
    params.push(scope.org);
  }
  return { where, params };
}

const JOINS = 'JOIN changes c ON c.id = e.change_id JOIN hosts h ON h.id = c.host_id';

/** How many examples of the build the scope holds. */
export function scopeTotal(store: CorpusStore, buildId: number, scope: LabelScope): number {
  const { where, params } = scopeSql(store, buildId, scope);
  const sql = `SELECT count(*) FROM examples e ${JOINS} WHERE ${['e.build_id = ?', ...where].join(' AND ')}`;
  return Number(store.scalar(sql, [buildId, ...params]) ?? 0);
}

/** How many examples of the scope carry `rater`'s label. */
export function scopeLabelled(store: CorpusStore, buildId: number, rater: string, scope: LabelScope): number {
  const { where, params } = scopeSql(store, buildId, scope);
  const sql = `SELECT count(*) FROM labels l JOIN examples e ON e.build_id = ? AND e.example_key = l.example_key ${JOINS}
    WHERE ${['l.rater = ?', ...where].join(' AND ')}`;
  return Number(store.scalar(sql, [buildId, rater, ...params]) ?? 0);
}

/** A scope's total changes with labels and flags when its filter names them; otherwise only with the build. */
export function totalFollowsEdits(scope: LabelScope): boolean {
  return filtersItems(scope) && Boolean(scope.label || scope.flagged);
}

/** Labelled / total, in words: "12 / 84 labelled". */
export function describeProgress(p: LabelProgress): string {
  return `${p.labelled.toLocaleString('en-US')} / ${p.total.toLocaleString('en-US')} labelled`;
}
