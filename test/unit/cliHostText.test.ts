// Host paths and suffixes reach the terminal through diff, funnel, verify and error lines: raw ESC,
// OSC and bidi characters in them must print as visible escapes, never as themselves.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli/main';
import { runBuild } from '../../src/core/build/stages/runBuild';
import type { DatasetFunnel } from '../../src/core/build/reports/funnelReport';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { populate } from './buildScenario';

/** Clears the screen, sets the window title, hides a hyperlink, reverses the rest of the line. */
const HOSTILE = 'src/\x1b[2J\x1b]0;pwned\x07\x1b]8;;https://evil.example\x07x\x1b]8;;\x07\u202eyp.evil\x9b31m';
const SHOWN = 'src/\\x1b[2J\\x1b]0;pwned\\x07\\x1b]8;;https://evil.example\\x07x\\x1b]8;;\\x07\\u202eyp.evil\\x9b31m';
/** A file suffix as the funnel's halves report it, from a file named on the host. */
const SUFFIX = '.py\x1b]0;pwned\x07\u202e';
/** Anything a terminal would act on, or that reorders a line. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('CLI: host text printed with visible escapes', function () {
  this.timeout(60_000);
  let file: string;

  before(async () => {
    file = path.join(mkdtempSync(path.join(tmpdir(), 'rc-cli-host-')), 'corpus.sqlite');
    const { store } = await populate(file);
    await runBuild(store);
    const second = await runBuild(store);
    // As a host would have named them: a kept example of build 2 that build 1 did not have, and its suffix.
    store.run(
      "INSERT INTO decisions(build_id, unit, unit_key, org, window, stage, rule) VALUES (?, 'examples', ?, 'openstack', 'train', 'examples', 'kept')",
      [second.buildId, `openstack/1/1/2/${HOSTILE}`],
    );
    const funnel = JSON.parse(
      String(store.scalar('SELECT funnel FROM builds WHERE id = ?', [second.buildId])),
    ) as DatasetFunnel;
    const half = { examples: 1, suffixes: { [SUFFIX]: 1 }, target_in_comment: 0 };
    funnel.organizations.openstack.halves = {
      window: 'train',
      by: 'hash',
      a: half,
      b: half,
      unassigned: 0,
      suffixTvd: 0,
      definitionSha256: 'x',
      matchedSuffix: { suffix: SUFFIX, a: 1, b: 1 },
    };
    funnel.organizations.openstack.windows.train.suffixes = { [SUFFIX]: 1 };
    store.run('UPDATE builds SET funnel = ? WHERE id = ?', [JSON.stringify(funnel), second.buildId]);
    store.save();
    store.close();
  });

  it('diff shows a hostile key escaped, in text and in JSON', async () => {
    const r = await cli('diff', '--db', file, '--from', '1', '--to', '2');
    assert.equal(r.code, 0, r.err);
    assert.ok(!RAW.test(r.out.replace(/\t/g, ' ')), JSON.stringify(r.out));
    assert.ok(
      r.out
        .split('\n')
        .includes(`entered\topenstack/1/1/2/${SHOWN}\tabsent\tnew input: the earlier build had no such hunk`),
      r.out,
    );
    const j = await cli('diff', '--db', file, '--from', '1', '--to', '2', '--json');
    assert.ok(!RAW.test(j.out), JSON.stringify(j.out));
    assert.ok(
      (JSON.parse(j.out) as { entered: { key: string }[] }).entered.some((m) => m.key === `openstack/1/1/2/${HOSTILE}`),
      'the JSON still holds the key itself',
    );
  });

  it('funnel shows a hostile suffix escaped, in the table and in JSON', async () => {
    const r = await cli('funnel', '--db', file);
    assert.equal(r.code, 0, r.err);
    assert.ok(!RAW.test(r.out), JSON.stringify(r.out));
    assert.ok(r.out.includes('.py\\x1b]0;pwned\\x07\\u202e 1'), r.out);
    const j = await cli('funnel', '--db', file, '--json');
    assert.ok(!RAW.test(j.out), JSON.stringify(j.out));
    assert.equal(JSON.parse(j.out).build, 2);
  });

  it('verify shows the first difference escaped', async () => {
    const store = await CorpusStore.open(file);
    const key = String(store.scalar('SELECT min(example_key) FROM examples WHERE build_id = 2'));
    store.run('UPDATE builds SET corpus_hash = ? WHERE id = 2', ['tampered']);
    store.run('UPDATE examples SET example_key = ? WHERE build_id = 2 AND example_key = ?', [`${key}${HOSTILE}`, key]);
    store.save();
    store.close();
    const r = await cli('verify', '--db', file, '--reproduce');
    assert.equal(r.code, 1, r.err);
    assert.ok(!RAW.test(r.out), JSON.stringify(r.out));
    assert.match(r.out, /first difference: .*\\x1b\[2J.*\\u202e/);
  });

  it('an error quoting its input shows it escaped', async () => {
    // A corpus.json from a shared repository is as untrusted as a host: its field names reach the error line.
    const config = path.join(path.dirname(file), 'hostile.json');
    const { testConfig } = await import('./buildFixture');
    writeFileSync(config, JSON.stringify({ ...testConfig(), [HOSTILE]: true }));
    const r = await cli('build', '--db', file, '--config', config);
    assert.equal(r.code, 2, r.out);
    assert.ok(!RAW.test(r.err), JSON.stringify(r.err));
    assert.match(r.err, /hostile\.json: .*\\u202eyp\.evil.* is not a known field/);
  });

  it('a record with an unreadable date no longer fails the build: its change is a counted fetch_error', async () => {
    const store = await CorpusStore.open(file);
    const change = Number(
      store.scalar(
        "SELECT min(id) FROM changes WHERE collection_rule IS NULL AND fetch_error IS NULL AND status = 'MERGED' AND created >= '2024-10-01'",
      ),
    );
    assert.ok(change > 0, 'a fetched change');
    store.run('UPDATE changes SET created = ? WHERE id = ?', [HOSTILE, change]);
    store.save();
    store.close();
    const r = await cli('build', '--db', file);
    assert.equal(r.code, 0, r.err);
    const after = await CorpusStore.open(file);
    try {
      const key = String(
        after.scalar("SELECT h.org || '/' || c.number FROM changes c JOIN hosts h ON h.id = c.host_id WHERE c.id = ?", [
          change,
        ]),
      );
      assert.equal(
        after.scalar(
          "SELECT rule FROM decisions WHERE build_id = (SELECT max(id) FROM builds) AND unit = 'changes' AND unit_key = ?",
          [key],
        ),
        'fetch_error',
        key,
      );
    } finally {
      after.close();
    }
  });
});
