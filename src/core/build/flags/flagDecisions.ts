// A user's decisions on flags, as recorded inputs of the build (docs/storage.md, tables `flags`,
// `flag_decisions`, `build_flag_decisions`). Every confirm, reject or clear is appended to the history
// with its time, never overwritten; the `flags` row keeps the latest for fast reads. A build records
// the decisions it read (manual_flag removes the examples with a confirmed flag) and their digest, so
// `verify --reproduce --build N` rebuilds N with the decisions N used, not today's.
import { createHash } from 'node:crypto';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';

/** Where a flag stands. 'rejected' is the word for users; rows written before schema 12 say 'dismissed'. */
export type FlagStatus = 'open' | 'confirmed' | 'rejected';

/** A flag's stored status in the word users see: an older row's 'dismissed' reads as 'rejected'. */
export function flagStatus(stored: string): FlagStatus {
  return stored === 'dismissed' ? 'rejected' : (stored as FlagStatus);
}

/** One decided flag as a build read it: the latest decision on (example, reason) when the build started. */
export interface FlagDecision {
  exampleKey: string;
  reason: string;
  status: 'confirmed' | 'rejected';
  /** null only for a build written before schema 12 (flagDecisionsOfBuild). */
  decidedAt: string | null;
}

/** One entry of a flag's history: a decision, or 'open' for a clear. */
export interface FlagHistoryEntry {
  exampleKey: string;
  reason: string;
  status: FlagStatus;
  rater: string | null;
  /** null only for a decision migrated from a row that held no time. */
  decidedAt: string | null;
}

/**
 * Sets flag `flagId` to `status` ('open': clears its decision) and appends that to the history, with
 * the rater's pseudonym and the time. The one way a decision is written: the inspector's Confirm and
 * Reject Flag (jobs/edits.ts) and `review-corpus flags set` both come here. Returns the status before;
 * a flag already at `status` is left as it is, and nothing is appended.
 */
export function decideFlag(
  store: CorpusStore,
  flagId: number,
  status: FlagStatus,
  rater: string,
  now: string,
): FlagStatus {
  const row = store.get<{ example_key: string; reason: string; status: string }>(
    'SELECT example_key, reason, status FROM flags WHERE id = ?',
    [flagId],
  );
  if (!row) throw new UserError(`no flag ${flagId} in this corpus`);
  const before = flagStatus(row.status);
  if (before === status) return before;
  const decided = status === 'open' ? [null, null] : [rater, now];
  store.run('UPDATE flags SET status = ?, rater = ?, decided_at = ? WHERE id = ?', [status, ...decided, flagId]);
  store.run('INSERT INTO flag_decisions(example_key, reason, status, rater, decided_at) VALUES (?, ?, ?, ?, ?)', [
    row.example_key,
    row.reason,
    status,
    rater,
    now,
  ]);
  return before;
}

/** The history of decisions, oldest first: of one example, or of every flag. */
export function flagHistory(store: CorpusStore, exampleKey?: string): FlagHistoryEntry[] {
  const where = exampleKey === undefined ? '' : 'WHERE example_key = ?';
  return store
    .all<{ example_key: string; reason: string; status: string; rater: string | null; decided_at: string | null }>(
      `SELECT example_key, reason, status, rater, decided_at FROM flag_decisions ${where} ORDER BY id`,
      exampleKey === undefined ? [] : [exampleKey],
    )
    .map((r) => ({
      exampleKey: r.example_key,
      reason: r.reason,
      status: flagStatus(r.status),
      rater: r.rater,
      decidedAt: r.decided_at,
    }));
}

const byFlag = (x: FlagDecision, y: FlagDecision) =>
  x.exampleKey < y.exampleKey
    ? -1
    : x.exampleKey > y.exampleKey
      ? 1
      : x.reason < y.reason
        ? -1
        : x.reason > y.reason
          ? 1
          : 0;

/** Every decided flag as it stands now (the latest decision of each), in (example, reason) order. */
export function currentFlagDecisions(store: CorpusStore): FlagDecision[] {
  return store
    .all<{ example_key: string; reason: string; status: string; decided_at: string | null }>(
      "SELECT example_key, reason, status, decided_at FROM flags WHERE status <> 'open'",
    )
    .map((r) => ({
      exampleKey: r.example_key,
      reason: r.reason,
      status: flagStatus(r.status) as FlagDecision['status'],
      decidedAt: r.decided_at,
    }))
    .sort(byFlag);
}

/** The examples manual_flag removes under these decisions: those with a confirmed flag. */
export function confirmedExamples(decisions: readonly FlagDecision[]): Set<string> {
  return new Set(decisions.filter((d) => d.status === 'confirmed').map((d) => d.exampleKey));
}

