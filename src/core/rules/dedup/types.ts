// The shapes the dedup's parts share. They live here, not in index.ts, so that the parts import
// nothing from the index that imports them: every import in dedup/ points one way.
import type { RulesConfig } from '../../ground/config/types';

export interface DedupCandidate {
  key: string; // stable example key
  changeId: string | null; // Gerrit Change-Id ("I…"), null if unknown
  changeNumber: number;
  created: string; // ISO timestamp of the change's creation
  before: string; // before-side hunk text (raw, as stored)
  after: string; // after-side hunk text
  sketch?: HunkSketch; // computed ahead with the same params (the build's worker), else computed here
}

export type DuplicateRule = 'same_change' | 'exact_duplicate' | 'near_duplicate' | 'boilerplate';

/** The rule parameters the dedup reads (declared by the duplicate rules, config/types.ts RulesConfig). */
export type DedupParams = Pick<
  RulesConfig,
  | 'nearDuplicateJaccard'
  | 'minhashPermutations'
  | 'lshBands'
  | 'lshRows'
  | 'shingleTokens'
  | 'boilerplateMinChanges'
  | 'enabled'
>;

/** What the dedup found for one removed example: the rule, and what the removal rests on (its evidence). */
export interface DuplicateDecision {
  rule: DuplicateRule;
  /** The example it duplicates; absent for boilerplate. */
  keptKey?: string;
  /** Exact Jaccard of its shingle set and keptKey's: near_duplicate (and an exact copy of one); 1 for exact_duplicate. */
  jaccard?: number;
  /** boilerplate: the normalised before-hunk's SHA-256 (base64) and the distinct changes (of step 1's survivors) carrying it. */
  boilerplate?: SharedText;
}

/** A hunk's fingerprints and band keys (hunkSketch.ts computes them). */
export interface HunkSketch {
  /** TokenBuffer.fingerprint of normalised(before). */
  beforeFingerprint: number;
  /** Fingerprint of normalised(before) + "\0" + normalised(after). */
  wholeFingerprint: number;
  /** LSH band keys; null for a hunk without tokens (no shingles, matches nothing). */
  keys: Int32Array | null;
}

/** A text found in many changes: its SHA-256 (as `digestOf` gives it) and how many distinct changes carry it. */
export interface SharedText {
  sha256: string;
  changes: number;
}
