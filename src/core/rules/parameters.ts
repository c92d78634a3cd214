// A rule's parameters (corpus.json → `rules`), declared on the rule beside its decide(), as datatrove's
// filters take theirs in their constructor. Each is written as JSON Schema says it, so the schema's
// `rules` part, DEFAULT_RULES and docs/rules.md's tables are these declarations as they stand
// (config/ruleParameters.ts assembles them from the funnel; `npm run schema` writes schema and table).
// Their bounds are here and nowhere else: Ajv checks them through the schema, and callers that take
// parameters without a config (the dedup module) check them with parametersProblem below.
import type { RuleParameterFields, RulesConfig } from '../ground/config/types';

/** One parameter as JSON Schema says it; `default` is what a config that leaves it out gets. */
export type RuleParameter<T> = T extends number
  ? {
      type: 'integer' | 'number';
      minimum?: number;
      exclusiveMinimum?: number;
      maximum?: number;
      default: T;
      description: string;
    }
  : T extends boolean
    ? { type: 'boolean'; default: boolean; description: string }
    : { type: 'array'; items: { type: 'string'; minLength: number }; default: T; description: string };

/** What one owner declares: fields of RulesConfig, each with a declaration of its own type. */
export type ParameterDeclarations = {
  readonly [K in keyof RuleParameterFields]?: RuleParameter<RuleParameterFields[K]>;
};

/** A problem with a parameter's value, worded as loadConfig words a schema error ("must be ≥ 1 (got 0)"). */
export interface ParameterProblem {
  parameter: string;
  problem: string;
}

/** Who declares parameters: a rule of the funnel, or a group of parameters that no one rule owns. */
export interface ParameterOwner {
  readonly id: string;
  readonly parameters?: ParameterDeclarations;
  /** A bound across parameters, which JSON Schema cannot say; undefined when the values meet it. */
  checkParameters?(values: RulesConfig): ParameterProblem | undefined;
}

/** Parameters that no one rule owns (the build's machinery, or several rules alike); its comment says why. */
export interface ParameterGroup extends ParameterOwner {
  readonly parameters: ParameterDeclarations;
  /** What the group is, for docs/rules.md. */
  readonly description: string;
}

type AnyParameter = RuleParameter<number> | RuleParameter<boolean> | RuleParameter<string[]>;

/** The first problem of `value` against its declaration (the checks Ajv makes from the schema), or undefined. */
export function parameterProblem(p: AnyParameter, value: unknown): string | undefined {
  const got = ` (got ${JSON.stringify(value) ?? String(value)})`;
  if (p.type === 'boolean') return typeof value === 'boolean' ? undefined : `must be true or false${got}`;
  if (p.type === 'array') {
    if (!Array.isArray(value)) return `must be an array${got}`;
    const bad = value.findIndex((v) => typeof v !== 'string' || v.length < p.items.minLength);
    return bad < 0 ? undefined : `[${bad}] must be a string of at least ${p.items.minLength} characters`;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a number${got}`;
  if (p.type === 'integer' && !Number.isInteger(value)) return `must be an integer${got}`;
  if (p.minimum !== undefined && !(value >= p.minimum)) return `must be ≥ ${p.minimum}${got}`;
  if (p.exclusiveMinimum !== undefined && !(value > p.exclusiveMinimum)) return `must be > ${p.exclusiveMinimum}${got}`;
  if (p.maximum !== undefined && !(value <= p.maximum)) return `must be ≤ ${p.maximum}${got}`;
  return undefined;
}

/**
 * The first problem of `values` against what `owners` declare: each parameter's bounds, then each
 * owner's bound across parameters. `values` need hold only the owners' parameters.
 */
export function parametersProblem(
  owners: readonly ParameterOwner[],
  values: Partial<RulesConfig>,
): ParameterProblem | undefined {
  for (const owner of owners) {
    for (const [parameter, p] of Object.entries(owner.parameters ?? {})) {
      const problem = parameterProblem(p as AnyParameter, (values as Record<string, unknown>)[parameter]);
      if (problem) return { parameter, problem };
    }
  }
  for (const owner of owners) {
    const problem = owner.checkParameters?.(values as RulesConfig);
    if (problem) return problem;
  }
  return undefined;
}
