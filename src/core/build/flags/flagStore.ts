// Flags in the corpus file. Each build adds open flags for its kept examples; a user's
// confirm or reject is kept, with the rater's pseudonym, across rebuilds (keyed by example key), and
// recorded with its time in the flag's history (flagDecisions.ts).
import type { ExampleRec } from '../stages/exampleStage';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { detectFlags, type DetectedFlag } from './detect';
import { flagStatus, type FlagStatus } from './flagDecisions';

export interface StoredFlag extends DetectedFlag {
  id: number;
  exampleKey: string;
  status: FlagStatus;
  rater: string | null;
  decidedAt: string | null;
}

/**
 * Stores the flags detected on the kept examples of a build (computed with the hunk facts, during the
 * build) as open flags; a flag already stored for the same example and reason keeps its decision.
 * Returns how many are new.
 */
export function storeDetectedFlags(store: CorpusStore, examples: readonly ExampleRec[]): number {
  let added = 0;
  store.transaction(() => {
    const insert = store.prepare('INSERT OR IGNORE INTO flags(example_key, reason, detail) VALUES (?, ?, ?)');
    for (const e of examples) {
      if (e.rule !== null) continue;
      for (const flag of flagsOfExample(e)) {
        added += insert.run([e.key, flag.reason, JSON.stringify(flag)]);
      }
    }
  });
  return added;
}

/** An example's flags with commentId the comment's row id (the facts index the hunk's comments). */
function flagsOfExample(e: ExampleRec): DetectedFlag[] {
  const found =
    e.facts?.flags ??
    detectFlags({
      before: e.beforeText,
      after: e.afterText,
      comments: e.comments.map((c, id) => ({ id, message: c.unit.message })),
    });
  return found.map((f) => ({ ...f, commentId: e.comments[f.commentId].id }));
}

export function flagsOf(store: CorpusStore, exampleKey: string): StoredFlag[] {
  return store
    .all<{
      id: number;
      example_key: string;
      detail: string;
      status: string;
      rater: string | null;
      decided_at: string | null;
    }>('SELECT id, example_key, detail, status, rater, decided_at FROM flags WHERE example_key = ? ORDER BY reason', [
      exampleKey,
    ])
    .map((r) => ({
      ...(JSON.parse(r.detail) as DetectedFlag),
      id: r.id,
      exampleKey: r.example_key,
      status: flagStatus(r.status),
      rater: r.rater,
      decidedAt: r.decided_at,
    }));
}
