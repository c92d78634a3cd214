// The build's rule parameters (`corpus.json` → `rules`), assembled from what each rule declares beside
// its decide() (src/core/rules/**: `parameters`) and from the few groups no one rule owns
// (rules/parameterGroups.ts). DEFAULT_RULES, the `rules` part of schemas/corpus.schema.json (which
// loadConfig validates every config against) and docs/rules.md's tables of rule parameters are all read
// from these declarations; `npm run schema` and `npm run docs` write the last two, and tests fail when either drifts.
import { RULES } from './funnel';
import { PARAMETER_GROUPS } from './parameterGroups';
import type { ParameterOwner, ParameterProblem, RuleParameter } from './parameters';
import type { RuleParameterFields, RulesConfig, SearchReplaceConfig } from '../ground/config/types';

export type { RuleParameter } from './parameters';

/** Whoever declares parameters, in the order the schema and docs/rules.md list them: the funnel's rules, then the groups. */
export const PARAMETER_OWNERS: readonly ParameterOwner[] = [...RULES, ...PARAMETER_GROUPS];

/** Which owner declares each parameter (docs/rules.md's "owner" column). */
export const PARAMETER_OWNER: ReadonlyMap<string, ParameterOwner> = new Map(
  PARAMETER_OWNERS.flatMap((owner) => Object.keys(owner.parameters ?? {}).map((name) => [name, owner] as const)),
);

type RuleParameterTable = { readonly [K in keyof RuleParameterFields]: RuleParameter<RuleParameterFields[K]> };

function assemble(): RuleParameterTable {
  const out: Record<string, unknown> = {};
  for (const owner of PARAMETER_OWNERS) {
    for (const [name, p] of Object.entries(owner.parameters ?? {})) {
      // One owner per parameter: two declarations of one name could disagree on its bounds.
      if (name in out) throw new Error(`rule parameter ${name} is declared twice (the second time by ${owner.id})`);
      out[name] = p;
    }
  }
  return out as RuleParameterTable;
}

/** Every rule parameter's declaration (type, bounds, default, meaning), as the schema's `rules` holds it. */
export const RULE_PARAMETERS: RuleParameterTable = assemble();

/** The first bound across parameters (an owner's checkParameters) that `rules` breaks; JSON Schema checks the rest. */
export function crossParameterProblem(rules: RulesConfig): ParameterProblem | undefined {
  for (const owner of PARAMETER_OWNERS) {
    const problem = owner.checkParameters?.(rules);
    if (problem) return problem;
  }
  return undefined;
}

function defaults(): RulesConfig {
  const out: Record<string, unknown> = {};
  for (const [key, p] of Object.entries(RULE_PARAMETERS))
    out[key] = Array.isArray(p.default) ? [...p.default] : p.default;
  return out as unknown as RulesConfig;
}

/** Every rule parameter at its default. */
export const DEFAULT_RULES: RulesConfig = defaults();

/**
 * The Search/Replace export's parameters (`corpus.json` → `searchReplace`). Not build rules: changing
 * them changes only what `export --format search-replace` writes, so they stay out of the rules
 * version. The schema's `searchReplace` part is generated from this table.
 */
export const SEARCH_REPLACE_PARAMETERS: {
  readonly [K in keyof SearchReplaceConfig]: RuleParameter<SearchReplaceConfig[K]>;
} = {
  mergeGapLines: {
    type: 'integer',
    minimum: 0,
    maximum: 100,
    default: 2,
    description:
      'Search/Replace export: edit regions of an example separated by at most this many unchanged lines become one block.',
  },
};

/** The Search/Replace export's parameters with the config's values over the defaults. */
export function searchReplaceParameters(
  config: { searchReplace?: Partial<SearchReplaceConfig> } | undefined,
): SearchReplaceConfig {
  return { mergeGapLines: config?.searchReplace?.mergeGapLines ?? SEARCH_REPLACE_PARAMETERS.mergeGapLines.default };
}
