import type { HunkUnit, Removal, Rule } from '../types';

/**
 * Too big, or grew or shrank too much. Precisely:
 * - lines per side: each side of the hunk AS STORED (context included, since that is what a model
 *   reads and writes) must hold at most rules.maxLinesPerSide lines;
 * - growth: on the edit alone (context excluded, since equal context would dilute the ratio),
 *   max(before, after) / min(before, after) must be at most rules.maxGrowthRatio. A one-sided edit
 *   never gets here (one_sided comes first); should one, its ratio is infinite.
 */
export const size: Rule<HunkUnit> = {
  id: 'size',
  stage: 'hunks',
  unit: 'hunks',
  description: 'more lines per side than allowed, or the edit grew or shrank past the ratio',
  parameters: {
    maxLinesPerSide: {
      type: 'integer',
      minimum: 1,
      default: 40,
      description: 'size: the most lines a hunk side may hold.',
    },
    maxGrowthRatio: {
      type: 'number',
      minimum: 1,
      default: 5,
      description: 'size: the most an edit may grow or shrink (larger side / smaller side).',
    },
  },
  decide(hunk, ctx): Removal | null {
    const { maxLinesPerSide, maxGrowthRatio } = ctx.rules;
    const longest = Math.max(hunk.beforeLines, hunk.afterLines);
    if (longest > maxLinesPerSide)
      return { rule: this.id, evidence: { before: hunk.beforeLines, after: hunk.afterLines, max: maxLinesPerSide } };
    const small = Math.min(hunk.editLinesBefore, hunk.editLinesAfter);
    const big = Math.max(hunk.editLinesBefore, hunk.editLinesAfter);
    const ratio = small === 0 ? Infinity : big / small;
    if (ratio > maxGrowthRatio)
      return {
        rule: this.id,
        evidence: { editBefore: hunk.editLinesBefore, editAfter: hunk.editLinesAfter, maxRatio: maxGrowthRatio },
      };
    return null;
  },
};
