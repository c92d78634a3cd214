// The fake Gerrit over real loopback HTTP, and its fabricated fixtures.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { DiffChunk, DiffInfo } from '../fake-gerrit/diffInfo';
import { FIXTURE_ACCOUNTS } from '../fake-gerrit/fixtureAccounts';
import { loadOrgFixture } from '../fake-gerrit/fixtureStore';
import { type ChangeJson, fileVersionToText, type FixtureChange, type RevisionKind } from '../fake-gerrit/fixtureTypes';
import { EXPECTATIONS, RULES_BY_UNIT } from '../fake-gerrit/fixtures/expectations';
import {
  buildAllFixtures,
  COVERAGE_END,
  COVERAGE_START,
  renderCoverageSection,
  renderFixtureFiles,
} from '../fake-gerrit/fixtures/generate';
import { referenceFunnel, type ReferenceResult } from '../fake-gerrit/fixtures/referenceFunnel';
import { jaccard, normalisedText, shingles } from '../fake-gerrit/fixtures/referenceHunks';
import { referenceOptions, WINDOWS } from '../fake-gerrit/fixtures/scenarioOptions';
import { main } from '../fake-gerrit/main';
import { scenarioFaults, scenarioRobotsTxt } from '../fake-gerrit/scenario';
import { type FakeGerrit, SAMPLE_ORGS, startFakeGerrit, startSampleHosts } from '../fake-gerrit/server';

const XSSI = ")]}'\n";

async function getJson(host: FakeGerrit, pathAndQuery: string): Promise<unknown> {
  const res = await fetch(host.url + pathAndQuery);
  const text = await res.text();
  assert.equal(res.status, 200, `${pathAndQuery}: ${text}`);
  assert.ok(text.startsWith(XSSI), `${pathAndQuery} lacks the XSSI prefix`);
  return JSON.parse(text.slice(XSSI.length));
}

type Listed = ChangeJson & { _more_changes?: boolean };
const fixture = (org: string) => loadOrgFixture(org);
const byNumber = (org: string, n: number) => fixture(org).changes.find((c) => c.change._number === n) as FixtureChange;
const diffPath = (n: number | string, ps: number, file: string, base: number) =>
  `/changes/${n}/revisions/${ps}/files/${encodeURIComponent(file)}/diff?base=${base}&context=ALL`;

/** Rebuilds both sides of a file from DiffInfo content: Gerrit's lines joined with "\n" are the file. */
function sidesOf(diff: DiffInfo): { a: string; b: string } {
  const a: string[] = [];
  const b: string[] = [];
  for (const chunk of diff.content as DiffChunk[]) {
    if (chunk.ab) {
      a.push(...chunk.ab);
      b.push(...chunk.ab);
    } else if (chunk.skip !== undefined) throw new Error('skip chunk with context=ALL');
    else {
      a.push(...(chunk.a ?? []));
      b.push(...(chunk.b ?? []));
    }
  }
  assert.equal(diff.meta_a?.lines ?? 0, a.length, "meta_a.lines counts the side's lines");
  assert.equal(diff.meta_b?.lines ?? 0, b.length, "meta_b.lines counts the side's lines");
  return { a: a.join('\n'), b: b.join('\n') };
}

