// What the build needs to know about each hunk's text that does not depend on any other hunk: its
// duplicate-detection sketch, which of its comments hold its target (target_in_comment), and the
// inspector's flags (suspected reviewer-written targets, build/flags/detect.ts). This is
// the CPU-heavy part of the example stage, so it is computed in batches, in a worker thread, while
// the main thread is still reading diffs (hunkFactsPool.ts). Batches travel as typed arrays.
import { HunkSketcher } from '../../rules/dedup/hunkSketch';
import type { DedupParams, HunkSketch } from '../../rules/dedup/types';
import { detectFlags, type DetectedFlag } from '../flags/detect';
import { commentsHoldingTarget, normalisedTarget } from './targetInComment';

export interface HunkFactsInput {
  before: string;
  after: string;
  /** The messages of the comments anchored in the hunk, in the hunk's order. */
  comments: string[];
}

export interface HunkFactsBatch {
  count: number;
  /** Per hunk: before fingerprint, whole fingerprint. */
  fingerprints: Float64Array;
  /** Per hunk: lshBands band keys (zero when the hunk has none). */
  keys: Int32Array;
  /** Per hunk: 1 when it has band keys (it has tokens). */
  hasKeys: Uint8Array;
  /** Pairs (hunk, comment): the comment holds the hunk's target. */
  targetHits: Int32Array;
  /** Flags, few and far between; commentId is an index into the hunk's comments. */
  flags: { hunk: number; flag: DetectedFlag }[];
}

export interface HunkFacts {
  sketch: HunkSketch;
  /** Indices into the hunk's comments of those holding its target. */
  targetComments: readonly number[];
  /** Detected flags; commentId is an index into the hunk's comments. */
  flags: readonly DetectedFlag[];
}

/** The dedup parameters, and target_in_comment's minimum (rules.targetInCommentMinChars; absent: its default). */
export type HunkFactsParams = DedupParams & { targetInCommentMinChars?: number };

export function computeHunkFacts(params: HunkFactsParams, hunks: readonly HunkFactsInput[]): HunkFactsBatch {
  const sketcher = new HunkSketcher(params);
  const count = hunks.length;
  const fingerprints = new Float64Array(2 * count);
  const keys = new Int32Array(count * params.lshBands);
  const hasKeys = new Uint8Array(count);
  const hits: number[] = [];
  const flags: HunkFactsBatch['flags'] = [];
  hunks.forEach((h, i) => {
    sketcher.load(h.before, h.after);
    fingerprints[2 * i] = sketcher.beforeFingerprint;
    fingerprints[2 * i + 1] = sketcher.wholeFingerprint;
    hasKeys[i] = sketcher.keysInto(keys, i * params.lshBands) ? 1 : 0;
    const target = normalisedTarget(h.before, h.after);
    const holding = commentsHoldingTarget(h.before, h.after, h.comments, target, params.targetInCommentMinChars);
    for (const c of holding) hits.push(i, c);
    const comments = h.comments.map((message, id) => ({ id, message }));
    for (const flag of detectFlags({ before: h.before, after: h.after, comments }, { target, holding }))
      flags.push({ hunk: i, flag });
  });
  return { count, fingerprints, keys, hasKeys, targetHits: Int32Array.from(hits), flags };
}

/** Splits a batch back into one HunkFacts per hunk (key arrays are views into the batch's). */
export function unpackHunkFacts(batch: HunkFactsBatch, bands: number): HunkFacts[] {
  const facts: HunkFacts[] = [];
  for (let i = 0; i < batch.count; i++) {
    facts.push({
      sketch: {
        beforeFingerprint: batch.fingerprints[2 * i],
        wholeFingerprint: batch.fingerprints[2 * i + 1],
        keys: batch.hasKeys[i] ? batch.keys.subarray(i * bands, (i + 1) * bands) : null,
      },
      targetComments: [],
      flags: [],
    });
  }
  for (const { hunk, flag } of batch.flags) (facts[hunk].flags as DetectedFlag[]).push(flag);
  for (let j = 0; j < batch.targetHits.length; j += 2)
    (facts[batch.targetHits[j]].targetComments as number[]).push(batch.targetHits[j + 1]);
  return facts;
}
