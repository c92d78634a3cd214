// What a removal rests on, as the build stored it (decisions.evidence), for the inspector and the CLI:
// the evidence itself, its "name: value" lines, and a duplicate's twin in the same build.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { commentKeySql } from '../../build/stages/decisionKeys';
import type { Evidence } from '../../rules/types';

/**
 * Stored evidence, read back: a flat JSON object of strings, numbers, booleans and nulls. Anything else
 * (a damaged or hand-edited file) reads as one `unreadable` field holding the stored text, so the
 * inspector still says something true about the decision.
 */
export function readEvidence(stored: unknown): Evidence | null {
  if (stored === null || stored === undefined) return null;
  const text = String(stored);
  try {
    const value = JSON.parse(text) as unknown;
    if (
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.values(value).every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
    ) {
      return value as Evidence;
    }
  } catch {
    // falls through
  }
  return { unreadable: text };
}

/** One line per field, in stored order: "name: value" (null reads "none"). Plain text; sinks escape it. */
export function evidenceLines(evidence: Evidence | null): string[] {
  if (!evidence) return [];
  return Object.entries(evidence).map(([name, value]) => `${name}: ${value === null ? 'none' : String(value)}`);
}

/** The decision's evidence for one unit of a build (examples and hunks by example key). */
export function decisionEvidence(store: CorpusStore, buildId: number, unit: string, key: string): Evidence | null {
  return readEvidence(
    store.scalar('SELECT evidence FROM decisions WHERE build_id = ? AND unit = ? AND unit_key = ?', [
      buildId,
      unit,
      key,
    ]),
  );
}

/** A comment's decision evidence in a build, found by its id (through the decision key). */
export function commentEvidence(store: CorpusStore, buildId: number, commentId: number): Evidence | null {
  return readEvidence(
    store.scalar(
      `SELECT d.evidence FROM comments cm JOIN changes c ON c.id = cm.change_id JOIN hosts h ON h.id = c.host_id
     JOIN decisions d ON d.build_id = ? AND d.unit = 'comments' AND d.unit_key = ${commentKeySql('h', 'c', 'cm')}
     WHERE cm.id = ?`,
      [buildId, commentId],
    ),
  );
}

/** The example a duplicate names as its twin (same_change, exact_duplicate, near_duplicate), or null. */
export function twinKey(evidence: Evidence | null): string | null {
  const twin = evidence?.twin;
  return typeof twin === 'string' && twin !== '' ? twin : null;
}

export interface Twin {
  key: string;
  /** Its examples.id in the build; null when the build holds no example with that key. */
  id: number | null;
  /** The rule that removed it; null when the build kept it. */
  rule: string | null;
}

/** The twin a duplicate's evidence names, looked up in the same build. */
export function findTwin(store: CorpusStore, buildId: number, evidence: Evidence | null): Twin | null {
  const key = twinKey(evidence);
  if (key === null) return null;
  const row = store.get<{ id: number; rule: string | null }>(
    'SELECT id, rule FROM examples WHERE build_id = ? AND example_key = ?',
    [buildId, key],
  );
  return { key, id: row ? Number(row.id) : null, rule: row?.rule ?? null };
}

/** How the twin stands in the build, as one line ("kept", "removed by …", "not in this build"). */
export function twinStatus(twin: Twin): string {
  return twin.id === null ? 'not in this build' : twin.rule === null ? 'kept' : `removed by ${twin.rule}`;
}
