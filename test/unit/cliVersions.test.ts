// `review-corpus tag`, and build names wherever a build is taken (diff, funnel, export, verify), through
// the CLI as a user runs it: a bundled cli.js of this tree (support/privateCli.ts) on a corpus file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundlePrivateCli } from './support/privateCli';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { tagBuild } from '../../src/core/publish/versions/tags';
import { KEY, twoBuilds } from './versionsScenario';

describe('CLI: tags and build names', function () {
  this.timeout(120_000);
  let cli: string;
  let dir: string;
  let file: string;
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cli, ...args], {
      encoding: 'utf8',
      env: { ...process.env, REVIEW_CORPUS_NO_HUGE_PAGES: '1' },
    });
    return { code: r.status, out: r.stdout.trimEnd(), err: r.stderr.trimEnd() };
  };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-cli-versions-'));
    cli = bundlePrivateCli(path.join(dir, 'cli'));
    file = path.join(dir, 'corpus.sqlite');
    // v2 is frozen before the second build, which would otherwise prune its examples.
    const { store } = await twoBuilds(file, { tag: (s, id) => tagBuild(s, id, 'v2') });
    store.save();
    store.close();
  });

  it('tags a build, and refuses to move a tag or take a bad name, each in one line', () => {
    const r = run('tag', '--db', file, '--build', '2', '--name', 'v3');
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /^tagged build 2 as v3, its export frozen \(rules [0-9a-f]{12}, config [0-9a-f]{12}, corpus [0-9a-f]{64}\)$/,
    );
    const moved = run('tag', '--db', file, '--build', '2', '--name', 'v2');
    assert.equal(moved.code, 2);
    assert.equal(
      moved.err,
      'review-corpus: tag name "v2" already names build 1; a tag is never moved, choose another name',
    );
    const digits = run('tag', '--db', file, '--build', '2', '--name', '7');
    assert.equal(
      digits.err,
      'review-corpus: tag name "7": a name of digits only would read as a build id; add a letter (e.g. "v7")',
    );
    const unknown = run('tag', '--db', file, '--build', 'v9', '--name', 'x');
    assert.equal(
      unknown.err,
      `review-corpus: --build v9: no such build or tag in ${file} (builds: 1, 2; tags: v2, v3)`,
    );
  });

  it('diff takes names and prints each movement, why it entered, and kept − left + entered per organization and window', () => {
    const r = run('diff', '--db', file, '--from', 'v2', '--to', 'v3');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(r.out.split('\n'), [
      `left\t${KEY.twin}\tsuggested_edit`,
      `entered\t${KEY.duplicate}\texact_duplicate\tits twin ${KEY.twin}, kept before, is now removed by suggested_edit`,
      `entered\t${KEY.newInput}\tabsent\tnew input: the earlier build had no such hunk`,
      `moved\t${KEY.moved}\tpilot\ttrain`,
      'build 1 (v2) → build 2 (v3), per organization and window: kept before − left + entered = kept after',
      '  openstack pilot: 1 − 1 + 0 = 0 (1 moved out)',
      '  openstack train: 3 − 1 + 3 = 5 (1 moved in)',
      '  qt dev: 1 − 0 + 0 = 1',
      'kept(1) − left + entered = kept(2): 5 − 1 + 2 = 6',
      'kept in both with changed text: 1 (openstack train 1); --verbose lists them',
    ]);
    const verbose = run('diff', '--db', file, '--from', '1', '--to', 'v3', '--verbose');
    assert.ok(verbose.out.split('\n').includes(`changed\t${KEY.textChanged}\ttrain`), verbose.out);
    const json = JSON.parse(run('diff', '--db', file, '--from', 'v2', '--to', '2', '--json').out) as {
      cells: {
        org: string;
        window: string;
        keptFrom: number;
        left: number;
        entered: number;
        keptTo: number;
        textChanged: number;
      }[];
      entered: { key: string; reason: { kind: string; twin?: string; twinRule?: string } }[];
      textChanged: { key: string }[];
      reconciliation: string;
    };
    assert.deepEqual(
      json.cells.find((c) => c.window === 'train'),
      {
        org: 'openstack',
        window: 'train',
        keptFrom: 3,
        left: 1,
        entered: 3,
        keptTo: 5,
        movedOut: 0,
        movedIn: 1,
        textChanged: 1,
      },
    );
    assert.deepEqual(json.entered[0].reason, { kind: 'twin_removed', twin: KEY.twin, twinRule: 'suggested_edit' });
    assert.deepEqual(
      json.textChanged.map((t) => t.key),
      [KEY.textChanged],
    );
    assert.equal(json.reconciliation, '5 − 1 + 2 = 6');
    const bad = run('diff', '--db', file, '--from', 'v 2', '--to', '2');
    assert.equal(bad.err, 'review-corpus: --from "v 2": neither a build id nor a tag name');
  });

  it('funnel, export and verify take a name; a build of other rules says so and is read as recorded, never rebuilt', async () => {
    const funnel = run('funnel', '--db', file, '--build', 'v2', '--json');
    assert.equal(funnel.code, 0, funnel.err);
    assert.equal(funnel.err, '');
    assert.equal(JSON.parse(funnel.out).build, 1);

    // The rules' code changes after v2 was built.
    const store = await CorpusStore.open(file);
    // A build rebuilds with the config it recorded, so only a rules version this code does not build is stale.
    store.run("UPDATE builds SET rules_version = 'abcdef0123456789' WHERE id = ?", [1]);
    store.save();
    store.close();

    const out = path.join(dir, 'v2.jsonl');
    const exported = run('export', '--db', file, '--build', 'v2', '--out', out);
    assert.equal(exported.code, 0, exported.err);
    assert.match(
      exported.err,
      /^review-corpus: note: build 1 \(v2\) has rules version [0-9a-f]{12}, this code builds [0-9a-f]{12} from the config the build recorded \(the rules' code changed since\): exporting what the file recorded, not a rebuild$/m,
    );
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; after: string });
    assert.deepEqual(
      lines.map((l) => l.id).sort(),
      [KEY.twin, KEY.textChanged, KEY.moved, KEY.unchanged, KEY.qt].sort(),
      "v2's own kept examples",
    );
    assert.ok(
      !lines.find((l) => l.id === KEY.textChanged)!.after.includes('revised twice'),
      "with v2's text, not the later one",
    );

    const verify = run('verify', '--db', file, '--reproduce', '--build', 'v2');
    assert.equal(verify.code, 1);
    assert.match(
      verify.out,
      /^not reproducible by this code: build 1 \(v2\) has rules version [0-9a-f]{12}, this code builds [0-9a-f]{12} .*: not rebuilt; its record in the file stands as it is$/,
    );
    const noted = run('funnel', '--db', file, '--build', 'v2');
    assert.equal(noted.code, 0);
    assert.match(noted.err, /this is the funnel the file recorded, not a rebuild$/);
  });
});
