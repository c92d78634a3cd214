import { readFileSync } from 'node:fs';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import schema from '../../../../schemas/corpus.schema.json';
import { UserError } from '../../ground/store/errors';
import { crossParameterProblem } from '../ruleParameters';
import type { CorpusConfig } from '../../ground/config/types';
import { recordConfigSource } from '../../ground/config/configFile';
import { splitCollision } from '../../ground/config/splitNames';

class ConfigError extends UserError {
  constructor(file: string, field: string, problem: string) {
    super(`${file}: ${field} ${problem}`);
  }
}

/** Reads and validates a corpus.json; every problem is one line naming the file and the field. */
export function loadCorpusConfig(file: string): CorpusConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(`${file}: cannot read config (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  return validateCorpusConfig(raw, file);
}

/**
 * Validates a parsed corpus.json against schemas/corpus.schema.json and completes it with the
 * schema's defaults. The schema says everything it can; what it cannot (dates compared across
 * fields, names unique by one property, cross-references) is checked here after it.
 */
export function validateCorpusConfig(raw: unknown, file = 'corpus.json'): CorpusConfig {
  const fail = (field: string, problem: string): never => {
    throw new ConfigError(file, field, problem);
  };
  const data = structuredClone(raw);
  const validate = schemaValidator();
  if (!validate(data)) {
    const { field, problem } = describeSchemaError(validate.errors ?? []);
    fail(field, problem);
  }
  const config = data as CorpusConfig & { $schema?: string };
  delete config.$schema;

  config.windows.forEach((w, i) => {
    if (w.from >= w.to) fail(`windows[${i}].to`, `must be after from (${w.from})`);
    const first = config.windows.findIndex((o) => o.name === w.name);
    if (first !== i) fail(`windows[${i}].name`, `repeats window "${w.name}" (windows[${first}])`);
  });
  const sorted = [...config.windows].sort((a, b) => a.from.localeCompare(b.from));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].from < sorted[i - 1].to) fail('windows', `"${sorted[i - 1].name}" and "${sorted[i].name}" overlap`);
  }
  config.hosts.forEach((h, i) => {
    const first = config.hosts.findIndex((o) => o.org === h.org);
    if (first !== i) fail(`hosts[${i}].org`, `repeats organization "${h.org}" (hosts[${first}])`);
    h.url = h.url.replace(/\/+$/, '');
  });
  if (config.halves && !config.windows.some((w) => w.name === config.halves!.window)) {
    fail('halves.window', `names no window ("${config.halves.window}")`);
  }
  const splits = config.card?.splits;
  const windowNames = config.windows.map((w) => w.name);
  for (const w of Object.keys(splits ?? {}))
    if (!windowNames.includes(w)) fail(`card.splits.${w}`, `names no window (windows: ${windowNames.join(', ')})`);
  const collision = splitCollision(windowNames, splits);
  if (collision)
    fail(
      'card.splits',
      `publishes windows "${collision.first}" and "${collision.second}" as one split "${collision.split}"`,
    );
  // Bounds across rule parameters, as the rules declare them (the schema holds each one's own bounds).
  const across = crossParameterProblem(config.rules);
  if (across) fail(`rules.${across.parameter}`, across.problem);
  recordConfigSource(config, file);
  return config;
}

let compiled: ValidateFunction | undefined;

function schemaValidator(): ValidateFunction {
  if (compiled) return compiled;
  // useDefaults completes the config from the schema's defaults as it validates (on our copy).
  const ajv = new Ajv({ strict: true, allErrors: false, useDefaults: true, verbose: true });
  addFormats(ajv, ['date', 'email', 'uri']);
  // A bot template is compiled the way the bot_template rule compiles it: new RegExp(source).
  ajv.addFormat('regex', { type: 'string', validate: (s: string) => regexProblem(s) === undefined });
  // The messages VS Code shows for a mismatch (a JSON Schema extension of its own); we show them too.
  ajv.addVocabulary(['errorMessage', 'patternErrorMessage']);
  compiled = ajv.compile(schema);
  return compiled;
}

function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

type VerboseError = ErrorObject & {
  parentSchema?: { errorMessage?: string; patternErrorMessage?: string; properties?: Record<string, unknown> };
  data?: unknown;
};

/** The one problem to report: the first, passing over the branches of an anyOf and the `if` of an if/then. */
export function describeSchemaError(errors: readonly ErrorObject[]): { field: string; problem: string } {
  const e = (errors.find((x) => x.keyword !== 'if' && !x.schemaPath.includes('/anyOf/')) ?? errors[0]) as
    VerboseError | undefined;
  if (!e) return { field: '(root)', problem: 'is not valid' };
  const at = fieldPath(e.instancePath);
  const child = (name: string) => (at ? `${at}${propertySuffix(name)}` : propertyRoot(name));
  const p = e.params as Record<string, unknown>;
  const got = ` (got ${show(e.data)})`;
  const own = e.parentSchema;
  switch (e.keyword) {
    case 'required':
      return { field: child(String(p.missingProperty)), problem: 'is required' };
    case 'additionalProperties': {
      const name = String(p.additionalProperty);
      const known = Object.keys(own?.properties ?? {});
      const near = known.find((k) => editDistance(k.toLowerCase(), name.toLowerCase()) <= 2);
      return {
        field: child(name),
        problem: `is not a known field (${near ? `did you mean "${near}"?` : `known: ${known.join(', ')}`})`,
      };
    }
    case 'type':
      return {
        field: at || '(root)',
        problem: `must be ${String(p.type).split(',').map(typeName).join(' or ')}${got}`,
      };
    case 'enum':
      return {
        field: at,
        problem: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}${got}`,
      };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        field: at,
        problem: `must be ${String(p.comparison).replace('>=', '≥').replace('<=', '≤')} ${String(p.limit)}${got}`,
      };
    case 'minLength':
      return {
        field: at,
        problem: p.limit === 1 ? 'must not be empty' : `must hold at least ${String(p.limit)} characters`,
      };
    case 'minItems':
      return {
        field: at,
        problem: p.limit === 1 ? 'must hold at least one item' : `must hold at least ${String(p.limit)} items`,
      };
    case 'format':
      if (p.format === 'date') return { field: at, problem: `must be a calendar date YYYY-MM-DD${got}` };
      if (p.format === 'regex') return { field: at, problem: `is not a valid regex (${regexProblem(String(e.data))})` };
      return { field: at, problem: `${own?.errorMessage ?? `must be a valid ${String(p.format)}`}${got}` };
    case 'pattern':
      return {
        field: at,
        problem: `${own?.patternErrorMessage ?? own?.errorMessage ?? `must match ${String(p.pattern)}`}${got}`,
      };
    case 'const':
      return { field: at, problem: `${own?.errorMessage ?? `must be ${show(p.allowedValue)}`}${got}` };
    case 'anyOf':
    case 'not':
      return {
        field: at,
        problem: `${own?.errorMessage ?? (e.keyword === 'not' ? 'is not allowed here' : 'matches none of the allowed forms')}${got}`,
      };
    default:
      return { field: at || '(root)', problem: `${e.message ?? 'is not valid'}` };
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const propertySuffix = (name: string) => (IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`);
const propertyRoot = (name: string) => (IDENTIFIER.test(name) ? name : `[${JSON.stringify(name)}]`);

/** `/windows/0/sealed` → `windows[0].sealed`. */
function fieldPath(pointer: string): string {
  if (!pointer) return '';
  let out = '';
  for (const raw of pointer.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out ? propertySuffix(part) : propertyRoot(part);
  }
  return out;
}

function typeName(t: string): string {
  return (
    {
      integer: 'an integer',
      number: 'a number',
      string: 'a string',
      object: 'an object',
      array: 'an array',
      boolean: 'true or false',
      null: 'null',
    }[t] ?? t
  );
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}
