// Following the host over time (docs/crawling.md, "Following the host"), through the CLI on records
// fetched over loopback HTTP from the fake Gerrit: a later fetch records what changed as new versions,
// never in place of the old; a comment deleted by an administrator, a reply after the merge and changes
// gone from the host are each counted under their own reason in the next build and named by `diff`;
// the re-list that finds the gone changes costs one request per page plus one per missing change; the
// deletion notice (an administrator's name) never reaches the corpus file; a tagged build stays as it was.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ChangeSpec } from '../fake-gerrit/fixtures/dsl';
import { buildOrgFixture } from '../fake-gerrit/fixtures/buildFixture';
import { startFakeGerrit, type FakeGerrit, type Fault } from '../fake-gerrit/server';
import { SAMPLE_SALT } from '../../scripts/sample-corpus';
import { PRODUCT_WINDOWS } from '../../src/core/ground/config/types';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { bundlePrivateCli } from './support/privateCli';

const module = (name: string) =>
  Array.from({ length: 10 }, (_, i) => `${name}_${i + 1} = compute_${name}(${i + 1})`).join('\n') + '\n';

/** Deleted by an administrator, as Gerrit words it (DeleteComment.getCommentNewMessage). */
const NOTICE = 'Comment removed by: Ada Adminsson; Reason: personal data';

/**
 * One merged change per case, two patch sets, one inline comment answered by the second. `later`: the
 * host weeks after the merge, when 980001's comment was deleted, 980002 had a reply after its merge,
 * 980003 was deleted and 980004 made private (both gone from the listing and 404 to their own requests),
 * and 980006 had a reply before it went private while the fetch ran (fault in the test).
 */
