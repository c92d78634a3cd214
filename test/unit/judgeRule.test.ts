// irrelevant_comment through a real build: off by default ("not counted", the rules version as before),
// on it reads the stored judgments, removes the irrelevant comments, counts the unjudged ones, and
// changes the rules version. The build never calls the endpoint: the fake judge is closed by then.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { rulesVersion } from '../../src/core/build/stages/hashing';
import { runJudge } from '../../src/core/review/judge/runJudge';
import { startFakeJudge } from '../fake-judge/server';
import { populate } from './buildScenario';
import { testConfig } from './buildFixture';
import type { CorpusConfig } from '../../src/core/ground/config/types';

const judgeSection = (url: string, irrelevantComment: boolean): NonNullable<CorpusConfig['judge']> => ({
  endpoint: url,
  model: 'fake-1',
  apiKeyEnv: 'REVIEW_CORPUS_JUDGE_KEY',
  thresholds: { irrelevantBelow: 4, clarityMin: 7, concisenessMin: 7 },
  irrelevantComment,
  temperature: 0,
  maxTokens: 256,
});

const row = (funnel: Awaited<ReturnType<typeof runBuild>>['funnel'], org = 'openstack') =>
  funnel.organizations[org].funnel.find((r) => r.rule === 'irrelevant_comment')!;

describe('rule irrelevant_comment in a build', function () {
  this.timeout(30_000);

  it('is off by default: not counted, and the rules version is the one without a judge', async () => {
    const { store } = await populate(path.join(mkdtempSync(path.join(tmpdir(), 'rc-irr-')), 'corpus.sqlite'));
    const r = await runBuild(store);
    assert.equal(row(r.funnel).removed, null);
    assert.match(row(r.funnel).notCounted!, /off/);
    assert.equal(r.funnel.organizations.openstack.counters.irrelevant_unjudged, null);
    assert.equal(
      rulesVersion(testConfig({ judge: judgeSection('http://127.0.0.1:1/v1', false) })),
      rulesVersion(testConfig()),
    );
    store.close();
  });

  it('on: removes the comments judged irrelevant, counts the unjudged ones, and changes the rules version', async () => {
    // c-kept is judged irrelevant; c-crlf's answers break the schema twice, so it stays unjudged.
    const fake = await startFakeJudge({
      answerFor: (c) => ({ relevance: /clearer name/.test(c) ? 2 : 8 }),
      faults: [{ kind: 'schema', comment: /Drop the CR/, times: 2 }],
    });
    const { store } = await populate(path.join(mkdtempSync(path.join(tmpdir(), 'rc-irr-')), 'corpus.sqlite'));
    const off = await runBuild(store);
    const on = testConfig({ judge: judgeSection(fake.url, true) });
    const judged = await runJudge(store, on, { checkpoint: () => undefined });
    assert.equal(judged.dryRun === false && judged.invalid, 1);
    await fake.close(); // the build reads the stored judgments only
    const r = await runBuild(store, { config: on });
    assert.notEqual(r.funnel.rulesVersion, off.funnel.rulesVersion);
    assert.equal(row(r.funnel).removed, 1);
    assert.equal(row(r.funnel, 'qt').removed, 0);
    // Unjudged: every comment the other comment rules kept that has no judged answer, c-crlf among them
    // (the judge saw only comments on kept examples; comments on examples a later rule drops reach it too).
    const unjudgedKept = (org: string) =>
      Number(
        store.scalar(
          `SELECT count(*) FROM decisions d WHERE d.build_id = ? AND d.unit = 'comments' AND d.rule = 'kept' AND d.org = ?
       AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.comment_key = d.unit_key AND j.status = 'judged')`,
          [r.buildId, org],
        ),
      );
    assert.ok(unjudgedKept('openstack') >= 1);
    assert.equal(r.funnel.organizations.openstack.counters.irrelevant_unjudged, unjudgedKept('openstack'));
    assert.equal(r.funnel.organizations.qt.counters.irrelevant_unjudged, unjudgedKept('qt'));
    const decision = (key: string) =>
      store.get<{ rule: string; evidence: string | null }>(
        `SELECT rule, evidence FROM decisions WHERE build_id = ? AND unit = 'comments' AND unit_key = ?`,
        [r.buildId, key],
      );
    assert.equal(decision('openstack/110/c-kept')!.rule, 'irrelevant_comment');
    assert.deepEqual(JSON.parse(decision('openstack/110/c-kept')!.evidence!), {
      relevance: 2,
      below: 4,
      model: 'fake-1',
    });
    assert.equal(decision('openstack/160/c-crlf')!.rule, 'kept');
    // Its example had no other kept comment: nothing_left now.
    assert.equal(r.kept, off.kept - 1);
    // Off again: the build is the one without a judge.
    const back = await runBuild(store);
    assert.equal(back.funnel.rulesVersion, off.funnel.rulesVersion);
    assert.equal(back.corpusHash, off.corpusHash);
    store.close();
  });
});
