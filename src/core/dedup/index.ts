// Cross-example duplicate detection within one organization (PRODUCT.md, "Duplicates").
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
import { HunkDigester } from './digest';
import { NearDuplicateIndex } from './nearDuplicates';
import { checkParams, earliestFirst } from './order';
import { sameChangeRemovals } from './sameChange';

export interface DedupCandidate {
  key: string;             // stable example key
  changeId: string | null; // Gerrit Change-Id ("I…"), null if unknown
  changeNumber: number;
  created: string;         // ISO timestamp of the change's creation
  before: string;          // before-side hunk text (raw, as stored)
  after: string;           // after-side hunk text
}
export type DuplicateRule = 'same_change' | 'exact_duplicate' | 'near_duplicate' | 'boilerplate';
export interface DedupParams { nearDuplicateJaccard: number; minhashPermutations: number; lshBands: number; lshRows: number; shingleTokens: number; boilerplateMinChanges: number; }
export interface DuplicateDecision { rule: DuplicateRule; keptKey?: string /* the example it duplicates, absent for boilerplate */ }

/** Candidates of ONE organization. Returns the removed ones by index; everything not in the map is kept. */
export function findDuplicates(candidates: readonly DedupCandidate[], params: DedupParams): Map<number, DuplicateDecision> {
  checkParams(params);
  let T = performance.now(); const lap = (n: string) => { const t = performance.now(); console.log(n, (t - T).toFixed(0)); T = t; };
  const order = earliestFirst(candidates);
  lap('order');
  const sameChange = sameChangeRemovals(candidates, order);
  lap('same');
  const survivors = Array.from(order).filter((i) => !sameChange.has(i)); // earliest first
  const digester = new HunkDigester();
  const digests = survivors.map((i) => digester.digest(candidates[i].before, candidates[i].after));
  const boilerplate = boilerplateBefores(survivors.map((i, s) => ({ before: digests[s].before, changeNumber: candidates[i].changeNumber })), params.boilerplateMinChanges);

  lap('digests+boiler');
  const decisions = new Map<number, DuplicateDecision>();
  const near = new NearDuplicateIndex(params, survivors.length, (s) => candidates[survivors[s]]);
  const original = new Map<string, number>(); // digest of the whole hunk → input index of its first survivor
  for (let s = 0; s < survivors.length; s++) {
    const i = survivors[s];
    const first = original.get(digests[s].whole);
    if (first !== undefined) {
      const fate = decisions.get(first);
      decisions.set(i, fate ? { ...fate } : { rule: 'exact_duplicate', keptKey: candidates[first].key });
      continue;
    }
    original.set(digests[s].whole, i);
    const match = near.match(s);
    if (match >= 0) {
      decisions.set(i, { rule: 'near_duplicate', keptKey: candidates[survivors[match]].key });
    } else if (boilerplate.has(digests[s].before)) {
      decisions.set(i, { rule: 'boilerplate' });
      near.drop(s);
    } else {
      near.keep(s);
    }
  }

  lap('near loop');
  for (const [i, keptChange] of sameChange) {
    const kept = keptChange.find((k) => !decisions.has(k)) ?? keptChange[0];
    decisions.set(i, { rule: 'same_change', keptKey: candidates[kept].key });
  }
  return decisions;
}

/** Digests of normalised before-hunks carried by at least `minChanges` distinct change numbers. */
function boilerplateBefores(hunks: { before: string; changeNumber: number }[], minChanges: number): Set<string> {
  const changes = new Map<string, Set<number>>();
  for (const { before, changeNumber } of hunks) {
    let set = changes.get(before);
    if (!set) changes.set(before, (set = new Set()));
    set.add(changeNumber);
  }
  const result = new Set<string>();
  for (const [before, set] of changes) if (set.size >= minChanges) result.add(before);
  return result;
}
