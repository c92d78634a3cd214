// Cross-example duplicate detection within one organization (docs/rules.md, "Duplicates").
//
// Decisions, earliest example first (order.ts):
// 1. same_change: examples of a later change sharing a Change-Id with an earlier change number go.
// 2. exact_duplicate: normalised before + "\0" + after has the SHA-256 of an earlier survivor.
// 3. near_duplicate: exact shingle Jaccard ≥ threshold with an earlier KEPT example, found by LSH.
// 4. boilerplate: the normalised before-hunk occurs in ≥ boilerplateMinChanges distinct changes.
//
// Choices that make every removal point at an example that is finally kept (keptKey is always kept):
// - Near duplicates are confirmed only against examples that are kept. An example matching only
//   removed ones stays (A~B, B~C, A≁C keeps A and C), so a chain cannot remove unrelated hunks.
// - Boilerplate is counted over the survivors of step 1, before exact and near deduplication: a
//   licence header edited identically in five changes is boilerplate, not one kept example plus four
//   duplicates. Boilerplate examples are therefore never kept and never serve as the kept side of a
//   duplicate; an example that is a near duplicate of a kept example still counts as near_duplicate.
// - An exact duplicate shares its original's fate: exact_duplicate of it when it is kept,
//   near_duplicate of the same kept example when it is a near duplicate (identical text has the
//   identical shingle set), boilerplate when it is boilerplate (it has the same before-hunk).
// - same_change names as keptKey the earliest finally-kept example of the kept change, or its
//   earliest example if none of its examples is kept.
//
// A rule switched off in `rules.enabled` is skipped as if it found nothing, so the later steps decide
// what it would have: with exact_duplicate off, an identical copy is a near_duplicate (Jaccard 1) of the
// kept original; with near_duplicate off, only exact copies and boilerplate go.
import { normalisedDigest } from './digest';
import { IdenticalTexts, textsInManyChanges } from './identical';
import { NearDuplicateIndex } from './nearDuplicates';
import { checkParams, earliestFirst } from './order';
import { sameChangeRemovals } from './sameChange';
import { HunkSketches } from './sketches';
import type { DedupCandidate, DedupParams, DuplicateDecision, DuplicateRule } from './types';
import { isRuleOff } from '../switchedOff';

export type { DedupCandidate, DedupParams, DuplicateDecision, DuplicateRule } from './types';

/** Candidates of ONE organization. Returns the removed ones by index; everything not in the map is kept. */
export function findDuplicates(
  candidates: readonly DedupCandidate[],
  params: DedupParams,
): Map<number, DuplicateDecision> {
  checkParams(params);
  const on = (rule: DuplicateRule) => !isRuleOff(params.enabled, rule);
  const order = earliestFirst(candidates);
  const sameChange = on('same_change') ? sameChangeRemovals(candidates, order) : new Map<number, number[]>();
  // Survivors of step 1 are numbered 0 … n-1, earliest first.
  const survivors = Array.from(order).filter((i) => !sameChange.has(i));
  const textOf = (s: number): DedupCandidate => candidates[survivors[s]];
  const sketches = new HunkSketches(params, survivors.length, textOf);
  const boilerplate = on('boilerplate')
    ? textsInManyChanges(
        sketches.beforeFingerprint,
        (s) => textOf(s).changeNumber,
        (s) => normalisedDigest(textOf(s).before),
        params.boilerplateMinChanges,
      )
    : new Map<number, never>();

  const decisions = new Map<number, DuplicateDecision>();
  const identical = new IdenticalTexts((s) => normalisedDigest(textOf(s).before, textOf(s).after));
  const near = new NearDuplicateIndex(params, survivors.length, textOf);
  const [exactOn, nearOn] = [on('exact_duplicate'), on('near_duplicate')];
  for (let s = 0; s < survivors.length; s++) {
    const i = survivors[s];
    const first = exactOn ? identical.firstIdentical(s, sketches.wholeFingerprint[s]) : -1;
    if (first >= 0) {
      const fate = decisions.get(survivors[first]);
      // Identical normalised text has the identical shingle set, hence Jaccard 1 with its original.
      decisions.set(i, fate ? { ...fate } : { rule: 'exact_duplicate', keptKey: textOf(first).key, jaccard: 1 });
      continue;
    }
    const keys = sketches.keysOf(s);
    const match = nearOn ? near.match(s, keys) : null;
    const shared = boilerplate.get(s);
    if (match) {
      decisions.set(i, { rule: 'near_duplicate', keptKey: textOf(match.kept).key, jaccard: match.jaccard });
    } else if (shared) {
      decisions.set(i, { rule: 'boilerplate', boilerplate: shared });
      near.drop(s);
    } else if (nearOn) {
      near.keep(s, keys);
    }
  }

  for (const [i, keptChange] of sameChange) {
    const kept = keptChange.find((k) => !decisions.has(k)) ?? keptChange[0];
    decisions.set(i, { rule: 'same_change', keptKey: candidates[kept].key });
  }
  return decisions;
}
