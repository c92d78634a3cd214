import assert from 'node:assert/strict';
import { JUDGE_RESPONSE_FORMAT, parseJudgeAnswer, parseRewriteAnswer } from './answerSchema';
import { DEFAULT_THRESHOLDS, qualityOf, type CommentJudgment, type JudgeAnswer } from '../../build/judgments/types';

const answer = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    exemplary_comment: 'Rename x to count.',
    type: ['Refactoring'],
    nature: ['Prescriptive'],
    civility: 'Civil',
    relevance: 8,
    clarity: 7,
    conciseness: 7,
    rationale: 'r',
    ...over,
  });

describe('judge answers', () => {
  it('accepts a valid answer and keeps the exemplary comment and rationale', () => {
    const p = parseJudgeAnswer(answer());
    assert.ok(p.ok);
    if (p.ok)
      assert.deepEqual(p.value, {
        type: ['Refactoring'],
        nature: ['Prescriptive'],
        civility: 'Civil',
        relevance: 8,
        clarity: 7,
        conciseness: 7,
        exemplaryComment: 'Rename x to count.',
        rationale: 'r',
      });
  });
  for (const [name, content, problem] of [
    ['cut JSON', '{"type": ["Refactoring"], ', /not JSON/],
    ['a score of 11', answer({ relevance: 11 }), /relevance/],
    ['a score of 0', answer({ clarity: 0 }), /clarity/],
    ['a fractional score', answer({ conciseness: 7.5 }), /conciseness/],
    ['an unknown type', answer({ type: ['Security'] }), /type/],
    ['no nature', answer({ nature: [] }), /nature/],
    ['a repeated label', answer({ type: ['Bugfix', 'Bugfix'] }), /type/],
    ['civility not in the framework', answer({ civility: 'Polite' }), /civility/],
    ['a missing field', JSON.stringify({ type: ['Other'] }), /must have required property/],
    ['an extra field', answer({ confidence: 0.9 }), /additional/],
    ['no content', null, /no text content/],
  ] as const) {
    it(`rejects ${name} in one line`, () => {
      const p = parseJudgeAnswer(content);
      assert.ok(!p.ok);
      if (!p.ok) {
        assert.match(p.problem, problem);
        assert.equal(p.problem.split('\n').length, 1);
      }
    });
  }
  it('sends a strict schema with every property required and no extra property', () => {
    const f = JUDGE_RESPONSE_FORMAT;
    assert.equal(f.type, 'json_schema');
    assert.equal(f.json_schema.strict, true);
    assert.deepEqual([...f.json_schema.schema.required].sort(), Object.keys(f.json_schema.schema.properties).sort());
    assert.equal(f.json_schema.schema.additionalProperties, false);
    assert.equal(
      f.json_schema.schema.required[0],
      'exemplary_comment',
      'the exemplary comment comes first, to calibrate',
    );
  });
  it('reads a rewrite; an empty one is invalid', () => {
    assert.deepEqual(parseRewriteAnswer('{"reformulated_comment": "Use a clearer name."}'), {
      ok: true,
      value: 'Use a clearer name.',
    });
    assert.ok(!parseRewriteAnswer('{"reformulated_comment": ""}').ok);
  });
});

describe("quality classes (CuREV's thresholds)", () => {
  const j = (a: Partial<JudgeAnswer>): CommentJudgment => ({
    commentKey: 'o/1/c',
    model: 'm',
    promptVersion: 'p',
    status: 'judged',
    judgedAt: 't',
    answer: { type: ['Other'], nature: ['Other'], civility: 'Civil', relevance: 8, clarity: 7, conciseness: 7, ...a },
  });
  const cases: [string, CommentJudgment | undefined, string][] = [
    ['no judgment', undefined, 'unjudged'],
    ['an unjudged record', { ...j({}), status: 'unjudged', answer: undefined }, 'unjudged'],
    ['relevance 3', j({ relevance: 3 }), 'irrelevant'],
    ['relevance 3 even if civil, clear and concise', j({ relevance: 3, clarity: 10, conciseness: 10 }), 'irrelevant'],
    ['relevance 4, clarity and conciseness 7', j({ relevance: 4 }), 'high'],
    ['clarity 6', j({ clarity: 6 }), 'low'],
    ['conciseness 6', j({ conciseness: 6 }), 'low'],
    ['uncivil with top scores', j({ civility: 'Uncivil', clarity: 10, conciseness: 10 }), 'low'],
  ];
  for (const [name, judgment, expected] of cases)
    it(`${name}: ${expected}`, () => assert.equal(qualityOf(judgment, DEFAULT_THRESHOLDS), expected));
  it('follows configured thresholds', () => {
    assert.equal(
      qualityOf(j({ relevance: 5 }), { irrelevantBelow: 6, clarityMin: 7, concisenessMin: 7 }),
      'irrelevant',
    );
    assert.equal(qualityOf(j({ clarity: 6 }), { irrelevantBelow: 4, clarityMin: 6, concisenessMin: 7 }), 'high');
  });
});
