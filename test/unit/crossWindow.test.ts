// Cross-window decontamination (decontam.crossWindow) through the CLI on a real corpus file: a corpus
// whose train example shares a 5-token comment run with a dev example (the records as the fetch stores
// them). Off by default: `init` writes the choice out, and a build with that corpus.json removes nothing
// across windows. On by choice: the train example goes under protected_overlap, its evidence quotes the
// matched text in both windows, the funnel and the build's last line warn that more than a tenth of
// train went, and the card says it was on, with its own policy. A corpus file whose stored config
// predates the setting still builds, and says it builds, as it did.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli/main';
import { CorpusFixture, testConfig } from './buildFixture';

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const DEV_COMMENT = 'Please add a unit test for the retry path here.';
const TRAIN_COMMENT = 'Could you add a unit test for the retry path, thanks';
const SHARED = 'add a unit test for the retry path';
const TRAIN_KEY = 'openstack/2002/1/7/nova/train_retry.py';
const DEV_KEY = 'openstack/3001/1/7/nova/dev_retry.py';

/** Pilot, train and dev examples of openstack; only the first train example shares phrasing with dev. */
async function fixtureCorpus(dir: string): Promise<string> {
  const file = path.join(dir, 'corpus.sqlite');
  const fx = await CorpusFixture.create(file, testConfig());
  const reviewed = (number: number, created: string, file: string, message: string) => {
    const id = fx.change({ number, created });
    fx.editedFile(id, file, { comments: [{ gerritId: `c${number}`, line: 10, author: 'p-rev', message }] });
  };
  reviewed(2002, '2025-01-10 10:00:00.000000000', 'nova/train_retry.py', TRAIN_COMMENT);
  reviewed(2003, '2025-02-10 10:00:00.000000000', 'nova/train_other.py', 'Rename this variable to something clearer.');
  reviewed(3001, '2025-09-10 10:00:00.000000000', 'nova/dev_retry.py', DEV_COMMENT);
  reviewed(1001, '2024-10-10 10:00:00.000000000', 'nova/pilot.py', 'Why is the lock held across this call?');
  fx.store.save();
  fx.store.close();
  return file;
}

interface Funnel {
  warnings?: string[];
  decontamination: {
    automatic: string[];
    crossWindow: { enabled: boolean; against: string[]; policy: Record<string, unknown>; storedBeforeSetting?: true };
  };
}