describe('fake Gerrit server', () => {
  let host: FakeGerrit;
  beforeEach(async () => {
    host = await startFakeGerrit({ org: 'openstack' });
  });
  afterEach(async () => {
    await host.close();
  });

  it('lists merged changes with the XSSI prefix, JSON content type and Gerrit options', async () => {
    const res = await fetch(`${host.url}/changes/?q=status:merged&o=ALL_REVISIONS&o=DETAILED_ACCOUNTS&n=1`);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    const body = await res.text();
    assert.ok(body.startsWith(XSSI));
    const [first] = JSON.parse(body.slice(XSSI.length)) as Listed[];
    assert.match(first.id, /^openstack%2F[a-z-]+~[^~]+~I[0-9a-f]{40}$/);
    assert.ok(first.owner.email && first.owner.username && first.owner.name);
    assert.ok(Object.keys(first.revisions).length >= 1 && first.revisions[first.current_revision]);
    const bare = (await getJson(host, '/changes/?q=status:merged&n=1')) as Record<string, unknown>[];
    assert.equal(bare[0].revisions, undefined, 'no revisions without ALL_REVISIONS');
    assert.deepEqual(
      Object.keys(bare[0].owner as object),
      ['_account_id'],
      'accounts are bare without DETAILED_ACCOUNTS',
    );
  });

  it('pages with n and S, most recently updated first, marking _more_changes on the last item of a partial page', async () => {
    const expected = fixture('openstack')
      .changes.map((c) => c.change)
      .filter((c) => c.status === 'MERGED' && c.updated >= '2024-10-01')
      .sort((x, y) => (x.updated < y.updated ? 1 : x.updated > y.updated ? -1 : y._number - x._number))
      .map((c) => c._number);
    const seen: number[] = [];
    for (let start = 0; ; start += 5) {
      const page = (await getJson(
        host,
        `/changes/?q=status:merged+after:2024-10-01&o=ALL_REVISIONS&o=DETAILED_ACCOUNTS&n=5&S=${start}`,
      )) as Listed[];
      seen.push(...page.map((c) => c._number));
      assert.ok(
        page.slice(0, -1).every((c) => c._more_changes === undefined),
        'only the last item carries _more_changes',
      );
      if (!page[page.length - 1]?._more_changes) break;
      assert.equal(page.length, 5);
    }
    assert.deepEqual(seen, expected);
  });

  it('filters after: on the updated time, not the created time', async () => {
    const numbers = ((await getJson(host, '/changes/?q=status:merged%20after:2024-10-01')) as Listed[]).map(
      (c) => c._number,
    );
    assert.ok(numbers.includes(930003), 'created 2024-09-24 but updated 2024-10-04: listed');
    assert.ok(!numbers.includes(930022) && !numbers.includes(930023), 'NEW and ABANDONED are not merged');
    const late = (await getJson(host, '/changes/?q=status:merged+after:2025-10-15+unknownterm:x')) as Listed[];
    assert.ok(late.length > 0 && late.every((c) => c.updated >= '2025-10-15'));
    assert.ok(
      late.some((c) => c.created < '2025-10-15'),
      'a change created before the bound but updated after it',
    );
  });

  it('serves robots.txt: Crawl-delay 0 by default, or the text it was given', async () => {
    assert.equal(await (await fetch(`${host.url}/robots.txt`)).text(), 'User-agent: *\nCrawl-delay: 0\n');
    const other = await startFakeGerrit({
      org: 'qt',
      robotsTxt: 'User-agent: *\nCrawl-delay: 1\nDisallow: /changes/600109/\n',
    });
    try {
      assert.equal(
        await (await fetch(`${other.url}/robots.txt`)).text(),
        'User-agent: *\nCrawl-delay: 1\nDisallow: /changes/600109/\n',
      );
    } finally {
      await other.close();
    }
  });

  it('serves comments by change number and by URL-encoded triplet id, without `path` inside', async () => {
    const change = byNumber('openstack', 930014).change;
    const byNum = (await getJson(host, '/changes/930014/comments')) as Record<string, Record<string, unknown>[]>;
    const byTriplet = await getJson(host, `/changes/${change.id}/comments`);
    assert.deepEqual(byTriplet, byNum);
    const comments = byNum['nova/scheduler/filters/numa_fit.py'];
    assert.ok(comments.every((c) => c.path === undefined && typeof c.id === 'string' && typeof c.message === 'string'));
    assert.equal(comments.find((c) => c.id === 'os930014_c04')?.side, 'PARENT');
    assert.equal(comments.find((c) => c.id === 'os930014_c01')?.side, undefined, 'side is omitted for REVISION');
  });

  it('serves diffs that rebuild both patch sets byte for byte, CRLF and missing final newline included', async () => {
    const cases: [string, number, string, number][] = [
      ['openstack', 930017, 'tools/win/setup_env.bat', 1],
      ['wikimedia', 1090004, 'i18n/fx/de.json', 1],
      ['wikimedia', 1090010, 'docs/Übersicht der Hooks.md', 1],
    ];
    for (const [org, n, file, base] of cases) {
      const h = org === 'openstack' ? host : await startFakeGerrit({ org });
      try {
        const fc = byNumber(org, n);
        for (const id of [String(n), fc.change.id]) {
          const diff = (await getJson(h, diffPath(id, base + 1, file, base))) as DiffInfo;
          assert.equal(diff.change_type, 'MODIFIED');
          assert.deepEqual(sidesOf(diff), {
            a: fileVersionToText(fc.files[file][base]!),
            b: fileVersionToText(fc.files[file][base + 1]!),
          });
        }
      } finally {
        if (h !== host) await h.close();
      }
    }
    const crlf = (await getJson(host, diffPath(930017, 2, 'tools/win/setup_env.bat', 1))) as DiffInfo;
    const sides = sidesOf(crlf);
    assert.ok(sides.a.endsWith('\r\n') && !/[^\r]\n/.test(sides.a + sides.b), 'CRLF lines keep their \\r');
    assert.equal(
      crlf.content[crlf.content.length - 1].ab?.at(-1),
      '',
      'a file ending in a newline ends with the line "", as Gerrit sends it',
    );
    // Gerrit sends the whole file whatever `context` says, and refuses a negative one.
    const numaFit = `/changes/930014/revisions/2/files/${encodeURIComponent('nova/scheduler/filters/numa_fit.py')}/diff?base=1`;
    assert.deepEqual(await getJson(host, numaFit), await getJson(host, `${numaFit}&context=ALL`));
    assert.equal((await fetch(`${host.url}${numaFit}&context=-1`)).status, 400);
  });

  it('serves a file at a revision as Gerrit does: base64 as plain text, or one JSON string for Accept: application/json', async () => {
    const fc = byNumber('openstack', 930017);
    const file = 'tools/win/setup_env.bat';
    const sha = Object.entries(fc.change.revisions).find(([, r]) => r._number === 2)![0];
    const want = fileVersionToText(fc.files[file][2]!);
    for (const rev of ['2', sha, sha.slice(0, 7)]) {
      const res = await fetch(`${host.url}/changes/930017/revisions/${rev}/files/${encodeURIComponent(file)}/content`);
      assert.equal(res.status, 200, rev);
      assert.equal(res.headers.get('content-type'), 'text/plain; charset=ISO-8859-1');
      assert.equal(res.headers.get('x-fyi-content-encoding'), 'base64');
      assert.equal(res.headers.get('x-fyi-content-type'), 'text/plain', "no .bat in Gerrit's MIME table");
      const body = await res.text();
      assert.match(body, /^[A-Za-z0-9+/]+=*$/, 'one base64 line, nothing around it');
      assert.equal(Buffer.from(body, 'base64').toString('utf8'), want, 'CRLF and all');
    }
    const py = `/changes/930014/revisions/2/files/${encodeURIComponent('nova/scheduler/filters/numa_fit.py')}/content`;
    const json = await fetch(host.url + py, { headers: { Accept: 'application/json' } });
    assert.equal(json.headers.get('x-fyi-content-encoding'), 'json');
    assert.equal(json.headers.get('x-fyi-content-type'), 'text/x-python');
    const text = await json.text();
    assert.ok(text.startsWith(XSSI));
    assert.equal(
      JSON.parse(text.slice(XSSI.length)),
      fileVersionToText(byNumber('openstack', 930014).files['nova/scheduler/filters/numa_fit.py'][2]!),
    );
    const head = await fetch(host.url + py, { method: 'HEAD' });
    assert.equal(head.headers.get('x-fyi-content-type'), 'text/x-python', 'HEAD: the type without the bytes');
    assert.equal(await head.text(), '');
  });

  it('answers unknown routes, changes and files with a plain-text 404', async () => {
    for (const p of [
      '/nope',
      '/changes/1/comments',
      '/changes/930014/revisions/2/files/nope.py/diff?base=1',
      '/changes/930014/revisions/9/files/x/diff',
      '/changes/930014/revisions/2/files/nope.py/content',
      '/changes/930014/revisions/9/files/x/content',
    ]) {
      const res = await fetch(host.url + p);
      assert.equal(res.status, 404, p);
      assert.match(await res.text(), /^Not found/);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    }
  });

  it('injects each fault kind, consumes it, then behaves normally', async () => {
    const route = /^\/changes\/930001\/comments/;
    host.addFault({ route, kind: '429', retryAfterSeconds: 7 });
    host.addFault({ route, kind: '503' });
    host.addFault({ route, kind: '503', retryAfterSeconds: 2 });
    host.addFault({ route, kind: '500', times: 2 });
    host.addFault({ route, kind: 'reset' });
    host.addFault({ route, kind: 'truncated' });
    host.addFault({ route, kind: 'slow', delayMs: 30 });
    const url = `${host.url}/changes/930001/comments`;
    const r429 = await fetch(url);
    assert.equal(r429.status, 429);
    assert.equal(r429.headers.get('retry-after'), '7');
    const r503 = await fetch(url);
    assert.equal(r503.status, 503);
    assert.equal(r503.headers.get('retry-after'), null);
    assert.equal((await fetch(url)).headers.get('retry-after'), '2');
    assert.equal((await fetch(url)).status, 500);
    assert.equal((await fetch(url)).status, 500);
    await assert.rejects(fetch(url).then((r) => r.text()));
    const truncated = await fetch(url);
    assert.equal(truncated.status, 200);
    const half = await truncated.text();
    assert.throws(() => JSON.parse(half.slice(XSSI.length)));
    assert.ok(await getJson(host, '/changes/930001/comments'), 'slow, but whole');
    assert.deepEqual(host.pendingFaults(), []);
    assert.ok(await getJson(host, '/changes/930001/comments'), 'normal again');
    assert.ok(await getJson(host, '/changes/930002/comments'), 'other routes were never affected');
    assert.deepEqual(
      host.requests.filter((r) => r.path === '/changes/930001/comments').map((r) => r.status),
      [429, 503, 503, 500, 500, 0, 200, 200, 200],
    );
  });
});

