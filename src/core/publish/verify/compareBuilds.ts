// Which examples entered and left between two builds, each with the rule responsible (and, for one that
// entered, why: an example that entered because its earlier twin was removed, say), the moves
// between windows, kept examples whose text changed, and the reconciliation kept(A) − left + entered =
// kept(B) per organization and window and in total. The CLI's `diff` and the extension's Compare Builds
// both print comparisonReport's lines.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';
import { readEvidence, twinKey } from '../../review/inspect/evidence';
import { textDigest } from '../../build/stages/textDigest';

export interface Movement {
  key: string;
  org: string;
  window: string | null;
  /** Left: the rule that removed it in B. Entered: the rule that had removed it in A ('absent' if A never saw it). */
  rule: string;
  /** The kept twin the rule named (duplicates), if any. */
  twin?: string;
  /**
   * Left: what B's rule rests on, in words: for nothing_left, the comment rules that took its comments
   * ("deleted_on_host 1, post_merge_comment 1"); for an example whose change B removed at collection
   * (gone_from_host, say), `rule` is that collection rule and this says so.
   */
  detail?: string;
}

/** Why an example kept by B was not kept by A. */
export type EntryReason =
  | { kind: 'new_input' }
  /** A removed it as a duplicate of `twin`, which A kept and B removes (`twinRule`; 'absent': B has no such unit). */
  | { kind: 'twin_removed'; twin: string; twinRule: string }
  /** A's rule no longer removes it (a duplicate whose twin both keep: the duplicate rule itself changed). */
  | { kind: 'rule_lifted'; rule: string; twin?: string };

export interface Entered extends Movement {
  reason: EntryReason;
  /** The reason in words, as the reports print it. */
  explanation: string;
}

/** A kept example whose window changed: kept in both builds, so neither left nor entered in the total. */
export interface WindowMove {
  key: string;
  org: string;
  from: string | null;
  to: string | null;
}

/** One organization × window: kept(A) − left + entered = kept(B), a move counted as left of one window and entered of the other. */
export interface CellReconciliation {
  org: string;
  window: string | null;
  keptFrom: number;
  left: number;
  entered: number;
  keptTo: number;
  movedOut: number;
  movedIn: number;
  /** Kept in both (in this window in B) with different text; null: not counted. */
  textChanged: number | null;
}

export interface BuildComparison {
  from: number;
  to: number;
  keptFrom: number;
  keptTo: number;
  left: Movement[];
  entered: Entered[];
  moved: WindowMove[];
  cells: CellReconciliation[];
  /** Kept in both with different text (by B's window); null: not counted, `textNotCounted` says why. */
  textChanged: { key: string; org: string; window: string | null }[] | null;
  textNotCounted?: string;
}

export function requireBuildId(store: CorpusStore, id: number, flag: string): void {
  if (!Number.isInteger(id) || !store.get('SELECT 1 AS x FROM builds WHERE id = ? AND finished_at IS NOT NULL', [id])) {
    const known = store
      .all<{ id: number }>('SELECT id FROM builds WHERE finished_at IS NOT NULL ORDER BY id')
      .map((b) => b.id);
    throw new UserError(
      `${flag} ${id}: no such build in ${store.file} (builds: ${known.length ? known.join(', ') : 'none'})`,
    );
  }
}

interface Unit {
  rule: string;
  org: string;
  window: string | null;
  twin: string | null;
  /** nothing_left's evidence: the comment rules that took the example's comments. */
  commentsRemovedBy?: string;
}

function loadUnits(store: CorpusStore, build: number): Map<string, Unit> {
  const m = new Map<string, Unit>();
  store.each(
    "SELECT unit_key, rule, org, window, evidence FROM decisions WHERE build_id = ? AND unit IN ('hunks', 'examples')",
    [build],
    (r) => {
      const rule = String(r.rule);
      const evidence = rule === 'kept' ? null : readEvidence(r.evidence);
      const removedBy = evidence?.comments_removed_by;
      m.set(String(r.unit_key), {
        rule,
        org: String(r.org),
        window: r.window === null ? null : String(r.window),
        twin: twinKey(evidence),
        ...(typeof removedBy === 'string' ? { commentsRemovedBy: removedBy } : {}),
      });
    },
  );
  return m;
}

