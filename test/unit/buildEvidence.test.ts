// Every removal names its evidence, in the file: a build of a small stored corpus writes each
// duplicate's twin and exact Jaccard (and the other rules' evidence) to decisions.evidence.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { evidenceLines, findTwin, readEvidence } from '../../src/core/review/inspect/evidence';
import { getExample } from '../../src/core/review/inspect/example';
import { listItems } from '../../src/core/review/inspect/items';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { CorpusFixture, diffOf } from './buildFixture';

const tempFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'rc-evidence-')), 'corpus.sqlite');

/** n distinct tokens on one line: `${word}1 … ${word}n`. */
const line = (word: string, n: number) => Array.from({ length: n }, (_, i) => `${word}${i + 1}`).join(' ');

describe('build: every removal names its evidence (decisions.evidence)', () => {
  let file: string;
  let store: CorpusStore;
  let buildId: number;
  let evidence: (unit: string, key: string) => Record<string, unknown> | null;
  let rule: (unit: string, key: string) => string | undefined;

  before(async () => {
    file = tempFile();
    const fx = await CorpusFixture.create(file);
    // A one-line file whose only line is rewritten, so the whole file is the hunk: 12 tokens before,
    // 12 other tokens after. The later change writes the same edit but for the after side's last token.
    const before = [line('old', 12)];
    const after = [line('new', 12)];
    const twin = fx.change({ number: 1, created: '2024-10-05 10:00:00.000000000' });
    fx.diff(twin, 'a.py', 1, diffOf(before, after));
    fx.comment(twin, { gerritId: 'c-twin', path: 'a.py', line: 1, author: 'p-rev', message: 'rename these' });
    const near = fx.change({ number: 2, created: '2024-10-06 10:00:00.000000000' });
    fx.diff(near, 'b.py', 1, diffOf(before, [after[0].replace(/new12$/, 'other12')]));
    fx.comment(near, { gerritId: 'c-near', path: 'b.py', line: 1, author: 'p-rev', message: 'rename these too' });
    // An exact copy of the twin (trailing spaces aside), and an acknowledgement left on it.
    const exact = fx.change({ number: 3, created: '2024-10-07 10:00:00.000000000' });
    fx.diff(exact, 'c.py', 1, diffOf([`${before[0]}   `], after));
    fx.comment(exact, { gerritId: 'c-exact', path: 'c.py', line: 1, author: 'p-rev', message: 'and here' });
    fx.comment(exact, { gerritId: 'c-ack', path: 'c.py', line: 1, author: 'p-rev', message: ' Done. ' });
    fx.store.save();
    fx.store.close();

    store = await CorpusStore.open(file);
    ({ buildId } = await runBuild(store));
    store.save();
    {
      const rows = store.all<{ unit: string; unit_key: string; rule: string; evidence: string | null }>(
        'SELECT unit, unit_key, rule, evidence FROM decisions WHERE build_id = ?',
        [buildId],
      );
      const of = (unit: string, key: string) => rows.find((r) => r.unit === unit && r.unit_key === key);
      evidence = (unit, key) => {
        const e = of(unit, key)?.evidence;
        return e === null || e === undefined ? null : (JSON.parse(e) as Record<string, unknown>);
      };
      rule = (unit, key) => of(unit, key)?.rule;
    }
  });
  after(() => store.close());

  it('a near duplicate names its kept twin and the exact Jaccard of their shingle sets', () => {
    // Shingles are 5 tokens of before + after: 24 distinct tokens give 20 shingles each. Only the last
    // shingle holds the last token, so the two sets share 19 of 21: J = 19/21, not a MinHash estimate.
    assert.equal(rule('examples', 'openstack/2/1/1/b.py'), 'near_duplicate');
    assert.deepEqual(evidence('examples', 'openstack/2/1/1/b.py'), { twin: 'openstack/1/1/1/a.py', jaccard: 19 / 21 });
  });

  it('an exact duplicate names its twin, with Jaccard 1', () => {
    assert.equal(rule('examples', 'openstack/3/1/1/c.py'), 'exact_duplicate');
    assert.deepEqual(evidence('examples', 'openstack/3/1/1/c.py'), { twin: 'openstack/1/1/1/a.py', jaccard: 1 });
  });

  it('the kept twin and kept comments carry no evidence', () => {
    assert.equal(rule('examples', 'openstack/1/1/1/a.py'), 'kept');
    assert.equal(evidence('examples', 'openstack/1/1/1/a.py'), null);
    assert.equal(evidence('comments', 'openstack/1/c-twin'), null);
  });

  it('an acknowledgement names its normalised text', () => {
    assert.equal(rule('comments', 'openstack/3/c-ack'), 'acknowledgement');
    assert.deepEqual(evidence('comments', 'openstack/3/c-ack'), { text: 'done' });
  });

  it('reads back through core/review/inspect: the example record, its tree item\'s twin, the twin in the build, "name: value" lines', () => {
    const id = Number(
      store.scalar('SELECT id FROM examples WHERE build_id = ? AND example_key = ?', [buildId, 'openstack/2/1/1/b.py']),
    );
    const e = getExample(store, id)!;
    assert.deepEqual(e.evidence, { twin: 'openstack/1/1/1/a.py', jaccard: 19 / 21 });
    assert.deepEqual(evidenceLines(e.evidence), ['twin: openstack/1/1/1/a.py', `jaccard: ${19 / 21}`]);
    const twin = findTwin(store, buildId, e.evidence)!;
    assert.equal(twin.rule, null, 'the twin is kept');
    assert.equal(getExample(store, twin.id!)!.key, 'openstack/1/1/1/a.py');
    const [item] = listItems(
      store,
      { buildId, org: 'openstack', window: 'pilot', rule: 'near_duplicate', unit: 'examples' },
      0,
      10,
    );
    assert.ok(item.kind === 'example' && item.twin === 'openstack/1/1/1/a.py');
  });

  it('reads damaged evidence as one "unreadable" field rather than failing', () => {
    assert.deepEqual(readEvidence('{"twin": ['), { unreadable: '{"twin": [' });
    assert.deepEqual(readEvidence('{"nested": {"a": 1}}'), { unreadable: '{"nested": {"a": 1}}' });
    assert.equal(readEvidence(null), null);
  });
});
