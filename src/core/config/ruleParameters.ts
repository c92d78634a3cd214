// The build's rule parameters (`corpus.json` → `rules`): type, bounds, default and meaning of each.
// This table is the single source of truth: DEFAULT_RULES is read from it, and so is the `rules`
// part of schemas/corpus.schema.json (written by `npm run schema` from ./corpusSchema.ts), which
// loadConfig validates every config against.
import type { RulesConfig } from './types';

/** One parameter as JSON Schema says it; `default` is what a config that leaves it out gets. */
export type RuleParameter<T> = T extends number
  ? { type: 'integer' | 'number'; minimum?: number; exclusiveMinimum?: number; maximum?: number; default: T; description: string }
  : { type: 'array'; items: { type: 'string'; minLength: number }; default: T; description: string };

export const RULE_PARAMETERS: { readonly [K in keyof RulesConfig]: RuleParameter<RulesConfig[K]> } = {
  aroundLines: {
    type: 'integer', minimum: 0, default: 3,
    description: 'unchanged_around: lines on each side of a comment that the next patch set must touch.',
  },
  contextLines: {
    type: 'integer', minimum: 0, default: 3,
    description: 'Context lines added on each side of a hunk.',
  },
  maxLinesPerSide: {
    type: 'integer', minimum: 1, default: 40,
    description: 'size: the most lines a hunk side may hold.',
  },
  maxGrowthRatio: {
    type: 'number', minimum: 1, default: 5,
    description: 'size: the most an edit may grow or shrink (larger side / smaller side).',
  },
  acknowledgements: {
    type: 'array', items: { type: 'string', minLength: 1 },
    default: ['done', 'ack', 'acknowledged', 'lgtm', '+1', 'thanks', 'thank you', 'fixed', 'will do', 'ok', 'okay'],
    description: 'acknowledgement: whole comment texts, compared after normalising case, whitespace and trailing punctuation.',
  },
  nearDuplicateJaccard: {
    type: 'number', exclusiveMinimum: 0, maximum: 1, default: 0.85,
    description: 'near_duplicate: exact Jaccard on shingle sets that confirms an LSH candidate (more than 0, at most 1).',
  },
  minhashPermutations: {
    type: 'integer', minimum: 1, default: 128,
    description: 'near_duplicate: MinHash permutations computed per example.',
  },
  lshBands: {
    type: 'integer', minimum: 1, default: 16,
    description: 'near_duplicate: LSH bands; bands × rows ≤ minhashPermutations. 16 × 8 finds ≈ 99.4% of pairs at J = 0.85 and ≈ 100% at J ≥ 0.9.',
  },
  lshRows: {
    type: 'integer', minimum: 1, default: 8,
    description: 'near_duplicate: MinHash values per LSH band.',
  },
  shingleTokens: {
    type: 'integer', minimum: 1, default: 5,
    description: 'near_duplicate: tokens per shingle of the normalised before + after text.',
  },
  boilerplateMinChanges: {
    type: 'integer', minimum: 2, default: 5,
    description: 'boilerplate: a before-hunk seen in this many distinct changes is removed everywhere.',
  },
};

function defaults(): RulesConfig {
  const out: Record<string, unknown> = {};
  for (const [key, p] of Object.entries(RULE_PARAMETERS)) out[key] = Array.isArray(p.default) ? [...p.default] : p.default;
  return out as unknown as RulesConfig;
}

/** Every rule parameter at its default. */
export const DEFAULT_RULES: RulesConfig = defaults();
