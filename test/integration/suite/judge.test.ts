// Judge Comments… in the real VS Code: the job process asks the fake OpenAI-compatible judge (served
// from the extension host over loopback) with the key from secret storage, and the judgments land in
// the corpus file the session reopens. A second run sends nothing.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { startFakeJudge, type FakeJudge } from '../../fake-judge/server';
import { openSampleCorpus } from './support';
import { readJudgments } from '../../../src/core/build/judgments/judgmentStore';

const KEY = 'sk-integration-DISTINCTIVE-9d41c7';
const MODEL = 'integration-judge-1';

describe('judge comments from the palette', function () {
  this.timeout(120_000);
  let fake: FakeJudge;
  after(async () => {
    await fake?.close();
    await vscode.commands.executeCommand('reviewCorpus.setJudgeKey', '');
  });

  it('judges the kept comments against the fake judge, stores them, and a rerun sends nothing', async () => {
    fake = await startFakeJudge();
    const a = await openSampleCorpus('judge-sample');
    const configFile = a.session.configFile!;
    const config = JSON.parse(readFileSync(configFile, 'utf8'));
    config.judge = { ...config.judge, endpoint: fake.url, model: MODEL };
    writeFileSync(configFile, JSON.stringify(config, null, 2));
    assert.equal(await vscode.commands.executeCommand('reviewCorpus.setJudgeKey', KEY), true);
    await vscode.commands.executeCommand('reviewCorpus.judgeComments');
    assert.ok(fake.requests.length > 0, 'the judge was asked');
    assert.ok(fake.requests.every((r) => r.authorization === `Bearer ${KEY}` && r.body.model === MODEL));
    const c = a.session.corpus!;
    const judged = readJudgments(c.store, { model: MODEL });
    assert.ok(judged.size >= fake.requests.length, `${judged.size} judgments stored`);
    assert.ok([...judged.values()].every((j) => j.status === 'judged'));
    assert.equal(readFileSync(c.dbFile).indexOf(Buffer.from(KEY)), -1, 'the key is not in the corpus file');
    const sent = fake.requests.length;
    await vscode.commands.executeCommand('reviewCorpus.judgeComments');
    assert.equal(fake.requests.length, sent, 'the second run found every answer stored');
  });
});