/**
 * The collection rule that removed each change of build `build` (key org/number): an example of such a
 * change is no unit of that build, so this is why it left.
 */
function removedChanges(store: CorpusStore, build: number): Map<string, string> {
  const m = new Map<string, string>();
  store.each(
    "SELECT unit_key, rule FROM decisions WHERE build_id = ? AND unit = 'changes' AND rule <> 'kept'",
    [build],
    (r) => m.set(String(r.unit_key), String(r.rule)),
  );
  return m;
}

/** org/number of an example key (org/number/patch set/start/path; exampleStage.ts exampleKey). */
function changeOfExample(key: string): string {
  return key.split('/', 2).join('/');
}

/** Why an example kept by A is not kept by B: B's rule, or the collection rule that removed its change. */
function leftBecause(
  now: Unit | undefined,
  key: string,
  changesRemoved: () => Map<string, string>,
): Movement['rule'] | { rule: string; detail: string } {
  if (now) return now.commentsRemovedBy ? { rule: now.rule, detail: `comments: ${now.commentsRemovedBy}` } : now.rule;
  const collection = changesRemoved().get(changeOfExample(key));
  return collection ? { rule: collection, detail: 'its change was removed at collection' } : 'absent';
}

/**
 * Each kept example's text digest: from decisions.text_sha256, or from the build's example rows (a build
 * written before the digests were kept, still in the file: the latest, or a tagged one); else undefined.
 */
function textDigests(store: CorpusStore, build: number): Map<string, string> | undefined {
  const stored = new Map<string, string>();
  let missing = 0;
  store.each(
    "SELECT unit_key, text_sha256 FROM decisions WHERE build_id = ? AND unit = 'examples' AND rule = 'kept'",
    [build],
    (r) => {
      if (r.text_sha256 === null) missing++;
      else stored.set(String(r.unit_key), String(r.text_sha256));
    },
  );
  if (missing === 0) return stored;
  if (!store.get('SELECT 1 AS x FROM examples WHERE build_id = ? LIMIT 1', [build])) return undefined;
  const fromRows = new Map<string, string>();
  store.each(
    'SELECT example_key, before_text, after_text FROM examples WHERE build_id = ? AND rule IS NULL',
    [build],
    (r) => {
      fromRows.set(String(r.example_key), textDigest(String(r.before_text), String(r.after_text)));
    },
  );
  return fromRows;
}

function explain(reason: EntryReason): string {
  switch (reason.kind) {
    case 'new_input':
      return 'new input: the earlier build had no such hunk';
    case 'twin_removed':
      return `its twin ${reason.twin}, kept before, is ${reason.twinRule === 'absent' ? 'no longer in the build' : `now removed by ${reason.twinRule}`}`;
    case 'rule_lifted':
      return `${reason.rule} no longer removes it${reason.twin ? ` (its twin ${reason.twin} is kept in both)` : ''}`;
  }
}

function entryReason(before: Unit | undefined, a: Map<string, Unit>, b: Map<string, Unit>): EntryReason {
  if (!before) return { kind: 'new_input' };
  const twin = before.twin;
  if (twin !== null && a.get(twin)?.rule === 'kept') {
    const now = b.get(twin);
    if (now?.rule !== 'kept') return { kind: 'twin_removed', twin, twinRule: now?.rule ?? 'absent' };
  }
  return { kind: 'rule_lifted', rule: before.rule, ...(twin !== null ? { twin } : {}) };
}