describe('decontam.crossWindow: cross-window decontamination, an explicit choice', function () {
  this.timeout(60_000);
  let dir: string;
  let db: string;
  let corpusJson: string;

  const auditOf = (exportDir: string) =>
    readFileSync(path.join(exportDir, 'curation_audit.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { key: string; rule: string; evidence: Record<string, unknown> | null });
  const funnelJson = async () => JSON.parse((await cli('funnel', '--db', db, '--json')).out) as Funnel;
  const withCrossWindow = (name: string, crossWindow: Record<string, unknown>) => {
    const config = JSON.parse(readFileSync(corpusJson, 'utf8'));
    config.decontam.crossWindow = { ...config.decontam.crossWindow, ...crossWindow };
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify(config, null, 2) + '\n');
    return file;
  };

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-cross-window-'));
    db = await fixtureCorpus(dir);
    corpusJson = path.join(dir, 'corpus.json');
    const init = await cli('init', '--host', 'review.opendev.org', '--out', corpusJson);
    assert.equal(init.code, 0, init.err);
  });

  it('is off by default: init writes the choice out, and a build removes nothing across windows', async () => {
    const written = JSON.parse(readFileSync(corpusJson, 'utf8'));
    assert.deepEqual(written.decontam, {
      crossWindow: {
        enabled: false,
        wholeSide: true,
        sideSubstring: true,
        wholeComment: true,
        commentTokens: 5,
        fileSha256: false,
        ngramTokens: 0,
        tokenJaccard: 0,
      },
    });
    const r = await cli('build', '--db', db, '--config', corpusJson);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out.split('\n').at(-1)!, /^build \d+: 4 examples kept, corpus \w+, rules \w+$/, 'no warning');

    const f = await funnelJson();
    assert.equal(f.decontamination.crossWindow.enabled, false);
    assert.deepEqual(f.decontamination.automatic, []);
    assert.equal(f.warnings, undefined);
    const table = (await cli('funnel', '--db', db)).out;
    assert.match(table, /\ncross-window decontamination: off \(decontam\.crossWindow\.enabled is false\)\n/);
    const out = path.join(dir, 'off', 'examples.jsonl');
    mkdirSync(path.dirname(out), { recursive: true });
    assert.equal((await cli('export', '--db', db, '--out', out)).code, 0);
    assert.deepEqual(
      auditOf(path.dirname(out)).filter((l) => l.rule === 'protected_overlap'),
      [],
      'no example removed across windows',
    );
    assert.match(
      readFileSync(path.join(dir, 'off', 'README.md'), 'utf8'),
      /Cross-window decontamination: off \(`decontam\.crossWindow\.enabled` is false, the default\)/,
    );
  });

  it('on by choice: removes the overlapping train example, quotes both windows, and warns over a tenth of train', async () => {
    const r = await cli('build', '--db', db, '--config', withCrossWindow('on.json', { enabled: true }));
    assert.equal(r.code, 0, r.err);
    const warning =
      'cross-window decontamination removed 1 of 2 examples (50.0%) of openstack train, more than a tenth: check decontam.crossWindow in corpus.json';
    assert.equal(
      r.out
        .split('\n')
        .at(-1)!
        .replace(/corpus \w+, rules \w+/, 'corpus …, rules …'),
      `build 1: 3 examples kept, corpus …, rules …; warning: ${warning}`,
    );

    const f = await funnelJson();
    assert.deepEqual(f.warnings, [warning]);
    assert.equal(f.decontamination.crossWindow.enabled, true);
    assert.deepEqual(f.decontamination.crossWindow.against, ['pilot', 'dev', 'test']);
    const table = (await cli('funnel', '--db', db)).out.split('\n');
    assert.equal(table[1], `warning: ${warning}`);
    assert.match(
      table[2],
      /^cross-window decontamination: on \(train checked against pilot, dev, test; policy wholeSide true, .*commentTokens 5/,
    );

    const out = path.join(dir, 'on', 'examples.jsonl');

    mkdirSync(path.dirname(out), { recursive: true });
    assert.equal((await cli('export', '--db', db, '--out', out)).code, 0);
    const removed = auditOf(path.dirname(out)).filter((l) => l.rule === 'protected_overlap');
    assert.deepEqual(
      removed.map((l) => l.key),
      [TRAIN_KEY],
    );
    const e = removed[0].evidence!;
    assert.equal(e.reference_set, 'window:dev');
    assert.equal(e.reference_id, DEV_KEY);
    assert.equal(e.policy, 'comment_substring');
    assert.equal(e.matched_text, SHARED, 'the matched text in the train example');
    assert.equal(e.reference_text, SHARED, "the matched text in the dev example's comment");
    assert.equal(TRAIN_COMMENT.slice(Number(e.span_start), Number(e.span_end)), SHARED);

    const card = readFileSync(path.join(dir, 'on', 'README.md'), 'utf8');
    assert.match(
      card,
      /Cross-window decontamination: on \(`decontam\.crossWindow\.enabled`\)\. Train examples were checked against `pilot`, `dev`, `test`, under its own policy:/,
    );
    assert.match(card, /- `openstack`: 1 of 2 examples \(50\.0%\)\./);
    assert.match(card, /> \*\*Warning:\*\* cross\\-window decontamination removed 1 of 2 examples/);
  });

  it("matches under its own policy, not the registered sets' (rules.protected…)", async () => {
    const strict = withCrossWindow('strict.json', { enabled: true, commentTokens: 9 });
    const r = await cli('build', '--db', db, '--config', strict);
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out.split('\n').at(-1)!,
      /^build \d+: 4 examples kept, corpus \w+, rules \w+$/,
      '8 shared tokens < 9',
    );
    const f = await funnelJson();
    assert.equal(f.decontamination.crossWindow.policy.commentTokens, 9);
  });

  it('builds a corpus file whose stored config predates the setting as it was built then, and says so', async () => {
    // The fixture stores its config as a fetch before decontam.crossWindow did: without the key.
    const r = await cli('build', '--db', db);
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out.split('\n').at(-1)!,
      /^build 1: 3 examples kept, .*; warning: cross-window decontamination removed 1 of 2/,
    );
    const f = await funnelJson();
    assert.equal(f.decontamination.crossWindow.storedBeforeSetting, true);
    assert.match(
      (await cli('funnel', '--db', db)).out,
      /\ncross-window decontamination: on \(train checked against pilot, dev, test; policy .*; the stored config predates decontam\.crossWindow, which was on then\)\n/,
    );
  });
});
