// The build's rule parameters (`corpus.json` → `rules`): type, bounds, default and meaning of each.
// This table is the single source of truth: DEFAULT_RULES is read from it, and so is the `rules`
// part of schemas/corpus.schema.json (written by `npm run schema` from ./corpusSchema.ts), which
// loadConfig validates every config against.
import type { RulesConfig, SearchReplaceConfig } from './types';

/** One parameter as JSON Schema says it; `default` is what a config that leaves it out gets. */
export type RuleParameter<T> = T extends number
  ? { type: 'integer' | 'number'; minimum?: number; exclusiveMinimum?: number; maximum?: number; default: T; description: string }
  : T extends boolean ? { type: 'boolean'; default: boolean; description: string }
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
  // Decontamination (protected_overlap, blocklisted_project): the matching policy, seed 003's defaults
  // on, seed 004's options off. AST matching is not offered (seed 003 has it disabled; no AST matcher exists here).
  protectedWholeSide: {
    type: 'boolean', default: true,
    description: 'protected_overlap: a before or after side equal to a reference\'s before or after, whitespace collapsed (seed 003).',
  },
  protectedSideSubstring: {
    type: 'boolean', default: true,
    description: 'protected_overlap: a whole reference before or after side, whitespace collapsed, found inside a longer side on token boundaries; no minimum length (seed 003).',
  },
  protectedWholeComment: {
    type: 'boolean', default: true,
    description: 'protected_overlap: a kept comment equal to a reference comment, whitespace collapsed (seed 003).',
  },
  protectedCommentTokens: {
    type: 'integer', minimum: 0, default: 5,
    description: 'protected_overlap: a run of at least this many consecutive word-like tokens shared by a kept comment and a reference comment (seed 003: 5); 0 turns it off.',
  },
  protectedFileSha256: {
    type: 'boolean', default: false,
    description: 'protected_overlap: the SHA-256 of the whole file at patch set N or N + 1 equals that of a reference before or after side, byte for byte (seed 004; off by default).',
  },
  protectedNgramTokens: {
    type: 'integer', minimum: 0, default: 0,
    description: 'protected_overlap: any run of this many consecutive whitespace-separated tokens shared by a side and a reference side (seed 004: 15); 0 (the default) turns it off.',
  },
  protectedTokenJaccard: {
    type: 'number', minimum: 0, maximum: 1, default: 0,
    description: 'protected_overlap: Jaccard of the sets of distinct whitespace-separated tokens of one side and one reference side at least this (seed 004: 0.5); 0 (the default) turns it off.',
  },
  projectBlocklist: {
    type: 'array', items: { type: 'string', minLength: 1 }, default: [],
    description: 'blocklisted_project: Gerrit project names (exact, on every host) whose changes are removed at collection (seed 004; empty by default).',
  },
};

function defaults(): RulesConfig {
  const out: Record<string, unknown> = {};
  for (const [key, p] of Object.entries(RULE_PARAMETERS)) out[key] = Array.isArray(p.default) ? [...p.default] : p.default;
  return out as unknown as RulesConfig;
}

/** Every rule parameter at its default. */
export const DEFAULT_RULES: RulesConfig = defaults();

/**
 * The Search/Replace export's parameters (`corpus.json` → `searchReplace`). Not build rules: changing
 * them changes only what `export --format search-replace` writes, so they stay out of the rules
 * version. The schema's `searchReplace` part is generated from this table.
 */
export const SEARCH_REPLACE_PARAMETERS: { readonly [K in keyof SearchReplaceConfig]: RuleParameter<SearchReplaceConfig[K]> } = {
  mergeGapLines: {
    type: 'integer', minimum: 0, maximum: 100, default: 2,
    description: 'Search/Replace export: edit regions of an example separated by at most this many unchanged lines become one block.',
  },
};

/** The Search/Replace export's parameters with the config's values over the defaults. */
export function searchReplaceParameters(config: { searchReplace?: Partial<SearchReplaceConfig> } | undefined): SearchReplaceConfig {
  return { mergeGapLines: config?.searchReplace?.mergeGapLines ?? SEARCH_REPLACE_PARAMETERS.mergeGapLines.default };
}
