// Comment-level decontamination (rules.protectedCommentLevel) on the sample corpus, a real sql.js file
// on disk: with it off a reference comment removes the whole example (protected_overlap); with it on
// only the comment goes, under protected_comment with its evidence, its example stays while another
// comment is left, and becomes nothing_left when none is. The rules version tells the two apart.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSampleCorpus } from '../../scripts/sample-corpus';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { storedConfig } from '../../src/core/build/stages/loadCorpus';
import { registerReferenceSet } from '../../src/core/rules/decontam/referenceSets';
import { findProtectedComments } from '../../src/core/rules/decontam/protectComments';
import { matchingPolicy } from '../../src/core/rules/decontam/policy';
import { DEFAULT_RULES } from '../../src/core/rules/ruleParameters';
import { PROTECTED_COMMENT_OFF } from '../../src/core/rules/comments/protectedComment';

// Two kept comments (c01, c02) on one train example, and one kept comment alone on another.
const TWO = 'openstack/930013/1/3/nova/api/debug/servers_html.py';
const ONE = 'openstack/930007/1/6/nova/virt/libvirt/migration.py';

describe('protected_comment: comment-level decontamination', function () {
  this.timeout(60_000);
  let store: CorpusStore;

  before(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rc-protected-comment-'));
    const { dbFile } = await buildSampleCorpus(dir);
    store = await CorpusStore.open(dbFile);
    const message = (gerritId: string) =>
      String(store.scalar('SELECT message FROM comments WHERE gerrit_id = ?', [gerritId]));
    // A reference comment equal to os930013_c01 (re-spaced), and one that shares a 5-token run with os930007_c01.
    const references = [
      { id: 'whole', comment: `  ${message('os930013_c01').replace(/ /g, '  ')}  ` },
      {
        id: 'run',
        comment: `An unrelated start, then: ${message('os930007_c01').split(' ').slice(1, 7).join(' ')} and more.`,
      },
    ];
    store.transaction(() =>
      registerReferenceSet(store, 'other-benchmark', references, { at: '2026-12-04T00:00:00.000Z' }),
    );
  });
  after(() => store.close());

  const decisionsOf = (build: number, key: string) =>
    store.all<{ unit: string; unit_key: string; rule: string; evidence: string | null }>(
      "SELECT unit, unit_key, rule, evidence FROM decisions WHERE build_id = ? AND (unit_key = ? OR (unit = 'comments' AND unit_key LIKE ?)) ORDER BY unit, unit_key",
      [build, key, `${key.split('/').slice(0, 2).join('/')}/%`],
    );
  const exampleRule = (build: number, key: string) =>
    store.scalar('SELECT rule FROM examples WHERE build_id = ? AND example_key = ?', [build, key]);

  it('off (the default): a comment match removes the whole example under protected_overlap', async () => {
    const built = await runBuild(store, { hunkFactsWorker: false });
    assert.equal(exampleRule(built.buildId, TWO), 'protected_overlap');
    assert.equal(exampleRule(built.buildId, ONE), 'protected_overlap');
    assert.equal(decisionsOf(built.buildId, TWO).filter((d) => d.rule === 'protected_comment').length, 0);
    const funnel = JSON.parse(String(store.scalar('SELECT funnel FROM builds WHERE id = ?', [built.buildId])));
    assert.deepEqual(
      funnel.organizations.openstack.funnel.find((x: { rule: string }) => x.rule === 'protected_comment'),
      {
        stage: 'comments',
        rule: 'protected_comment',
        unit: 'comments',
        removed: null,
        notCounted: PROTECTED_COMMENT_OFF,
      },
      'off: not counted, never 0',
    );
  });

  it('on: only the comment goes, with its evidence; the example stays while a comment is left, else nothing_left', async () => {
    const config = storedConfig(store);
    const off = await runBuild(store, { hunkFactsWorker: false });
    const on = await runBuild(store, {
      hunkFactsWorker: false,
      config: { ...config, rules: { ...config.rules, protectedCommentLevel: true } },
    });
    assert.notEqual(on.rulesVersion, off.rulesVersion, 'the policy is part of the rules version');

    assert.equal(exampleRule(on.buildId, TWO), null, 'kept: os930013_c02 is left');
    const removed = decisionsOf(on.buildId, TWO).filter((d) => d.rule === 'protected_comment');
    assert.deepEqual(
      removed.map((d) => d.unit_key),
      ['openstack/930013/os930013_c01'],
    );
    assert.deepEqual(JSON.parse(removed[0].evidence!), {
      reference_set: 'other-benchmark',
      reference_id: 'whole',
      reference_field: 'comment',
      policy: 'whole_comment',
      span_start: 0,
      span_end: JSON.parse(removed[0].evidence!).span_end,
    });
    assert.equal(exampleRule(on.buildId, ONE), 'nothing_left', 'its only comment was protected');
    const one = decisionsOf(on.buildId, ONE).find((d) => d.unit === 'comments' && d.rule === 'protected_comment');
    assert.equal(JSON.parse(one!.evidence!).policy, 'comment_substring');

    const funnel = JSON.parse(String(store.scalar('SELECT funnel FROM builds WHERE id = ?', [on.buildId])));
    const row = funnel.organizations.openstack.windows.train.funnel.find(
      (x: { rule: string }) => x.rule === 'protected_comment',
    );
    assert.equal(row.removed, 2, 'counted per organization and window');
    assert.equal(funnel.decontamination.policy.commentMatchRemoves, 'comment');
  });

  it('protects train comments against the comments kept in other windows, and never the other way', () => {
    const policy = matchingPolicy({ ...DEFAULT_RULES, protectedCommentLevel: true });
    const text = 'please use the monotonic clock to measure the elapsed time here';
    const found = findProtectedComments(
      [
        { key: 'o/1/a', window: 'train', message: text, kept: true },
        { key: 'o/2/b', window: 'test', message: `Indeed: ${text}.`, kept: true },
        { key: 'o/3/c', window: 'dev', message: 'nothing shared with anything else at all', kept: true },
        { key: 'o/4/d', window: 'train', message: 'a removed comment of another window protects nothing', kept: true },
        { key: 'o/5/e', window: 'dev', message: 'a removed comment of another window protects nothing', kept: false },
      ],
      [],
      policy,
      { protectedWindows: ['dev', 'test'], policy },
    );
    assert.deepEqual([...found.keys()], [0]);
    assert.deepEqual(found.get(0), {
      set: 'window:test',
      id: 'o/2/b',
      policy: 'comment_substring',
      start: 0,
      end: text.length,
      referenceMatched: text,
    });
  });
});