describe('fake Gerrit sample hosts', () => {
  it('starts one host per sample org on its own port, each with its own robots.txt', async () => {
    const { hosts, close } = await startSampleHosts({ robotsTxt: { qt: 'User-agent: *\nCrawl-delay: 1\n' } });
    try {
      assert.deepEqual(
        hosts.map((h) => h.org),
        SAMPLE_ORGS,
      );
      assert.equal(new Set(hosts.map((h) => h.url)).size, hosts.length);
      const robots = await Promise.all(hosts.map(async (h) => (await fetch(`${h.url}/robots.txt`)).text()));
      assert.deepEqual(robots, [
        'User-agent: *\nCrawl-delay: 0\n',
        'User-agent: *\nCrawl-delay: 1\n',
        'User-agent: *\nCrawl-delay: 0\n',
      ]);
    } finally {
      await close();
    }
  });

  it('applies the documented scenario: robots disallow both URL forms, the named routes keep failing', async () => {
    const { hosts, close } = await startSampleHosts({ robotsTxt: scenarioRobotsTxt(), faults: scenarioFaults(3) });
    try {
      const [os, qt] = hosts;
      const robots = await (await fetch(`${os.url}/robots.txt`)).text();
      assert.ok(
        robots.includes('Disallow: /changes/930012/') &&
          robots.includes(`Disallow: /changes/${byNumber('openstack', 930012).change.id}/`),
      );
      const qtId = byNumber('qt', 600109).change.id;
      const statuses = [];
      for (const id of ['600109', qtId, '600109'])
        statuses.push((await fetch(`${qt.url}/changes/${id}/comments`)).status);
      assert.deepEqual(statuses, [500, 500, 500]);
      assert.equal((await fetch(`${qt.url}/changes/600109/comments`)).status, 200, 'used up after `times`');
      assert.equal((await fetch(`${qt.url}/changes/600108/comments`)).status, 200);
      const diff = diffPath(byNumber('openstack', 930024).change.id, 2, 'nova/scheduler/weights/ram_weigher.py', 1);
      assert.equal((await fetch(os.url + diff)).status, 500);
      const parentDiff = `/changes/930024/revisions/1/files/${encodeURIComponent('nova/scheduler/weights/ram_weigher.py')}/diff`;
      assert.equal(((await getJson(os, parentDiff)) as DiffInfo).change_type, 'ADDED', 'other diffs are not faulted');
    } finally {
      await close();
    }
  });

  it('main() prints `org url` lines and closes the hosts when told to stop', async () => {
    const out = new PassThrough();
    let stop!: () => void;
    const done = main({ out, until: new Promise<void>((r) => (stop = r)) });
    const lines = await new Promise<string[]>((resolve) => {
      let text = '';
      out.on('data', (d: Buffer) => {
        text += d.toString();
        if (text.split('\n').length > SAMPLE_ORGS.length) resolve(text.trim().split('\n'));
      });
    });
    assert.deepEqual(
      lines.map((l) => l.split(' ')[0]),
      SAMPLE_ORGS,
    );
    stop();
    await done;
    await assert.rejects(fetch(`${lines[0].split(' ')[1]}/robots.txt`));
  });
});

