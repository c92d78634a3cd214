// The extension's job process runs export and verify through runJob, the same job functions the CLI's
// export and verify call (cliVersions.test.ts checks the CLI's side): here the extension's side, on a
// real sql.js file on disk and a corpus.json read from disk, as the job process reads them.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { runJob } from '../../src/core/jobs/jobs';
import { twoBuilds } from './versionsScenario';

describe("jobs: the extension's export and verify", function () {
  this.timeout(60_000);
  let dir: string;
  let configFile: string;
  const noProgress = () => undefined;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-jobs-'));
    const file = path.join(dir, 'corpus.sqlite');
    const { store } = await twoBuilds(file);
    store.save();
    store.close();
    const reopened = await CorpusStore.open(file);
    const config = JSON.parse(reopened.getMeta('config')!);
    reopened.close();
    configFile = path.join(dir, 'corpus.json');
    writeFileSync(configFile, JSON.stringify({ ...config, db: 'corpus.sqlite' }, null, 2));
  });

  it('verify reports the latest build clean, as the CLI does', async () => {
    const r = await runJob({ kind: 'verify', configFile }, new AbortController().signal, noProgress);
    assert.equal(r.ok, true, r.summary);
    assert.match(r.summary, /^Reproducible: build 2 is clean \(corpus [0-9a-f]{12}\)$/);
  });

  it("export of a build whose rules changed since says so in its summary, as the CLI's note does", async () => {
    // The rules' code changes after the build.
    const file = path.join(dir, 'corpus.sqlite');
    const store = await CorpusStore.open(file);
    // A build rebuilds with the config it recorded, so only a rules version this code does not build is stale.
    store.run("UPDATE builds SET rules_version = 'abcdef0123456789' WHERE id = ?", [2]);
    store.save();
    store.close();
    const out = path.join(dir, 'examples.jsonl');
    const r = await runJob({ kind: 'export', configFile, out }, new AbortController().signal, noProgress);
    assert.match(r.summary, /^Exported 6 examples to .*examples\.jsonl, with dataset-funnel\.json, /);
    assert.match(
      r.summary,
      /\. Note: build 2 has rules version [0-9a-f]{12}, this code builds [0-9a-f]{12} from the config the build recorded \(the rules' code changed since\): exporting what the file recorded, not a rebuild$/,
    );
    assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, 6);
  });
});
