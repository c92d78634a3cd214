// Step 1, same_change: one change uploaded under two numbers shares its Change-Id (e.g. cherry-picks).
import type { DedupCandidate } from './types';

/**
 * For every example of a non-earliest change among those sharing a Change-Id: the input indices of
 * the earliest change's examples, earliest first. `order` is the input indices sorted earliest first,
 * so the first example seen for a Change-Id belongs to its earliest change.
 */
export function sameChangeRemovals(candidates: readonly DedupCandidate[], order: Int32Array): Map<number, number[]> {
  const keptChange = new Map<string, { changeNumber: number; examples: number[] }>();
  const removed = new Map<number, number[]>();
  for (const i of order) {
    const { changeId, changeNumber } = candidates[i];
    if (!changeId) continue;
    const kept = keptChange.get(changeId);
    if (!kept) keptChange.set(changeId, { changeNumber, examples: [i] });
    else if (kept.changeNumber === changeNumber) kept.examples.push(i);
    else removed.set(i, kept.examples);
  }
  return removed;
}