export function compareBuilds(store: CorpusStore, from: number, to: number): BuildComparison {
  requireBuildId(store, from, '--from');
  requireBuildId(store, to, '--to');
  const a = loadUnits(store, from);
  const b = loadUnits(store, to);
  const windowOrder = new Map(
    store.all<{ name: string }>('SELECT name FROM windows ORDER BY from_date').map((w, i) => [w.name, i]),
  );
  const cells = new Map<string, CellReconciliation>();
  const cell: CellOf = (org, window) => {
    const id = JSON.stringify([org, window]);
    let c = cells.get(id);
    if (!c)
      cells.set(
        id,
        (c = { org, window, keptFrom: 0, left: 0, entered: 0, keptTo: 0, movedOut: 0, movedIn: 0, textChanged: 0 }),
      );
    return c;
  };
  let removed: Map<string, string> | undefined;
  const { keptFrom, left, moved } = leavers(a, b, cell, () => (removed ??= removedChanges(store, to)));
  const { keptTo, entered } = entrants(a, b, cell);
  const { textChanged, textNotCounted } = textChanges(store, from, to, b, cell);
  if (textChanged === null) for (const c of cells.values()) c.textChanged = null;

  const byKey = (x: { key: string }, y: { key: string }) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0);
  const rank = (w: string | null) =>
    w === null ? Number.MAX_SAFE_INTEGER : (windowOrder.get(w) ?? Number.MAX_SAFE_INTEGER - 1);
  const ordered = [...cells.values()].sort((x, y) =>
    x.org < y.org
      ? -1
      : x.org > y.org
        ? 1
        : rank(x.window) - rank(y.window) || String(x.window).localeCompare(String(y.window)),
  );
  return {
    from,
    to,
    keptFrom,
    keptTo,
    left: left.sort(byKey),
    entered: entered.sort(byKey),
    moved: moved.sort(byKey),
    cells: ordered,
    textChanged: textChanged?.sort(byKey) ?? null,
    ...(textNotCounted ? { textNotCounted } : {}),
  };
}

/** The reconciliation cell of an organization and window, made on first use. */
type CellOf = (org: string, window: string | null) => CellReconciliation;

/** The examples kept in `a`: those no longer kept in `b` left, those kept in another window moved. */
function leavers(
  a: Map<string, Unit>,
  b: Map<string, Unit>,
  cell: CellOf,
  changesRemoved: () => Map<string, string>,
): { keptFrom: number; left: Movement[]; moved: WindowMove[] } {
  const left: Movement[] = [];
  const moved: WindowMove[] = [];
  let keptFrom = 0;
  for (const [key, d] of a) {
    if (d.rule !== 'kept') continue;
    keptFrom++;
    const c = cell(d.org, d.window);
    c.keptFrom++;
    const now = b.get(key);
    if (now?.rule === 'kept') {
      if (now.window !== d.window) {
        c.left++;
        c.movedOut++;
        moved.push({ key, org: d.org, from: d.window, to: now.window });
      }
      continue;
    }
    c.left++;
    const why = leftBecause(now, key, changesRemoved);
    left.push({
      key,
      org: d.org,
      window: d.window,
      ...(typeof why === 'string' ? { rule: why } : why),
      ...(now?.twin ? { twin: now.twin } : {}),
    });
  }
  return { keptFrom, left, moved };
}

/** The examples kept in `b` that `a` did not keep, each with why it entered. */
function entrants(a: Map<string, Unit>, b: Map<string, Unit>, cell: CellOf): { keptTo: number; entered: Entered[] } {
  const entered: Entered[] = [];
  let keptTo = 0;
  for (const [key, d] of b) {
    if (d.rule !== 'kept') continue;
    keptTo++;
    const c = cell(d.org, d.window);
    c.keptTo++;
    const before = a.get(key);
    if (before?.rule === 'kept') {
      if (before.window !== d.window) {
        c.entered++;
        c.movedIn++;
      }
      continue;
    }
    c.entered++;
    const reason = entryReason(before, a, b);
    entered.push({
      key,
      org: d.org,
      window: d.window,
      rule: before?.rule ?? 'absent',
      ...(before?.twin ? { twin: before.twin } : {}),
      reason,
      explanation: explain(reason),
    });
  }
  return { keptTo, entered };
}

