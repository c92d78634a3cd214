// Defaults for the table-driven rule tests: a context and a unit of each kind, overridable per case.
import assert from 'node:assert/strict';
import { DEFAULT_RULES } from './ruleParameters';
import { normaliseAcknowledgement } from './comments/acknowledgement';
import type { ChangeUnit, CommentUnit, Evidence, ExampleUnit, HunkUnit, Rule, RuleContext } from './types';

export function testContext(over: Partial<RuleContext> = {}): RuleContext {
  return {
    start: '2024-10-01',
    rules: DEFAULT_RULES,
    acknowledgements: new Set(DEFAULT_RULES.acknowledgements.map(normaliseAcknowledgement)),
    hostBotTemplates: new Map(),
    ...over,
  };
}

export function changeUnit(over: Partial<ChangeUnit> = {}): ChangeUnit {
  return {
    org: 'openstack',
    number: 1,
    created: '2024-11-05T10:00:00Z',
    status: 'MERGED',
    collectionRule: null,
    fetchError: null,
    inSealedWindow: false,
    ...over,
  };
}

export function commentUnit(over: Partial<CommentUnit> = {}): CommentUnit {
  return {
    org: 'openstack',
    path: 'nova/api.py',
    patchSet: 1,
    side: 'REVISION',
    line: 10,
    startLine: null,
    endLine: null,
    endCharacter: null,
    author: 'reviewer',
    message: 'please rename this',
    hasFixSuggestion: false,
    owner: 'owner',
    authorIsBot: false,
    authorServiceUser: false,
    authorBotPattern: null,
    hasNextPatchSet: true,
    diff: 'ok',
    changedAround: true,
    ...over,
  };
}

export function hunkUnit(over: Partial<HunkUnit> = {}): HunkUnit {
  return { beforeLines: 7, afterLines: 7, editLinesBefore: 1, editLinesAfter: 1, ...over };
}

export function exampleUnit(over: Partial<ExampleUnit> = {}): ExampleUnit {
  return {
    kindAfter: 'REWORK',
    comments: [{ message: 'please rename this', hasFixSuggestion: false, removedBy: null }],
    flagConfirmed: false,
    ...over,
  };
}

/** One table row: a name, the unit, and the rule id expected to remove it (null: kept). */
export type Case<U> = [name: string, unit: U, removedBy: string | null];

/** Registers one `it` per row, asserting the rule's decision on that row's unit. */
export function decidesTable<U>(rule: Rule<U>, cases: readonly Case<U>[], ctx: RuleContext = testContext()): void {
  for (const [name, unit, expected] of cases) {
    it(`${expected ? 'removes' : 'keeps'}: ${name}`, () => {
      assert.equal(rule.decide(unit, ctx)?.rule ?? null, expected);
    });
  }
}

/** The evidence `rule` records for a unit it removes; fails when the rule keeps the unit. */
export function evidenceOf<U>(rule: Rule<U>, unit: U, ctx: RuleContext = testContext()): Evidence | undefined {
  const removal = rule.decide(unit, ctx);
  assert.ok(removal, `${rule.id} removes the unit`);
  return removal.evidence;
}