describe('fake Gerrit fixtures', () => {
  const built = buildAllFixtures();
  const results = new Map<string, ReferenceResult>(
    SAMPLE_ORGS.map((o) => [o, referenceFunnel(built[o], referenceOptions(o, true))]),
  );
  const plain = new Map<string, ReferenceResult>(
    SAMPLE_ORGS.map((o) => [o, referenceFunnel(built[o], referenceOptions(o, false))]),
  );

  it('are committed exactly as the generator writes them, and say they are fabricated', () => {
    const files = renderFixtureFiles(built);
    for (const org of SAMPLE_ORGS) {
      assert.equal(
        JSON.stringify(loadOrgFixture(org), null, 1) + '\n',
        files[`${org}.json`],
        `${org}.json differs from generate.ts output`,
      );
      assert.match(loadOrgFixture(org)._fabricated, /FABRICATED/);
    }
    const readme = readFileSync(path.join(process.cwd(), 'test/fake-gerrit/fixtures/README.md'), 'utf8');
    const section = readme.slice(readme.indexOf(COVERAGE_START), readme.indexOf(COVERAGE_END) + COVERAGE_END.length);
    assert.ok(
      section === renderCoverageSection(built),
      'fixtures/README.md coverage section is stale: run node test/fake-gerrit/fixtures/regenerate.mjs',
    );
  });

  it('cover every org × window, with kept examples in every open window', () => {
    for (const org of SAMPLE_ORGS) {
      for (const w of WINDOWS) {
        const inWindow = built[org].changes.filter(
          (c) =>
            c.change.status === 'MERGED' &&
            c.change.created.slice(0, 10) >= w.from &&
            c.change.created.slice(0, 10) < w.to,
        );
        assert.ok(inWindow.length >= 2, `${org} ${w.name}`);
        if (!w.sealed)
          assert.ok(
            plain.get(org)!.examples.some((e) => e.rule === 'kept' && e.window === w.name),
            `${org} keeps nothing in ${w.name}`,
          );
      }
      assert.ok(results.get(org)!.examples.filter((e) => e.rule === 'kept').length >= 5, `${org} keeps fewer than 5`);
    }
  });

  it('exercise each rule where the coverage table says, and nothing else there', () => {
    for (const e of EXPECTATIONS) {
      const r = results.get(e.org)!;
      const p = plain.get(e.org)!;
      const what = `${e.org} ${e.change} ${e.unit} ${e.comments?.join(',') ?? ''}`;
      if (e.unit === 'change') {
        assert.equal(r.changeRule.get(e.change) ?? 'not_listed', e.rule, what);
        if (e.when)
          assert.ok(
            [undefined, 'kept'].includes(p.changeRule.get(e.change)),
            `${what} without the set-up: kept or not listed`,
          );
      } else if (e.unit === 'comment') {
        assert.equal(r.commentRule.get(e.comments![0]), e.rule, what);
        if (e.when) assert.equal(p.commentRule.get(e.comments![0]), undefined, `${what} without the set-up`);
      } else {
        const ex = r.examples.find((x) => x.comments.includes(e.comments![0]));
        assert.deepEqual([ex?.rule, ex?.comments.sort()], [e.rule, [...e.comments!].sort()], what);
        if (e.when)
          assert.equal(
            p.examples.find((x) => x.comments.includes(e.comments![0]))?.rule,
            'kept',
            `${what} without the set-up`,
          );
      }
    }
    for (const [unit, rules] of Object.entries(RULES_BY_UNIT)) {
      for (const rule of rules)
        assert.ok(
          EXPECTATIONS.some((e) => e.unit === unit && e.rule === rule),
          `no fixture for ${unit} ${rule}`,
        );
    }
  });

  it('make the near-duplicate pair close and the boilerplate hunks share only their before side', () => {
    const os = results.get('openstack')!.examples;
    const text = (n: number) => {
      const h = os.find((e) => e.change === n)!.hunk;
      return shingles(normalisedText([...h.before, ...h.after]), 5);
    };
    assert.ok(jaccard(text(930005), text(930006)) >= 0.9);
    assert.ok(os.find((e) => e.change === 930005)!.hunk.before.length >= 15);
    const headers = results.get('qt')!.examples.filter((e) => e.rule === 'boilerplate');
    assert.equal(new Set(headers.map((e) => normalisedText(e.hunk.before))).size, 1);
    for (const x of headers)
      for (const y of headers)
        if (x !== y)
          assert.ok(
            jaccard(
              shingles(normalisedText([...x.hunk.before, ...x.hunk.after]), 5),
              shingles(normalisedText([...y.hunk.before, ...y.hunk.after]), 5),
            ) < 0.85,
          );
  });

  it('plant suspected suggested edits on kept examples: missed fences and the target in the comment', () => {
    const kept = (org: string, id: string) =>
      results.get(org)!.examples.find((e) => e.rule === 'kept' && e.comments.includes(id))!;
    const message = (org: string, n: number, id: string) =>
      Object.values(byNumber(org, n).comments)
        .flat()
        .find((m) => m.id === id)!.message;
    assert.ok(
      kept('openstack', 'os930019_c01') && /^```Suggestion$/m.test(message('openstack', 930019, 'os930019_c01')),
    );
    assert.ok(kept('qt', 'qt600115_c01') && /^```suggest$/m.test(message('qt', 600115, 'qt600115_c01')));
    assert.ok(
      message('qt', 600114, 'qt600114_c01').includes(kept('qt', 'qt600114_c01').hunk.after.join('\n')),
      'whole after-hunk pasted',
    );
    const added = kept('wikimedia', 'wm1090009_c01').hunk.added.map((l) => l.trim());
    assert.ok(
      added.length === 1 && added[0].length >= 20 && message('wikimedia', 1090009, 'wm1090009_c01').includes(added[0]),
    );
  });

  it('hold every revision kind, and one revision without a kind', () => {
    const revisions = SAMPLE_ORGS.flatMap((o) => built[o].changes.flatMap((c) => Object.values(c.change.revisions)));
    // Every value of Gerrit's RevisionKind: `satisfies` fails the type check when the package adds one.
    const kinds = Object.keys({
      REWORK: 0,
      TRIVIAL_REBASE: 0,
      TRIVIAL_REBASE_WITH_MESSAGE_UPDATE: 0,
      MERGE_FIRST_PARENT_UPDATE: 0,
      NO_CODE_CHANGE: 0,
      NO_CHANGE: 0,
    } satisfies Record<RevisionKind, 0>);
    for (const kind of kinds)
      assert.ok(
        revisions.some((r) => r.kind === kind),
        kind,
      );
    assert.ok(revisions.some((r) => !('kind' in r)));
  });

  it('use every fixture account, and keep account strings out of code and all but one comment', () => {
    for (const a of FIXTURE_ACCOUNTS) {
      const f = built[a.org];
      const people = f.changes.flatMap((c) => [
        c.change.owner,
        ...Object.values(c.change.revisions).map((r) => r.uploader),
        ...Object.values(c.comments)
          .flat()
          .map((m) => m.author),
      ]);
      const found = people.find((p) => p._account_id === a._account_id);
      assert.deepEqual(
        found && { ...found },
        {
          _account_id: a._account_id,
          name: a.name,
          email: a.email,
          username: a.username,
          ...(a.tags ? { tags: a.tags } : {}),
        },
        a.username,
      );
    }
    // Outside account objects, no string of the fixtures (code, comments, shas, ids, subjects) may
    // contain an account's id, name, username or email, except the one deliberate comment.
    const secrets = FIXTURE_ACCOUNTS.flatMap((a) => [String(a._account_id), a.name, a.username, a.email]);
    const walk = (value: unknown, where: string): void => {
      if (typeof value === 'string') {
        for (const s of secrets) assert.ok(!value.includes(s), `${s} leaks at ${where}`);
      } else if (Array.isArray(value)) {
        value.forEach((v, i) => walk(v, `${where}[${i}]`));
      } else if (value && typeof value === 'object' && !('_account_id' in value)) {
        for (const [k, v] of Object.entries(value))
          if (!(k === 'message' && where.includes('os930016_c01'))) walk(v, `${where}.${k}`);
      }
    };
    for (const org of SAMPLE_ORGS) {
      for (const c of built[org].changes) {
        walk(c.change, `${org} ${c.change._number}`);
        walk(c.files, `${org} ${c.change._number} files`);
        for (const m of Object.values(c.comments).flat()) walk(m, `${org} ${m.id}`);
      }
    }
    const leak = Object.values(byNumber('openstack', 930016).comments).flat()[0].message;
    assert.ok(leak.includes('<GERRIT_ACCOUNT_1000003>') && leak.includes('chiara.fixture@example.invalid'));
  });
});