/** The examples kept in both whose text changed; null, and why, when either build's digests are gone. */
function textChanges(
  store: CorpusStore,
  from: number,
  to: number,
  b: Map<string, Unit>,
  cell: CellOf,
): { textChanged: BuildComparison['textChanged']; textNotCounted?: string } {
  let textChanged: BuildComparison['textChanged'] = null;
  let textNotCounted: string | undefined;
  const da = textDigests(store, from);
  const db = textDigests(store, to);
  if (da && db) {
    textChanged = [];
    for (const [key, digest] of db) {
      const was = da.get(key);
      if (was === undefined || was === digest) continue;
      const d = b.get(key)!;
      textChanged.push({ key, org: d.org, window: d.window });
      cell(d.org, d.window).textChanged! += 1;
    }
  } else {
    const which = [da ? undefined : from, db ? undefined : to].filter((x) => x !== undefined).join(' and ');
    textNotCounted = `build ${which} was written before kept texts were digested and its examples are no longer in the file`;
  }
  return { textChanged, textNotCounted };
}

const n = (v: number) => v.toLocaleString('en-US');

/** The whole corpus: a move between windows is neither left nor entered here. */
export function reconciliationLine(c: BuildComparison): string {
  const ok = c.keptFrom - c.left.length + c.entered.length === c.keptTo;
  return `${n(c.keptFrom)} − ${n(c.left.length)} + ${n(c.entered.length)} = ${n(c.keptTo)}${ok ? '' : '  (DOES NOT RECONCILE)'}`;
}

/** One organization × window, e.g. `openstack train: 4,322 − 321 + 5 = 4,006`. */
export function cellLine(x: CellReconciliation): string {
  const ok = x.keptFrom - x.left + x.entered === x.keptTo;
  const moves = [x.movedOut ? `${n(x.movedOut)} moved out` : '', x.movedIn ? `${n(x.movedIn)} moved in` : '']
    .filter(Boolean)
    .join(', ');
  return `${x.org} ${x.window ?? '(no window)'}: ${n(x.keptFrom)} − ${n(x.left)} + ${n(x.entered)} = ${n(x.keptTo)}${moves ? ` (${moves})` : ''}${ok ? '' : '  (DOES NOT RECONCILE)'}`;
}

/** What the kept-in-both examples' texts did, in one line. */
export function textChangedLine(c: BuildComparison): string {
  if (c.textChanged === null) return `kept in both with changed text: not counted (${c.textNotCounted})`;
  if (c.textChanged.length === 0) {
    return c.moved.length === 0
      ? 'kept in both with changed text: 0; every kept example is otherwise unchanged'
      : `kept in both with changed text: 0 (${n(c.moved.length)} moved between windows, above)`;
  }
  const per = c.cells
    .filter((x) => (x.textChanged ?? 0) > 0)
    .map((x) => `${x.org} ${x.window ?? '(no window)'} ${n(x.textChanged!)}`)
    .join(', ');
  return `kept in both with changed text: ${n(c.textChanged.length)} (${per})`;
}

/**
 * The report both front ends print. `rows` list units (fields to join with tabs or spaces; keys are host
 * text: the caller escapes each field for its sink); `summary` is the reconciliation per organization
 * and window, the total and the text line. `verbose` also lists the keys whose text changed.
 */
export function comparisonReport(
  c: BuildComparison,
  names: { from: string; to: string },
  verbose: boolean,
): { rows: string[][]; summary: string[] } {
  const rows: string[][] = [
    ...c.left.map((m) => [
      'left',
      m.key,
      m.rule,
      ...(m.twin ? [`twin ${m.twin}`] : []),
      ...(m.detail ? [m.detail] : []),
    ]),
    ...c.entered.map((m) => ['entered', m.key, m.rule, m.explanation]),
    ...c.moved.map((m) => ['moved', m.key, m.from ?? '(no window)', m.to ?? '(no window)']),
    ...(verbose ? (c.textChanged ?? []).map((m) => ['changed', m.key, m.window ?? '(no window)']) : []),
  ];
  const summary = [
    `${names.from} → ${names.to}, per organization and window: kept before − left + entered = kept after`,
    ...c.cells.map((x) => `  ${cellLine(x)}`),
    `kept(${c.from}) − left + entered = kept(${c.to}): ${reconciliationLine(c)}`,
    textChangedLine(c) + (!verbose && (c.textChanged?.length ?? 0) > 0 ? '; --verbose lists them' : ''),
  ];
  return { rows, summary };
}
