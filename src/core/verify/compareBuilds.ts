// Which examples entered and left between two builds, each with the rule responsible, and the
// reconciliation kept(A) − left + entered = kept(B).
import type { CorpusStore } from '../store/corpusStore';
import { UserError } from '../store/errors';

export interface Movement {
  key: string;
  org: string;
  window: string | null;
  /** Left: the rule that removed it in B. Entered: the rule that had removed it in A ('absent' if A never saw it). */
  rule: string;
}

export interface BuildComparison {
  from: number;
  to: number;
  keptFrom: number;
  keptTo: number;
  left: Movement[];
  entered: Movement[];
}

export function requireBuildId(store: CorpusStore, id: number, flag: string): void {
  if (!Number.isInteger(id) || !store.get('SELECT 1 AS x FROM builds WHERE id = ? AND finished_at IS NOT NULL', [id])) {
    const known = store.all<{ id: number }>('SELECT id FROM builds WHERE finished_at IS NOT NULL ORDER BY id').map((b) => b.id);
    throw new UserError(`${flag} ${id}: no such build in ${store.file} (builds: ${known.length ? known.join(', ') : 'none'})`);
  }
}

export function compareBuilds(store: CorpusStore, from: number, to: number): BuildComparison {
  requireBuildId(store, from, '--from');
  requireBuildId(store, to, '--to');
  const load = (build: number) => {
    const m = new Map<string, { rule: string; org: string; window: string | null }>();
    store.each("SELECT unit_key, rule, org, window FROM decisions WHERE build_id = ? AND unit IN ('hunks', 'examples')", [build], (r) => {
      m.set(String(r.unit_key), { rule: String(r.rule), org: String(r.org), window: r.window === null ? null : String(r.window) });
    });
    return m;
  };
  const a = load(from);
  const b = load(to);
  const left: Movement[] = [];
  const entered: Movement[] = [];
  let keptFrom = 0;
  let keptTo = 0;
  for (const [key, d] of a) {
    if (d.rule !== 'kept') continue;
    keptFrom++;
    const now = b.get(key);
    if (!now || now.rule !== 'kept') left.push({ key, org: d.org, window: d.window, rule: now?.rule ?? 'absent' });
  }
  for (const [key, d] of b) {
    if (d.rule !== 'kept') continue;
    keptTo++;
    const before = a.get(key);
    if (!before || before.rule !== 'kept') entered.push({ key, org: d.org, window: d.window, rule: before?.rule ?? 'absent' });
  }
  const byKey = (x: Movement, y: Movement) => x.key.localeCompare(y.key);
  return { from, to, keptFrom, keptTo, left: left.sort(byKey), entered: entered.sort(byKey) };
}

export function reconciliationLine(c: BuildComparison): string {
  const n = (v: number) => v.toLocaleString('en-US');
  const ok = c.keptFrom - c.left.length + c.entered.length === c.keptTo;
  return `${n(c.keptFrom)} − ${n(c.left.length)} + ${n(c.entered.length)} = ${n(c.keptTo)}${ok ? '' : '  (DOES NOT RECONCILE)'}`;
}
