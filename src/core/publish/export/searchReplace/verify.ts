// Round-trip verification of a block set by plain string replacement, independent of how the blocks
// were made (as the Clean-PR paper verifies its blocks): the checks in order, the first that fails
// naming the example's outcome.
//   1. sr_not_unique: every SEARCH occurs exactly once in the base file;
//   2. sr_overlap:    no two SEARCH regions of the base file overlap;
//   3. sr_mismatch:   applying the blocks in order, each replacing the first occurrence of its SEARCH
//                     in the text so far, gives the target, SHA-256 compared.
import { createHash } from 'node:crypto';
import { occursOnce, type SearchReplaceBlock } from './blocks';

export type SearchReplaceFailure = 'sr_not_unique' | 'sr_overlap' | 'sr_mismatch';

export type Verdict = { ok: true } | { ok: false; reason: SearchReplaceFailure; detail: string };

/** SHA-256 (hex) of a text's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Applies the blocks in order, each to the first occurrence of its SEARCH in the text so far. */
export function applyBlocks(base: string, blocks: readonly SearchReplaceBlock[]): string {
  let text = base;
  for (const b of blocks) {
    const at = text.indexOf(b.search);
    if (at < 0) throw new Error('a SEARCH does not occur in the text');
    text = text.slice(0, at) + b.replace + text.slice(at + b.search.length);
  }
  return text;
}

export function verifyBlocks(base: string, blocks: readonly SearchReplaceBlock[], targetSha256: string): Verdict {
  const found: { at: number; end: number; block: number }[] = [];
  for (const [i, b] of blocks.entries()) {
    if (!occursOnce(base, b.search)) {
      return {
        ok: false,
        reason: 'sr_not_unique',
        detail: `block ${i + 1}'s SEARCH occurs ${countOccurrences(base, b.search)} times in the base file`,
      };
    }
    found.push({ at: base.indexOf(b.search), end: base.indexOf(b.search) + b.search.length, block: i + 1 });
  }
  const byPlace = [...found].sort((x, y) => x.at - y.at || x.end - y.end);
  for (let i = 1; i < byPlace.length; i++) {
    const [p, q] = [byPlace[i - 1], byPlace[i]];
    // Half-open regions: one ending where the next starts do not overlap. Two empty SEARCHes at one
    // place (only possible in an empty file) would both claim it.
    if (q.at < p.end || (q.at === p.at && p.at === p.end)) {
      return {
        ok: false,
        reason: 'sr_overlap',
        detail: `the SEARCH regions of blocks ${p.block} and ${q.block} overlap (characters ${p.at}–${p.end} and ${q.at}–${q.end})`,
      };
    }
  }
  const result = applyBlocks(base, blocks);
  const got = sha256Hex(result);
  if (got !== targetSha256)
    return {
      ok: false,
      reason: 'sr_mismatch',
      detail: `the result's SHA-256 ${got.slice(0, 12)}… is not the target's ${targetSha256.slice(0, 12)}…`,
    };
  return { ok: true };
}

/** Occurrences of a non-empty needle, overlapping ones included (an empty needle: one per position). */
function countOccurrences(hay: string, needle: string): number {
  if (needle === '') return hay.length + 1;
  let n = 0;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) n++;
  return n;
}
