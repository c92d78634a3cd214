// The judge's verdicts where the inspector shows them, on the sample corpus with judgments written
// through the judge's store API: the tree filter's quality classes, the one-line verdict of the hover
// and tooltip ("not judged" without one), and the score distributions of the webview.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSampleCorpus } from '../../scripts/sample-corpus';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { latestBuildId } from '../../src/core/review/inspect/groups';
import { filteredCounts, groupKey, listItems } from '../../src/core/review/inspect/items';
import { writeJudgment } from '../../src/core/build/judgments/judgmentStore';
import { judgeItems } from '../../src/core/review/judge/judgeItems';
import type { JudgeAnswer } from '../../src/core/build/judgments/types';
import { CommentQualityIndex, NOT_JUDGED } from '../../src/core/review/quality/commentQuality';
import { scoreDistributions } from '../../src/core/review/quality/scoreDistribution';
import { qualityAgreement } from '../../src/core/review/quality/agreement';
import { applyEdit } from '../../src/core/jobs/edits';

const answer = (relevance: number, clarity: number, conciseness: number): JudgeAnswer => ({
  type: ['Refactoring'],
  nature: ['Prescriptive'],
  civility: 'Civil',
  relevance,
  clarity,
  conciseness,
});

describe('the judge in the inspector (sample corpus)', function () {
  this.timeout(60_000);
  let store: CorpusStore;
  let build: number;

  before(async () => {
    const { dbFile } = await buildSampleCorpus(mkdtempSync(path.join(tmpdir(), 'rc-quality-')));
    store = await CorpusStore.open(dbFile);
    build = latestBuildId(store)!;
    // This copy without the sample's own judgments (scripts/sample-corpus.ts), so each count here is the test's.
    store.run('DELETE FROM judgments');
  });
  after(() => store.close());

  it('reads "not judged" before any judgment, and the verdict once there is one', () => {
    const [first] = judgeItems(store, build);
    assert.equal(CommentQualityIndex.of(store, undefined).line(first.commentKey), NOT_JUDGED);
    writeJudgment(store, {
      cacheKey: 'k-high',
      commentKey: first.commentKey,
      model: 'm1',
      promptVersion: 'p',
      params: {},
      status: 'judged',
      answer: answer(9, 8, 7),
      judgedAt: '2026-01-01T00:00:00Z',
    });
    // The index sees the new judgment in the same store (no reload needed).
    assert.equal(
      CommentQualityIndex.of(store, undefined).line(first.commentKey),
      'Judge (m1): high · type Refactoring · nature Prescriptive · Civil · relevance 9, clarity 8, conciseness 7',
    );
  });

  it('filters the tree by quality: the example of a high comment under high, an irrelevant one under irrelevant, the rest unjudged', () => {
    const items = judgeItems(store, build);
    const [first, second] = items;
    writeJudgment(store, {
      cacheKey: 'k-irr',
      commentKey: second.commentKey,
      model: 'm1',
      promptVersion: 'p',
      params: {},
      status: 'judged',
      answer: answer(2, 9, 9),
      judgedAt: '2026-01-01T00:00:01Z',
    });
    const exampleOf = (key: string) => {
      const [org, number, gerritId] = key.split('/');
      return Number(
        store.scalar(
          `SELECT e.id FROM examples e JOIN example_comments x ON x.example_id = e.id JOIN comments cm ON cm.id = x.comment_id
        JOIN changes c ON c.id = cm.change_id JOIN hosts h ON h.id = c.host_id WHERE e.build_id = ? AND e.rule IS NULL AND h.org = ? AND c.number = ? AND cm.gerrit_id = ?`,
          [build, org, Number(number), gerritId],
        ),
      );
    };
    const group = { buildId: build, org: first.org, window: first.window, rule: 'kept', unit: 'examples' as const };
    const high = listItems(store, group, 0, 100, { quality: { quality: 'high' } });
    assert.deepEqual(
      high.map((i) => i.id),
      [exampleOf(first.commentKey)],
    );
    const counts = filteredCounts(store, build, { quality: { quality: 'high' } });
    assert.deepEqual([...counts], [[groupKey(first.org, first.window, 'kept'), 1]]);
    const irrelevant = filteredCounts(store, build, { quality: { quality: 'irrelevant' } });
    assert.equal(
      [...irrelevant.values()].reduce((a, b) => a + b, 0),
      1,
    );
    // Another model's judgments only: nothing is judged, so every kept example with a kept comment is unjudged.
    const unjudged = filteredCounts(store, build, { quality: { quality: 'unjudged', model: 'other-model' } });
    const withKeptComment = new Set(items.map((i) => exampleOf(i.commentKey))).size;
    assert.equal(
      [...unjudged.values()].reduce((a, b) => a + b, 0),
      withKeptComment,
    );
    // Removed comments are never judged: a quality filter lists none of them.
    assert.deepEqual(
      listItems(store, { ...group, rule: 'own_author', unit: 'comments' }, 0, 100, {
        quality: { quality: 'unjudged' },
      }),
      [],
    );
  });

  it('gives score distributions per organization × window, null (not counted) without judgments', () => {
    assert.equal(scoreDistributions(store, build, 'no-such-model'), null);
    const d = scoreDistributions(store, build, 'm1')!;
    const judged = d.filter((g) => g.judged > 0);
    assert.equal(
      judged.reduce((s, g) => s + g.judged, 0),
      2,
    );
    const all = (name: 'relevance' | 'clarity') =>
      d.reduce((acc, g) => acc.map((n, i) => n + g.counts[name][i]), new Array(10).fill(0));
    assert.deepEqual(all('relevance'), [0, 1, 0, 0, 0, 0, 0, 0, 1, 0]);
    assert.deepEqual(all('clarity'), [0, 0, 0, 0, 0, 0, 0, 1, 1, 0]);
  });

  it("stores a hand label through the editor's edit (Label Comment Quality…), and agreement pairs it with the judge", () => {
    const [first, second] = judgeItems(store, build);
    assert.deepEqual(qualityAgreement(store), [], 'one model and no human: no pair');
    // The human agrees on the first comment exactly and differs on the second's relevance by one.
    applyEdit(store, {
      kind: 'qualityLabel',
      label: {
        commentKey: first.commentKey,
        rater: 'r_test',
        answer: answer(9, 8, 7),
        labelledAt: '2026-01-02T00:00:00Z',
      },
    });
    applyEdit(store, {
      kind: 'qualityLabel',
      label: {
        commentKey: second.commentKey,
        rater: 'r_test',
        answer: answer(3, 9, 9),
        labelledAt: '2026-01-02T00:00:00Z',
      },
    });
    const [row] = qualityAgreement(store);
    assert.deepEqual([row.raterA, row.raterB, row.kind, row.items], ['m1', 'r_test', 'judge-human', 2]);
    // Relevance (9, 9), (2, 3): po 1/2, pe 0 (no value both use… 9 is) → a: 9, 2; b: 9, 3; pe = (1/2)(1/2) = 1/4 → κ = (1/2 − 1/4)/(3/4) = 1/3.
    assert.ok(Math.abs(row.scores.relevance.kappa! - 1 / 3) < 1e-12);
    // κw: Σw·O = (0 + 1)/2 = 1/2; Σw·E = (1/4)[(9−9)² + (9−3)² + (2−9)² + (2−3)²] = (0 + 36 + 49 + 1)/4 = 21.5 → 1 − 0.5/21.5.
    assert.ok(Math.abs(row.scores.relevance.quadratic! - (1 - 0.5 / 21.5)) < 1e-12);
    assert.equal(row.civility, null, 'both always Civil: κ undefined');
  });
});
