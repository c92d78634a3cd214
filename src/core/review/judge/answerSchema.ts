// The judge's forced output: one JSON schema, sent as the request's response_format and checked with Ajv
// on every answer (a server may ignore response_format, or claim to honour it and not).
//
// response_format {type: 'json_schema', json_schema: {name, strict: true, schema}} is OpenAI's Structured
// Outputs, https://platform.openai.com/docs/api-reference/chat/create#chat-create-response_format and
// https://platform.openai.com/docs/guides/structured-outputs. Strict mode needs every property in
// `required` and additionalProperties: false at every level, and servers differ in which further
// keywords they accept (numeric ranges, array lengths, uniqueItems). So the schema sent is the common
// subset (types, enums, required); the one Ajv checks adds the 1..10 range, non-empty label lists and no
// repeated label, which the prompt states too.
import Ajv, { type ValidateFunction } from 'ajv';
import { CIVILITIES, JUDGE_NATURES, JUDGE_TYPES, type JudgeAnswer } from '../../build/judgments/types';

const labels = (values: readonly string[]) => ({ type: 'array', items: { type: 'string', enum: [...values] } });

/** What the endpoint is asked for, in the order the prompt asks: the exemplary comment first, to calibrate. */
export const JUDGE_ANSWER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['exemplary_comment', 'type', 'nature', 'civility', 'relevance', 'clarity', 'conciseness', 'rationale'],
  properties: {
    exemplary_comment: { type: 'string' },
    type: labels(JUDGE_TYPES),
    nature: labels(JUDGE_NATURES),
    civility: { type: 'string', enum: [...CIVILITIES] },
    relevance: { type: 'integer' },
    clarity: { type: 'integer' },
    conciseness: { type: 'integer' },
    rationale: { type: 'string' },
  },
} as const;

const score = { type: 'integer', minimum: 1, maximum: 10 };
const checkedLabels = (values: readonly string[]) => ({ ...labels(values), minItems: 1, uniqueItems: true });

/** What every answer must be: the sent schema with the constraints it leaves out. */
const JUDGE_ANSWER_CHECK = {
  ...JUDGE_ANSWER_SCHEMA,
  properties: {
    ...JUDGE_ANSWER_SCHEMA.properties,
    type: checkedLabels(JUDGE_TYPES),
    nature: checkedLabels(JUDGE_NATURES),
    relevance: score,
    clarity: score,
    conciseness: score,
  },
};

export const JUDGE_RESPONSE_FORMAT = {
  type: 'json_schema',
  json_schema: { name: 'review_comment_judgment', strict: true, schema: JUDGE_ANSWER_SCHEMA },
} as const;

/** A rewrite's forced output: the reformulated comment alone. */
export const REWRITE_ANSWER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['reformulated_comment'],
  properties: { reformulated_comment: { type: 'string' } },
} as const;

const REWRITE_ANSWER_CHECK = {
  ...REWRITE_ANSWER_SCHEMA,
  properties: { reformulated_comment: { type: 'string', minLength: 1 } },
};

export const REWRITE_RESPONSE_FORMAT = {
  type: 'json_schema',
  json_schema: { name: 'review_comment_reformulation', strict: true, schema: REWRITE_ANSWER_SCHEMA },
} as const;

let judgeValidator: ValidateFunction | undefined;
let rewriteValidator: ValidateFunction | undefined;

function compile(schema: object): ValidateFunction {
  return new Ajv({ strict: true, allErrors: true }).compile(schema);
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The message content parsed as JSON and checked against the schema; a one-line problem otherwise. */
function parseWith<T>(content: unknown, validate: ValidateFunction): Parsed<T> {
  if (typeof content !== 'string') return { ok: false, problem: 'the answer has no text content' };
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch (e) {
    return { ok: false, problem: `the answer is not JSON (${(e as Error).message.split('\n')[0]})` };
  }
  if (!validate(raw)) {
    const first = validate.errors?.[0];
    return {
      ok: false,
      problem: `the answer breaks the schema: ${first?.instancePath || '(root)'} ${first?.message ?? 'is not valid'}`,
    };
  }
  return { ok: true, value: raw as T };
}

export function parseJudgeAnswer(content: unknown): Parsed<JudgeAnswer> {
  judgeValidator ??= compile(JUDGE_ANSWER_CHECK);
  const p = parseWith<Record<string, unknown>>(content, judgeValidator);
  if (!p.ok) return p;
  const r = p.value;
  return {
    ok: true,
    value: {
      type: r.type as JudgeAnswer['type'],
      nature: r.nature as JudgeAnswer['nature'],
      civility: r.civility as JudgeAnswer['civility'],
      relevance: r.relevance as number,
      clarity: r.clarity as number,
      conciseness: r.conciseness as number,
      exemplaryComment: r.exemplary_comment as string,
      rationale: r.rationale as string,
    },
  };
}

export function parseRewriteAnswer(content: unknown): Parsed<string> {
  rewriteValidator ??= compile(REWRITE_ANSWER_CHECK);
  const p = parseWith<{ reformulated_comment: string }>(content, rewriteValidator);
  return p.ok ? { ok: true, value: p.value.reformulated_comment } : p;
}