/** SHA-256 (hex) of the decisions in (example, reason) order: builds.flag_decisions_sha256. */
export function flagDecisionsDigest(decisions: readonly FlagDecision[]): string {
  const rows = [...decisions].sort(byFlag).map((d) => [d.exampleKey, d.reason, d.status, d.decidedAt]);
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

/** Records, in the build's transaction, the decisions build `buildId` read, and their digest on its row. */
export function recordBuildFlagDecisions(
  store: CorpusStore,
  buildId: number,
  decisions: readonly FlagDecision[],
): void {
  const insert = store.prepare(
    'INSERT INTO build_flag_decisions(build_id, example_key, reason, status, decided_at) VALUES (?, ?, ?, ?, ?)',
  );
  for (const d of decisions) insert.run([buildId, d.exampleKey, d.reason, d.status, d.decidedAt]);
  store.run('UPDATE builds SET flag_decisions_sha256 = ? WHERE id = ?', [flagDecisionsDigest(decisions), buildId]);
}

/**
 * The flag decisions build `buildId` used, for rebuilding it as it was. A build written before schema
 * 12 recorded none (its flag_decisions_sha256 is NULL): manual_flag's removals in its own decisions
 * say which examples had a confirmed flag, which is all a rebuild reads, so each is returned as a
 * confirmed flag of reason 'unrecorded', without a time.
 */
export function flagDecisionsOfBuild(store: CorpusStore, buildId: number): FlagDecision[] {
  const build = store.get<{ digest: string | null }>(
    'SELECT flag_decisions_sha256 AS digest FROM builds WHERE id = ?',
    [buildId],
  );
  if (!build) throw new UserError(`no build ${buildId} in this corpus`);
  if (build.digest === null)
    return store
      .all<{ unit_key: string }>(
        "SELECT unit_key FROM decisions WHERE build_id = ? AND unit = 'examples' AND rule = 'manual_flag' ORDER BY unit_key",
        [buildId],
      )
      .map((r) => ({ exampleKey: r.unit_key, reason: 'unrecorded', status: 'confirmed', decidedAt: null }));
  return store
    .all<{ example_key: string; reason: string; status: FlagDecision['status']; decided_at: string | null }>(
      'SELECT example_key, reason, status, decided_at FROM build_flag_decisions WHERE build_id = ? ORDER BY example_key, reason',
      [buildId],
    )
    .map((r) => ({ exampleKey: r.example_key, reason: r.reason, status: r.status, decidedAt: r.decided_at }));
}

/** A flag with its history, as `review-corpus flags list` prints it. */
export interface ListedFlag {
  example: string;
  reason: string;
  status: FlagStatus;
  rater: string | null;
  decided_at: string | null;
  /** What the detector saw (null for a flag stored without one). */
  detail: string | null;
  /** Every decision on the flag, oldest first ('open': cleared). */
  history: { status: FlagStatus; rater: string | null; decided_at: string | null }[];
}

/** The flags of one example, or of every example, in (example, reason) order, each with its history. */
export function listFlags(store: CorpusStore, exampleKey?: string): ListedFlag[] {
  const history = new Map<string, ListedFlag['history']>();
  for (const h of flagHistory(store, exampleKey)) {
    const key = `${h.exampleKey}\0${h.reason}`;
    history.set(key, [...(history.get(key) ?? []), { status: h.status, rater: h.rater, decided_at: h.decidedAt }]);
  }
  const where = exampleKey === undefined ? '' : 'WHERE example_key = ?';
  return store
    .all<{
      example_key: string;
      reason: string;
      status: string;
      rater: string | null;
      decided_at: string | null;
      detail: string | null;
    }>(
      `SELECT example_key, reason, status, rater, decided_at, detail FROM flags ${where} ORDER BY example_key, reason`,
      exampleKey === undefined ? [] : [exampleKey],
    )
    .map((r) => ({
      example: r.example_key,
      reason: r.reason,
      status: flagStatus(r.status),
      rater: r.rater,
      decided_at: r.decided_at,
      detail: r.detail === null ? null : ((JSON.parse(r.detail) as { detail?: string }).detail ?? null),
      history: history.get(`${r.example_key}\0${r.reason}`) ?? [],
    }));
}

/** Whether any build of the file holds this example key (kept or removed): its decisions stay when its rows are pruned. */
export function exampleInCorpus(store: CorpusStore, exampleKey: string): boolean {
  return (
    store.get(
      "SELECT 1 AS x FROM decisions WHERE build_id IN (SELECT id FROM builds) AND unit IN ('examples', 'hunks') AND unit_key = ? LIMIT 1",
      [exampleKey],
    ) !== undefined
  );
}

/** One flag `flags set` changed, or left as it was (`before` = `after`). */
export interface FlagChange {
  reason: string;
  before: FlagStatus;
  after: FlagStatus;
}

/**
 * `review-corpus flags set`: sets every flag of one example (its key, the export's `id`), or only its
 * flag `reason`, to `status` through decideFlag. Throws a UserError naming the example or the reason
 * when there is nothing to set, before anything is written.
 */
export function setExampleFlags(
  store: CorpusStore,
  exampleKey: string,
  status: FlagStatus,
  rater: string,
  now: string,
  reason?: string,
): FlagChange[] {
  const flags = store.all<{ id: number; reason: string }>(
    'SELECT id, reason FROM flags WHERE example_key = ? ORDER BY reason',
    [exampleKey],
  );
  if (flags.length === 0)
    throw new UserError(
      exampleInCorpus(store, exampleKey)
        ? `flags set: example ${exampleKey} has no flags (a build flags only the kept examples its detector suspects)`
        : `flags set: --example ${exampleKey}: no such example in ${store.file} (give the id an export writes)`,
    );
  const chosen = reason === undefined ? flags : flags.filter((f) => f.reason === reason);
  if (chosen.length === 0)
    throw new UserError(
      `flags set: example ${exampleKey} has no flag ${reason} (its flags: ${flags.map((f) => f.reason).join(', ')})`,
    );
  return chosen.map((f) => ({ reason: f.reason, before: decideFlag(store, f.id, status, rater, now), after: status }));
}
