// Each rule declares its parameters beside its decide(); the schema, DEFAULT_RULES and docs/rules.md's
// tables are generated from those declarations, and their bounds hold the same everywhere they are checked.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateCorpusConfig } from '../../src/core/rules/corpusJson/loadConfig';
import { DEFAULT_RULES, PARAMETER_OWNER, PARAMETER_OWNERS, RULE_PARAMETERS } from '../../src/core/rules/ruleParameters';
import { ruleParametersTable } from '../../src/core/rules/ruleParametersTable';
import { findDuplicates } from '../../src/core/rules/dedup/index';
import { DEFAULTS } from '../../src/core/rules/dedup/testHunks';
import { RULES } from '../../src/core/rules/funnel';
import { parameterProblem } from '../../src/core/rules/parameters';

type Declared = { type: string; minimum?: number; exclusiveMinimum?: number; maximum?: number; default: unknown };

const schema = JSON.parse(readFileSync(path.resolve('schemas/corpus.schema.json'), 'utf8')) as {
  properties: { rules: { properties: Record<string, Declared> } };
};
// Less the switches (`enabled`): the funnel's rules declare them, not parameters (ruleSwitches.ts).
const { enabled: _switches, ...schemaRules } = schema.properties.rules.properties;

const config = (rules: Record<string, unknown>) => ({
  name: 'sample',
  start: '2024-10-01',
  salt: { env: 'REVIEW_CORPUS_SALT' },
  windows: [{ name: 'pilot', from: '2024-10-01', to: '2024-11-01' }],
  hosts: [{ org: 'openstack', url: 'https://review.example', minIntervalMs: 1000 }],
  rules,
});

/** loadConfig's one-line problem for `rules`, or undefined when the config is valid. */
function configProblem(rules: Record<string, unknown>): string | undefined {
  try {
    validateCorpusConfig(config(rules), 'corpus.json');
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('rule parameters are declared by their rules', () => {
  it('puts every parameter a rule or group declares into the schema, with its bounds and default', () => {
    let declared = 0;
    for (const owner of PARAMETER_OWNERS) {
      for (const [name, p] of Object.entries(owner.parameters ?? {})) {
        declared++;
        assert.deepEqual(
          schemaRules[name],
          JSON.parse(JSON.stringify(p)),
          `rules.${name} (declared by ${owner.id}) in schemas/corpus.schema.json`,
        );
        assert.deepEqual(
          (DEFAULT_RULES as unknown as Record<string, unknown>)[name],
          p.default,
          `DEFAULT_RULES.${name}`,
        );
      }
    }
    // Nothing in the schema that no one declares, and no name declared twice.
    assert.equal(Object.keys(schemaRules).length, declared);
    assert.deepEqual(
      Object.keys(schemaRules),
      Object.keys(RULE_PARAMETERS),
      'the schema lists them in the assembled order',
    );
  });

  it('declares every field of RulesConfig (config/types.ts), so no field is left without a default or bounds', () => {
    // The interface's fields, read from its source: tsc cannot see that the assembled table is complete.
    const source = readFileSync(path.resolve('src/core/ground/config/types.ts'), 'utf8');
    const body = /export interface RulesConfig \{\n([\s\S]*?)\n\}/.exec(source)?.[1] ?? '';
    const fields = [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]);
    assert.ok(fields.length > 10, 'found the RulesConfig fields');
    // Every field but the switches (`enabled`), which the funnel's rules declare (ruleSwitches.ts).
    assert.deepEqual(fields.filter((f) => f !== 'enabled').sort(), Object.keys(RULE_PARAMETERS).sort());
  });

  it('has every funnel rule that thresholds anything own its parameters, named by the rule (size owns maxLinesPerSide)', () => {
    assert.equal(PARAMETER_OWNER.get('maxLinesPerSide')?.id, 'size');
    assert.equal(PARAMETER_OWNER.get('maxGrowthRatio')?.id, 'size');
    assert.equal(PARAMETER_OWNER.get('aroundLines')?.id, 'unchanged_around');
    assert.equal(PARAMETER_OWNER.get('lshBands')?.id, 'near_duplicate');
    for (const rule of RULES) assert.ok(PARAMETER_OWNERS.includes(rule), `${rule.id} is read for parameters`);
  });

  it('lists every parameter in the table docs/rules.md shows (docs.test.ts checks the page is current)', () => {
    const table = ruleParametersTable().join('\n');
    for (const name of Object.keys(RULE_PARAMETERS)) assert.ok(table.includes(`| \`${name}\` |`), name);
  });

  it('refuses, through loadConfig, each value just past a declared bound, and takes the bound itself', () => {
    for (const [name, p] of Object.entries(RULE_PARAMETERS as unknown as Record<string, Declared>)) {
      if (p.type !== 'integer' && p.type !== 'number') continue;
      const edges: [number, boolean][] = [];
      if (p.minimum !== undefined)
        edges.push([p.minimum, true], [p.minimum - (p.type === 'integer' ? 1 : 0.01), false]);
      if (p.exclusiveMinimum !== undefined) edges.push([p.exclusiveMinimum, false]);
      if (p.maximum !== undefined)
        edges.push([p.maximum, true], [p.maximum + (p.type === 'integer' ? 1 : 0.01), false]);
      if (p.type === 'integer') edges.push([(p.default as number) + 0.5, false]);
      for (const [value, ok] of edges) {
        // lshBands at its maximum is not the question here; keep the cross bound out of the way.
        const rules = name === 'minhashPermutations' ? { [name]: value, lshBands: 1, lshRows: 1 } : { [name]: value };
        const problem = configProblem(rules);
        assert.equal(problem === undefined, ok, `rules.${name} = ${value}: ${problem ?? 'accepted'}`);
        assert.equal(
          parameterProblem(p as never, value) === undefined,
          ok,
          `the declared bound and the schema agree on rules.${name} = ${value}`,
        );
        if (!ok) assert.match(problem!, new RegExp(`^corpus\\.json: rules\\.${name} must be `));
      }
    }
  });

  it('checks the bound across parameters where it is declared, in loadConfig and in the dedup module alike', () => {
    const problem = 'lshBands × lshRows must not exceed minhashPermutations (16 × 16 > 128)';
    assert.equal(configProblem({ lshRows: 16 }), `corpus.json: rules.${problem}`);
    assert.throws(() => findDuplicates([], { ...DEFAULTS, lshBands: 16, lshRows: 16 }), {
      name: 'UserError',
      message: `duplicate detection: ${problem}`,
    });
  });

  // The dedup module's own check took any positive integer, the schema ≥ 2: a direct caller (a benchmark)
  // could run boilerplate with 1, which calls every hunk boilerplate. The declared bound (≥ 2) now holds there too.
  it('refuses boilerplateMinChanges 1 in the dedup module, as a corpus.json is refused it', () => {
    assert.match(configProblem({ boilerplateMinChanges: 1 })!, /rules\.boilerplateMinChanges must be ≥ 2 \(got 1\)$/);
    assert.throws(() => findDuplicates([], { ...DEFAULTS, boilerplateMinChanges: 1 }), {
      name: 'UserError',
      message: 'duplicate detection: boilerplateMinChanges must be ≥ 2 (got 1)',
    });
  });
});