function specs(later: boolean): ChangeSpec[] {
  const one = (n: number, name: string, message: string, extra: Partial<ChangeSpec> = {}): ChangeSpec => {
    const text = module(name);
    return {
      number: n,
      project: 'openstack/nova',
      owner: 'alice_fx',
      status: 'MERGED',
      subject: `inline ${name}`,
      created: `2025-01-0${n % 10} 10:00:00`,
      submitted: `2025-01-0${(n % 10) + 1} 10:00:00`,
      patchSets: [{}, {}],
      files: { [`${name}.py`]: [null, text, text.replace(`${name}_4 = compute_${name}(4)`, `${name}_4 = 4`)] },
      comments: [{ id: `c${n}`, path: `${name}.py`, ps: 1, line: 4, author: 'bruno_fx', message }],
      ...extra,
    };
  };
  const moved = later ? { updated: '2025-03-01 10:00:00' } : {};
  const reply = (n: number, name: string) => ({
    id: `r${n}`,
    path: `${name}.py`,
    ps: 1,
    line: 4,
    author: 'bruno_fx',
    replyTo: `c${n}`,
    message: 'Thanks, looks good now.',
    updated: '2025-02-28 09:00:00',
  });
  const all = [
    one(980001, 'alpha', later ? NOTICE : 'Inline the 4 here, please.', moved),
    one(980002, 'beta', 'Inline the 4 in beta.', moved),
    one(980003, 'gamma', 'Inline the 4 in gamma.'),
    one(980004, 'delta', 'Inline the 4 in delta.'),
    one(980005, 'epsilon', 'Inline the 4 in epsilon.'),
    one(980006, 'zeta', 'Inline the 4 in zeta.', moved),
  ];
  if (later) {
    all[1].comments.push(reply(980002, 'beta'));
    all[5].comments.push(reply(980006, 'zeta'));
  }
  return later ? all.filter((c) => c.number !== 980003 && c.number !== 980004) : all;
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

describe('following the host over time, through the CLI over loopback HTTP', function () {
  this.timeout(180_000);
  let dir: string;
  let cli: string;
  let configFile: string;
  let db: string;
  let host: FakeGerrit;
  let port: number;
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
  const restartHost = async (later: boolean, faults: Fault[] = []) => {
    await host.close();
    host = await startFakeGerrit({
      org: 'openstack',
      port,
      fixture: buildOrgFixture('openstack', specs(later)),
      faults,
    });
  };
  const query = <T>(sql: string) =>
    CorpusStore.open(db).then((s) => {
      try {
        return s.all<T>(sql);
      } finally {
        s.close();
      }
    });
  const exportTo = async (name: string, build: string) => {
    const out = path.join(dir, name);
    mkdirSync(out);
    await ok('export', '--db', db, '--build', build, '--out', path.join(out, 'examples.jsonl'));
    return filesUnder(out);
  };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-follow-'));
    cli = bundlePrivateCli(path.join(dir, 'cli'));
    configFile = path.join(dir, 'corpus.json');
    db = path.join(dir, 'corpus.sqlite');
    host = await startFakeGerrit({ org: 'openstack', fixture: buildOrgFixture('openstack', specs(false)) });
    port = Number(new URL(host.url).port);
    writeFileSync(
      configFile,
      JSON.stringify({
        name: 'follow',
        db: 'corpus.sqlite',
        start: '2024-10-01',
        salt: { env: 'REVIEW_CORPUS_SALT' },
        windows: PRODUCT_WINDOWS.map((w) => ({ ...w })),
        // Pages of two, so the re-list has pages to count.
        hosts: [{ org: 'openstack', url: host.url, minIntervalMs: 0, pageSize: 2 }],
      }),
    );
    await ok('fetch', '--config', configFile);
    await ok('build', '--db', db);
    await ok('tag', '--db', db, '--build', '1', '--name', 'v1');
  });

  after(async () => host?.close());

  it('records the host weeks later as new versions, confirms each missing change with one request, and keeps the notice out of the file', async () => {
    const before = await exportTo('before', 'v1');
    assert.match(before.get('examples.jsonl')!.toString(), /Inline the 4 here, please\./);
    // 980006 is listed as updated, then answers 404 when its comments are asked: made private meanwhile.
    await restartHost(true, [{ route: /^\/changes\/980006\/comments/, kind: '404' }]);
    await ok('fetch', '--config', configFile);

    const paths = host.requests.map((r) => r.path);
    const relist = paths.filter((p) => p.startsWith('/changes/?') && !p.includes('&o='));
    const confirm = paths.filter((p) => /^\/changes\/\d+$/.test(p));
    // Four changes left on the host: two pages of two; 980003 and 980004 are missing, one request each.
    assert.deepEqual(
      relist.map((p) => new URLSearchParams(p.split('?')[1]).get('S')),
      ['0', '2'],
    );
    assert.deepEqual(confirm, ['/changes/980003', '/changes/980004']);
    assert.deepEqual(
      host.requests.filter((r) => confirm.includes(r.path)).map((r) => r.status),
      [404, 404],
    );

    const changes = await query<{
      number: number;
      gone_from_host: string | null;
      gone_reason: string | null;
      comments: number;
    }>(
      'SELECT number, gone_from_host, gone_reason, (SELECT count(*) FROM comments m WHERE m.change_id = c.id) AS comments FROM changes c ORDER BY number',
    );
    assert.deepEqual(
      changes.map((c) => [c.number, c.gone_from_host !== null, c.gone_reason, c.comments]),
      [
        [980001, false, null, 1],
        [980002, false, null, 2],
        [980003, true, 'HTTP 404', 1],
        [980004, true, 'HTTP 404', 1],
        [980005, false, null, 1],
        [980006, true, 'HTTP 404', 1],
      ],
      'gone changes keep their earlier records',
    );
    const deleted = await query<{ message: string; deleted_on_host: string | null; was: string; version: number }>(
      "SELECT c.message, c.deleted_on_host, v.message AS was, v.version FROM comments c JOIN comment_versions v ON v.comment_id = c.id WHERE c.gerrit_id = 'c980001'",
    );
    assert.equal(deleted.length, 1);
    assert.equal(deleted[0].message, '', 'the notice is not stored as its text');
    assert.ok(deleted[0].deleted_on_host);
    assert.deepEqual([deleted[0].was, deleted[0].version], ['Inline the 4 here, please.', 1]);
    assert.deepEqual(
      (await query<{ n: number }>('SELECT count(*) AS n FROM comment_versions'))[0].n,
      1,
      'a comment the host still serves as it was is not versioned again',
    );
    const events = await query<{ change_number: number; gerrit_id: string | null; event: string }>(
      'SELECT change_number, gerrit_id, event FROM host_events ORDER BY change_number, event',
    );
    assert.deepEqual(
      events.map((e) => `${e.change_number} ${e.gerrit_id ?? '-'} ${e.event}`),
      [
        '980001 c980001 comment_deleted',
        '980002 r980002 comment_added',
        '980003 - change_gone',
        '980004 - change_gone',
        '980006 - change_gone',
      ],
    );

    const file = readFileSync(db);
    assert.notEqual(file.indexOf(Buffer.from('Inline the 4 in beta.')), -1, 'comment texts are plain in the file');
    for (const [name, bytes] of filesUnder(dir)) {
      if (!name.startsWith('corpus.sqlite')) continue;
      for (const needle of ['Ada Adminsson', 'Comment removed by', 'personal data']) {
        assert.equal(bytes.indexOf(Buffer.from(needle)), -1, `${name} holds ${JSON.stringify(needle)}`);
      }
    }
  });

  it('counts each under its own reason in the next build, diff names them, and the tag stays byte-identical', async () => {
    await ok('build', '--db', db);
    const rules = await query<{ unit: string; rule: string; n: number }>(
      "SELECT unit, rule, count(*) AS n FROM decisions WHERE build_id = 2 AND rule IN ('gone_from_host', 'deleted_on_host', 'post_merge_comment', 'nothing_left', 'kept') GROUP BY unit, rule ORDER BY unit, rule",
    );
    assert.deepEqual(
      rules.map((r) => `${r.unit} ${r.rule} ${r.n}`),
      [
        'changes gone_from_host 3',
        'changes kept 3',
        'comments deleted_on_host 1',
        'comments kept 2',
        'comments post_merge_comment 1',
        'examples kept 2',
        'examples nothing_left 1',
      ],
    );
    const funnel = await ok('funnel', '--db', db, '--json');
    for (const rule of ['gone_from_host', 'deleted_on_host', 'post_merge_comment'])
      assert.match(funnel, new RegExp(`"${rule}"`));

    const diff = (await ok('diff', '--db', db, '--from', 'v1', '--to', '2')).split('\n');
    assert.deepEqual(
      diff.filter((l) => l.startsWith('left')),
      [
        'left\topenstack/980001/1/1/alpha.py\tnothing_left\tcomments: deleted_on_host 1',
        'left\topenstack/980003/1/1/gamma.py\tgone_from_host\tits change was removed at collection',
        'left\topenstack/980004/1/1/delta.py\tgone_from_host\tits change was removed at collection',
        'left\topenstack/980006/1/1/zeta.py\tgone_from_host\tits change was removed at collection',
      ],
    );
    assert.ok(diff.includes('kept(1) − left + entered = kept(2): 6 − 4 + 0 = 2'), diff.join('\n'));

    const latest = (await exportTo('latest', '2')).get('examples.jsonl')!.toString();
    assert.doesNotMatch(latest, /Thanks, looks good now|Comment removed|Inline the 4 here/);
    const frozen = await exportTo('frozen', 'v1');
    const first = filesUnder(path.join(dir, 'before'));
    assert.deepEqual([...frozen.keys()].sort(), [...first.keys()].sort());
    for (const [name, bytes] of first) assert.ok(bytes.equals(frozen.get(name)!), `${name} is byte-identical`);
  });

  it('a change the host serves again is back: its gone mark cleared, the events kept', async () => {
    const back = specs(true).concat(specs(false).filter((c) => c.number === 980004));
    await host.close();
    host = await startFakeGerrit({ org: 'openstack', port, fixture: buildOrgFixture('openstack', back) });
    await ok('fetch', '--config', configFile);
    const confirm = host.requests.map((r) => r.path).filter((p) => /^\/changes\/\d+$/.test(p));
    assert.deepEqual(confirm, [], 'changes already gone are not asked again');
    const rows = await query<{ number: number; gone: number }>(
      'SELECT number, gone_from_host IS NOT NULL AS gone FROM changes WHERE number IN (980003, 980004) ORDER BY number',
    );
    assert.deepEqual(
      rows.map((r) => [r.number, r.gone]),
      [
        [980003, 1],
        [980004, 0],
      ],
    );
    const events = await query<{ event: string }>(
      'SELECT event FROM host_events WHERE change_number = 980004 ORDER BY id',
    );
    assert.deepEqual(
      events.map((e) => e.event),
      ['change_gone', 'change_back'],
    );
  });
});
