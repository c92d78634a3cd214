// A published build is a frozen artifact (issue #29), through the CLI as a user runs it, on records
// fetched over loopback HTTP from the fake Gerrit: the corpus hash covers every published byte, a tag
// freezes the build's export byte for byte, and `verify --reproduce` rebuilds a build from its own
// recorded config and names every example whose published bytes a refetch changed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ChangeSpec } from '../fake-gerrit/fixtures/dsl';
import { buildOrgFixture } from '../fake-gerrit/fixtures/buildFixture';
import { startFakeGerrit, type FakeGerrit } from '../fake-gerrit/server';
import { SAMPLE_SALT } from '../../scripts/sample-corpus';
import { PRODUCT_WINDOWS } from '../../src/core/ground/config/types';
import { bundlePrivateCli } from './support/privateCli';

const module = (name: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${name}_value_${i + 1} = compute_${name}(${i + 1})`).join('\n') + '\n';
const text = module('frozen', 12);
const answered = text.replace('frozen_value_6 = compute_frozen(6)', 'frozen_value_6 = 6');
const other = module('kept', 12);
const otherAnswered = other.replace('kept_value_4 = compute_kept(4)', 'kept_value_4 = 4');

/** Two merged changes, one inline comment each; `later` is the host a day after the merge. */
function specs(later: boolean): ChangeSpec[] {
  const base = { project: 'openstack/nova', owner: 'alice_fx', status: 'MERGED' as const, patchSets: [{}, {}] };
  return [
    {
      ...base,
      number: 970001,
      subject: 'write the value out',
      created: '2025-01-02 10:00:00',
      // Gerrit moves `updated` when a comment is deleted or added, so a later fetch reads the change again;
      // `submitted` stays at the merge.
      submitted: '2025-01-04 10:00:00',
      ...(later ? { updated: '2025-03-01 10:00:00' } : {}),
      files: { 'p.py': [null, text, answered] },
      comments: [
        {
          id: 'fz_1',
          path: 'p.py',
          ps: 1,
          line: 6,
          author: 'bruno_fx',
          // What Gerrit serves once an admin deletes a comment (DeleteCommentRewriter: "Comment removed by: <name>; Reason: <reason>").
          message: later ? 'Comment removed by: Admin; Reason: off topic' : 'Write the 6 out instead of computing it.',
        },
        // A reply posted after the merge, on the same line.
        ...(later
          ? [
              {
                id: 'fz_2',
                path: 'p.py',
                ps: 1,
                line: 6,
                author: 'bruno_fx',
                replyTo: 'fz_1',
                message: 'Thanks, looks good now.',
                updated: '2025-02-28 09:00:00',
              },
            ]
          : []),
      ],
    },
    {
      ...base,
      number: 970002,
      subject: 'inline the four',
      created: '2025-01-03 10:00:00',
      files: { 'k.py': [null, other, otherAnswered] },
      comments: [{ id: 'fz_3', path: 'k.py', ps: 1, line: 4, author: 'bruno_fx', message: 'Inline the 4 here.' }],
    },
  ];
}

/** Every file under `dir`, relative path → bytes. */
function filesUnder(dir: string, rel = ''): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const d of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, d.name);
    if (d.isDirectory()) for (const [k, v] of filesUnder(dir, r)) out.set(k, v);
    else out.set(r, readFileSync(path.join(dir, r)));
  }
  return out;
}

describe('frozen builds, through the CLI on records fetched over loopback HTTP', function () {
  this.timeout(180_000);
  let dir: string;
  let cli: string;
  let configFile: string;
  let db: string;
  let host: FakeGerrit;
  // Asynchronous: the fake host answers from this process, so a synchronous child would block it.
  const run = (...args: string[]) =>
    new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(
        process.execPath,
        [cli, ...args],
        {
          encoding: 'utf8',
          env: { ...process.env, REVIEW_CORPUS_NO_HUGE_PAGES: '1', REVIEW_CORPUS_SALT: SAMPLE_SALT },
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout.trimEnd(), err: stderr.trimEnd() }),
      );
    });
  const ok = async (...args: string[]) => {
    const r = await run(...args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    return r.out;
  };
  const writeConfig = (port: number, rules: Record<string, unknown> = {}) =>
    writeFileSync(
      configFile,
      JSON.stringify({
        name: 'frozen',
        db: 'corpus.sqlite',
        start: '2024-10-01',
        salt: { env: 'REVIEW_CORPUS_SALT' },
        windows: PRODUCT_WINDOWS.map((w) => ({ ...w })),
        hosts: [{ org: 'openstack', url: `http://127.0.0.1:${port}`, minIntervalMs: 0 }],
        rules,
      }),
    );
  const exportTo = async (name: string, build: string) => {
    const out = path.join(dir, name);
    mkdirSync(out);
    await ok('export', '--db', db, '--build', build, '--out', path.join(out, 'examples.jsonl'));
    return filesUnder(out);
  };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-frozen-'));
    cli = bundlePrivateCli(path.join(dir, 'cli'));
    configFile = path.join(dir, 'corpus.json');
    db = path.join(dir, 'corpus.sqlite');
    host = await startFakeGerrit({ org: 'openstack', fixture: buildOrgFixture('openstack', specs(false)) });
    writeConfig(Number(new URL(host.url).port));
    await ok('fetch', '--config', configFile);
    await ok('build', '--db', db);
  });

  after(async () => host?.close());

  it('tags a build with its export frozen: after a refetch deletes a comment and adds a reply, the tagged export is byte-identical and verify names the example and field', async () => {
    const tagged = await ok('tag', '--db', db, '--build', '1', '--name', 'v1');
    const hash = /corpus ([0-9a-f]{64})\)$/.exec(tagged)?.[1];
    assert.ok(hash, tagged);
    const funnel = JSON.parse(await ok('funnel', '--db', db, '--build', 'v1', '--json')) as { corpus_hash: string };
    assert.equal(funnel.corpus_hash, hash, 'funnel --json carries the full corpus hash');
    const before = await exportTo('before', 'v1');
    const readme = before.get('README.md')!.toString();
    assert.match(readme, new RegExp(hash));
    assert.match(readme, /The corpus hash covers every byte of `examples\.jsonl`/);
    assert.match(readme, /The build is tagged, so its export is frozen/);
    assert.match(readme, /\| tags \| `v1` \|/);
    assert.match(before.get('examples.jsonl')!.toString(), /Write the 6 out instead/);
    assert.equal(await ok('verify', '--db', db, '--reproduce', '--build', 'v1'), 'clean');

    // The host a day after the merge: the same port, the comment deleted by an admin, a reply added.
    const port = Number(new URL(host.url).port);
    await host.close();
    host = await startFakeGerrit({ org: 'openstack', port, fixture: buildOrgFixture('openstack', specs(true)) });
    await ok('fetch', '--config', configFile);

    const after = await exportTo('after', 'v1');
    assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort());
    for (const [name, bytes] of before) assert.ok(bytes.equals(after.get(name)!), `${name} is byte-identical`);

    const verify = await run('verify', '--db', db, '--reproduce', '--build', 'v1');
    assert.equal(verify.code, 1, verify.out);
    const lines = verify.out.split('\n');
    assert.match(lines[0], new RegExp(`^differs: build 1 has corpus ${hash}, the rebuild [0-9a-f]{64}$`));
    assert.deepEqual(lines.slice(1), [
      '1 published example(s) would differ:',
      '  openstack change 970001 p.py line 3: no longer published',
      "the export of v1 is unaffected: a tag's files are frozen (export --build v1)",
    ]);

    // A new build publishes the host as it is now, and hashes differently: the deleted comment and the
    // reply after the merge are no reviewer's comments, so the example goes.
    const rebuilt = await ok('build', '--db', db);
    assert.ok(!rebuilt.includes(hash!.slice(0, 12)), rebuilt);
    const latest = (await exportTo('latest', '2')).get('examples.jsonl')!.toString();
    assert.doesNotMatch(latest, /Comment removed|Write the 6 out|Thanks, looks good now/);
    assert.match(latest, /Inline the 4 here\./);
  });

  it('verifies a build with the config it recorded, after corpus.json has changed', async () => {
    const port = Number(new URL(host.url).port);
    // A rebuild with other rules stores the new config in the file; build 2 was built with the old one.
    writeConfig(port, { maxLinesPerSide: 3 });
    await ok('build', '--db', db, '--config', configFile);
    assert.equal(await ok('verify', '--db', db, '--reproduce', '--build', '2'), 'clean');
    assert.equal(await ok('verify', '--db', db, '--reproduce', '--build', '3'), 'clean');
  });

  it('refuses to export a tag under another examples file name, in one line naming the frozen one', async () => {
    const r = await run('export', '--db', db, '--build', 'v1', '--out', path.join(dir, 'other.jsonl'));
    assert.equal(r.code, 2);
    assert.equal(
      r.err,
      `review-corpus: --out ${path.join(dir, 'other.jsonl')}: tag v1's export is frozen with its examples as examples.jsonl (its card names that file); use --out ${path.join(dir, 'examples.jsonl')}`,
    );
  });
});
