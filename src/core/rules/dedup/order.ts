// "Earliest" for every duplicate rule: by the change's creation time, then change number, then key.
// Sorting on these alone makes the result independent of the caller's input order.
import { boilerplate } from '../duplicates/boilerplate';
import { nearDuplicate } from '../duplicates/nearDuplicate';
import { parametersProblem } from '../parameters';
import { UserError } from '../../ground/store/errors';
import type { DedupCandidate, DedupParams } from './types';

/** Input indices, earliest first. Throws UserError for an unreadable timestamp or a repeated key. */
export function earliestFirst(candidates: readonly DedupCandidate[]): Int32Array {
  const n = candidates.length;
  const created = new Float64Array(n);
  const changeNumber = new Float64Array(n);
  const keys = new Set<string>();
  for (let i = 0; i < n; i++) {
    const c = candidates[i];
    if (keys.has(c.key)) throw new UserError(`duplicate detection: example key ${JSON.stringify(c.key)} occurs twice`);
    keys.add(c.key);
    created[i] = parseCreated(c);
    changeNumber[i] = c.changeNumber;
  }
  const byKey = (x: number, y: number): number => {
    const a = candidates[x].key;
    const b = candidates[y].key;
    return a < b ? -1 : a > b ? 1 : 0;
  };
  const order = Int32Array.from({ length: n }, (_, i) => i);
  return order.sort((x, y) => created[x] - created[y] || changeNumber[x] - changeNumber[y] || byKey(x, y));
}

/** Milliseconds since the epoch. Gerrit's "YYYY-MM-DD hh:mm:ss.nnnnnnnnn" has no zone and is UTC. */
function parseCreated(c: DedupCandidate): number {
  const text = c.created.trim();
  const hasZone = /(?:Z|[+-]\d\d:?\d\d)$/i.test(text) || !/\d:\d\d/.test(text);
  const ms = Date.parse(hasZone ? text : `${text.replace(' ', 'T')}Z`);
  if (Number.isNaN(ms)) {
    throw new UserError(
      `duplicate detection: example ${JSON.stringify(c.key)} has an unreadable created time ${JSON.stringify(c.created)}`,
    );
  }
  return ms;
}

/**
 * Throws UserError naming the first parameter that cannot work, by the bounds near_duplicate and
 * boilerplate declare (the same ones a corpus.json is validated against): callers such as the
 * benchmarks pass parameters that no config validated.
 */
export function checkParams(p: DedupParams): void {
  const found = parametersProblem([nearDuplicate, boilerplate], p);
  if (found) throw new UserError(`duplicate detection: ${found.parameter} ${found.problem}`);
}
