import { strict as assert } from 'node:assert';
import type { ExampleRec } from './exampleStage';
import { CorpusHasher, type Decision } from './writeBuild';

const utf8 = new TextEncoder();
const example = (key: string, beforeText: string, afterText: string): ExampleRec => ({
  key,
  change: {} as ExampleRec['change'],
  path: 'src/a.py',
  psBefore: 1,
  language: 'python',
  beforeStart: 10,
  afterStart: 10,
  beforeText,
  afterText,
  comments: [],
  unit: 'examples',
  stage: 'windows',
  rule: null,
  window: 'train',
  rebaseEditedLines: 0,
});
const decision = (key: string, rule = 'kept', evidence: string | null = null): Decision => ({
  unit: 'examples',
  key,
  unitId: 1,
  org: 'o',
  window: 'train',
  stage: 'windows',
  rule,
  evidence,
});

function hashOf(examples: ExampleRec[], decisions: Decision[]): string {
  const h = new CorpusHasher();
  for (const e of examples) h.addKeptExample(e, utf8.encode(e.beforeText), utf8.encode(e.afterText));
  for (const d of decisions) h.addDecision(d);
  return h.digest();
}

describe('CorpusHasher', () => {
  const a = example('o/1/1/10/a.py', 'x = 1\n', 'x = 2\n');
  const b = example('o/2/1/10/a.py', 'déjà\r\n', 'vu\r\n');
  const ds = [decision('o/1/1/10/a.py'), decision('o/2/1/10/a.py')];

  it('does not depend on the order kept examples are written in', () => {
    assert.equal(hashOf([a, b], ds), hashOf([b, a], ds));
  });

  it('changes with one byte of a text, with where a text splits between sides, and with a decision', () => {
    const base = hashOf([a, b], ds);
    assert.notEqual(hashOf([example(a.key, 'x = 1\n', 'x = 3\n'), b], ds), base);
    assert.notEqual(hashOf([example(a.key, 'x = 1\nx', ' = 2\n'), b], ds), base);
    assert.notEqual(hashOf([a, b], [ds[0], decision(ds[1].key, 'near_duplicate')]), base);
    assert.notEqual(hashOf([a], ds), base);
  });

  it("changes with a removal's evidence", () => {
    const removed = [ds[0], decision(ds[1].key, 'near_duplicate')];
    const withEvidence = [ds[0], decision(ds[1].key, 'near_duplicate', '{"kept":"o/1/1/10/a.py","jaccard":0.9}')];
    const other = [ds[0], decision(ds[1].key, 'near_duplicate', '{"kept":"o/1/1/10/a.py","jaccard":0.8}')];
    assert.notEqual(hashOf([a], withEvidence), hashOf([a], removed));
    assert.notEqual(hashOf([a], withEvidence), hashOf([a], other));
  });
});
