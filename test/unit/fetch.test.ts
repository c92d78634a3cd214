// Fetch over real HTTP on loopback against the sample Gerrit, into a real corpus file on disk.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSampleHosts, type FakeGerrit } from '../fake-gerrit/server';
import { FIXTURE_ACCOUNTS } from '../fake-gerrit/fixtureAccounts';
import { SCENARIO } from '../fake-gerrit/fixtures/expectations';
import { sampleConfig, sampleHostSetup, SAMPLE_SALT } from '../../scripts/sample-corpus';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { fetchCorpus } from '../../src/core/gerrit/fetchCorpus';
import { sealWindow, unsealWindow, windowHash } from '../../src/core/ground/config/windows';
import type { CorpusConfig } from '../../src/core/ground/config/types';
import { canonicalDump } from './support/canonicalDump';
import { copyCorpus } from '../../src/core/ground/store/copyCorpus';
import { blobPackPath } from '../../src/core/ground/store/blobPack';
import { diffContentById } from '../../src/core/ground/store/diffText';

const FAST = { baseBackoffMs: 5, maxBackoffMs: 50, maxRetries: 2 };
const tempFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'rc-fetch-')), 'corpus.sqlite');
const apiRequests = (h: FakeGerrit, pattern: RegExp) => h.requests.filter((r) => pattern.test(r.path));

async function fetchInto(file: string, config: CorpusConfig, clientOptions = FAST) {
  const store = await CorpusStore.openOrCreate(file);
  try {
    return await fetchCorpus(store, config, { salt: SAMPLE_SALT, clientOptions });
  } finally {
    store.close();
  }
}

describe('fetch from the sample Gerrit', function () {
  this.timeout(60_000);
  let hosts: FakeGerrit[];
  let close: () => Promise<void>;
  let config: CorpusConfig;
  let file: string;
  let store: CorpusStore;
  const host = (org: string) => hosts.find((h) => h.org === org)!;
  const change = (org: string, number: number) =>
    store.get<{ collection_rule: string | null; fetch_error: string | null; fetch_state: string; id: number }>(
      'SELECT c.* FROM changes c JOIN hosts h ON h.id = c.host_id WHERE h.org = ? AND c.number = ?',
      [org, number],
    );

  before(async () => {
    ({ hosts, close } = await startSampleHosts(sampleHostSetup()));
    config = sampleConfig(hosts);
    file = tempFile();
    await fetchInto(file, config);
    store = await CorpusStore.open(file);
  });
  after(async () => {
    store?.close();
    await close?.();
  });

  it('fills the file with every listed change, each under its collection decision', () => {
    const rows = store.all<{ org: string; rule: string | null; n: number }>(
      'SELECT h.org, c.collection_rule AS rule, count(*) AS n FROM changes c JOIN hosts h ON h.id = c.host_id GROUP BY h.org, rule ORDER BY h.org, rule',
    );
    const get = (org: string, rule: string | null) => rows.find((r) => r.org === org && r.rule === rule)?.n ?? 0;
    assert.equal(get('openstack', 'created_before_start'), 1);
    assert.equal(get('openstack', 'no_comments'), 1);
    assert.equal(get('openstack', 'sealed_window'), 2);
    assert.equal(get('openstack', 'disallowed'), 1);
    assert.equal(get('qt', 'fetch_error'), 1);
    for (const org of ['openstack', 'qt', 'wikimedia']) assert.ok(get(org, null) >= 8, `${org} has fetched changes`);
    assert.equal(
      store.scalar("SELECT count(*) FROM changes WHERE fetch_state != 'done' AND collection_rule IS NULL"),
      0,
      'every fetched change finished',
    );
  });

  it('pages through the listing with n and S, stripping the XSSI prefix', () => {
    const listing = apiRequests(host('openstack'), /^\/changes\/\?/);
    assert.deepEqual(
      listing.map((r) => new URL(r.path, 'http://x').searchParams.get('S')),
      ['0', '10', '20'],
    );
    for (const r of listing) {
      const q = new URL(r.path, 'http://x').searchParams;
      assert.equal(q.get('q'), 'status:merged after:2024-10-01');
      assert.deepEqual(q.getAll('o'), ['ALL_REVISIONS', 'DETAILED_ACCOUNTS']);
    }
    assert.ok(Number(store.scalar('SELECT count(*) FROM revisions')) > 50, 'revisions parsed from the JSON');
  });

  it('costs no request for a change before the start or in a sealed window, and one (the probe) for a change without comments', () => {
    for (const number of [930003, 930020, 930021]) {
      assert.deepEqual(
        apiRequests(host('openstack'), new RegExp(`^/changes/${number}/`)),
        [],
        `no request for ${number}`,
      );
    }
    // openstack's comment-count probe held, so 930004 (total_comment_count 0) cost its one probe request only.
    assert.deepEqual(
      apiRequests(host('openstack'), /^\/changes\/930004\//).map((r) => r.path),
      ['/changes/930004/comments'],
    );
    assert.equal(
      store.scalar(
        "SELECT p.result FROM comment_count_probes p JOIN hosts h ON h.id = p.host_id WHERE h.org = 'openstack'",
      ),
      'held',
    );
  });

  it('never requests what robots.txt disallows, and counts it', () => {
    assert.equal(change('openstack', SCENARIO.disallowed.change)?.collection_rule, 'disallowed');
    assert.deepEqual(apiRequests(host('openstack'), new RegExp(`^/changes/${SCENARIO.disallowed.change}/`)), []);
    assert.equal(apiRequests(host('openstack'), /^\/robots\.txt$/).length, 1, 'robots.txt is read once');
  });

  it('stores a fetch error against the change or the comment and goes on', () => {
    const failed = change('qt', SCENARIO.commentsFetchError.change)!;
    assert.equal(failed.collection_rule, 'fetch_error');
    assert.match(String(failed.fetch_error), /500/);
    const d = SCENARIO.diffFetchError;
    const diff = store.get<{ content: string | null; fetch_error: string | null }>(
      'SELECT d.content, d.fetch_error FROM diffs d JOIN changes c ON c.id = d.change_id WHERE c.number = ? AND d.path = ? AND d.ps_base = ?',
      [d.change, d.path, d.base],
    );
    assert.equal(diff?.content, null);
    assert.match(String(diff?.fetch_error), /500/);
    assert.equal(change(d.org, d.change)?.fetch_state, 'done', 'the change itself finished');
  });

  it('fetches a diff only for files whose comments survive the cheap rules, and only when N+1 exists', () => {
    const diffRequests = hosts.flatMap((h) => apiRequests(h, /\/diff\?/));
    assert.ok(diffRequests.length > 0);
    for (const r of diffRequests)
      assert.match(
        r.path,
        /^\/changes\/\d+\/revisions\/(\d+)\/files\/[^/]+\/diff\?base=(\d+)&context=ALL&whitespace=IGNORE_NONE$/,
      );
    for (const r of diffRequests) {
      const [, rev, base] = /revisions\/(\d+)\/.*base=(\d+)/.exec(r.path)!;
      assert.equal(Number(rev), Number(base) + 1);
    }
    // no_successor: the comment on the last patch set of 930015 costs no diff request for that patch set
    const last = Number(
      store.scalar(
        'SELECT max(patch_set) FROM revisions r JOIN changes c ON c.id = r.change_id WHERE c.number = 930015',
      ),
    );
    assert.deepEqual(apiRequests(host('openstack'), new RegExp(`^/changes/930015/revisions/${last + 1}/`)), []);
    // the pseudo-files never get a diff
    assert.deepEqual(
      diffRequests.filter((r) => /COMMIT_MSG|PATCHSET_LEVEL|MERGE_LIST/.test(r.path)),
      [],
    );
  });

  it('a second run fetches nothing new, only what the host failed to return, and stores the same records', async () => {
    const failed = new Set([
      `/changes/${SCENARIO.commentsFetchError.change}/`,
      `/changes/${SCENARIO.diffFetchError.change}/`,
    ]);
    const before = hosts.map((h) => h.requests.length);
    await fetchInto(file, config);
    const after = hosts.map((h) => h.requests.slice(before[hosts.indexOf(h)]));
    for (const reqs of after) {
      const perChange = reqs.filter((r) => /^\/changes\/\d+\//.test(r.path));
      assert.deepEqual(
        perChange.filter((r) => ![...failed].some((f) => r.path.startsWith(f))).map((r) => r.path),
        [],
        'nothing for a change fetched whole',
      );
      assert.ok(reqs.every((r) => /^\/changes\/|^\/robots\.txt$/.test(r.path)));
    }
    assert.ok(
      after.flat().some((r) => r.path.startsWith(`/changes/${SCENARIO.diffFetchError.change}/`)),
      'the change whose diff failed is tried again',
    );
    const again = await CorpusStore.open(file);
    assert.equal(canonicalDump(again), canonicalDump(store), 'the host still fails them: the same records');
    assert.equal(
      again.scalar('SELECT fetch_attempts FROM changes WHERE number = ?', [SCENARIO.diffFetchError.change]),
      2,
    );
    again.close();
  });

  describe('privacy', () => {
    it('writes no account id, name, username or email, nor the salt, to the file, its blob pack or the file versions packed there', () => {
      // The pack's bytes are compressed, so the versions are scanned as read back too.
      const diffs = store.all<{ id: number }>('SELECT id FROM diffs').map((r) => diffContentById(store, r.id) ?? '');
      assert.ok(diffs.length > 10 && existsSync(blobPackPath(file)));
      const scanned: [string, string[]][] = [
        [file, [readFileSync(file).toString('latin1'), readFileSync(file).toString('utf8')]],
        [blobPackPath(file), [readFileSync(blobPackPath(file)).toString('latin1')]],
        ['the file versions read back', diffs],
      ];
      const needles = FIXTURE_ACCOUNTS.flatMap((a) => [String(a._account_id), a.name, a.username, a.email]);
      needles.push(SAMPLE_SALT);
      assert.ok(needles.length > 60);
      for (const [where, texts] of scanned)
        for (const n of needles)
          assert.ok(
            texts.every((t) => !t.includes(n)),
            `found ${JSON.stringify(n)} in ${where}`,
          );
    });

    it('replaces account tokens and emails inside messages by pseudonyms', () => {
      const msg = String(store.scalar("SELECT message FROM comments WHERE gerrit_id = 'os930016_c01'"));
      assert.doesNotMatch(msg, /GERRIT_ACCOUNT_1000003|chiara|@example\.invalid/i);
      assert.match(msg, /u_[0-9a-f]{16}/);
    });

    it('keeps bot status decided before pseudonymizing', () => {
      // SERVICE_USER bots in each org, plus the listed ones in qt and wikimedia
      assert.ok(Number(store.scalar('SELECT count(*) FROM accounts WHERE is_bot = 1')) >= 5);
      const pseudonyms = store.all<{ pseudonym: string }>('SELECT pseudonym FROM accounts');
      for (const p of pseudonyms) assert.match(p.pseudonym, /^u_[0-9a-f]{16}$/);
    });

    it('fetches nothing without a salt', async () => {
      const counts = hosts.map((h) => h.requests.length);
      const empty = tempFile();
      const s = await CorpusStore.create(empty);
      await assert.rejects(
        fetchCorpus(s, config, { salt: undefined }),
        /no salt: set the environment variable REVIEW_CORPUS_SALT/,
      );
      s.close();
      assert.deepEqual(
        hosts.map((h) => h.requests.length),
        counts,
        'no request was sent',
      );
    });
  });

  describe('sealed windows', () => {
    it('records the SHA-256 of the sealed window definition', () => {
      const w = store.get<{ sealed: number; seal_hash: string }>(
        "SELECT sealed, seal_hash FROM windows WHERE name = 'test'",
      )!;
      assert.equal(w.sealed, 1);
      assert.equal(
        w.seal_hash,
        createHash('sha256')
          .update(JSON.stringify({ name: 'test', from: '2025-11-01', to: '2026-11-01' }))
          .digest('hex'),
      );
      assert.equal(w.seal_hash, windowHash({ name: 'test', from: '2025-11-01', to: '2026-11-01' }));
    });

    it('fetches a window only once it is explicitly unsealed, records who and when, and never reseals it', async () => {
      const copy = tempFile();
      copyCorpus(file, copy);
      const s = await CorpusStore.open(copy);
      unsealWindow(s, 'test', 'r_0123456789abcdef', '2026-12-01T00:00:00.000Z');
      s.save();
      s.close();
      await fetchInto(copy, config);
      const after = await CorpusStore.open(copy);
      const w = after.get<{ sealed: number; unsealed_by: string; unsealed_at: string; fetched: number }>(
        "SELECT * FROM windows WHERE name = 'test'",
      )!;
      assert.deepEqual(
        [w.sealed, w.unsealed_by, w.unsealed_at, w.fetched],
        [0, 'r_0123456789abcdef', '2026-12-01T00:00:00.000Z', 1],
      );
      assert.equal(after.scalar("SELECT count(*) FROM changes WHERE collection_rule = 'sealed_window'"), 0);
      assert.ok(
        apiRequests(host('openstack'), /^\/changes\/930020\/comments/).length >= 1,
        'the unsealed change is fetched',
      );
      assert.throws(() => sealWindow(after, 'test'), /already been fetched and cannot be resealed/);
      after.close();
    });
  });
});

describe('fetch under throttling and faults', function () {
  this.timeout(60_000);

  it('honours 429 Retry-After and 503, and stores the same records as a clean run', async () => {
    const clean = await startSampleHosts({ ...sampleHostSetup(), orgs: ['wikimedia'] });
    const cleanFile = tempFile();
    try {
      await fetchInto(cleanFile, sampleConfig(clean.hosts));
    } finally {
      await clean.close();
    }
    const faulty = await startSampleHosts({
      ...sampleHostSetup(),
      orgs: ['wikimedia'],
      faults: {
        wikimedia: [
          { route: /^\/changes\/\?/, kind: '429', retryAfterSeconds: 1, times: 1 },
          { route: /\/comments$/, kind: '503', times: 2 },
          { route: /\/diff\?/, kind: '503', retryAfterSeconds: 0, times: 1 },
          { route: /\/comments$/, kind: 'reset', times: 1 },
        ],
      },
    });
    const faultyFile = tempFile();
    try {
      const started = Date.now();
      await fetchInto(faultyFile, sampleConfig(faulty.hosts), { ...FAST, maxRetries: 4 });
      const h = faulty.hosts[0];
      assert.deepEqual(h.pendingFaults(), [], 'every injected fault fired');
      const listing = h.requests.filter((r) => /^\/changes\/\?/.test(r.path));
      assert.equal(listing[0].status, 429);
      assert.equal(listing[1].status, 200, 'the listing was retried');
      assert.ok(Date.now() - started >= 1000, 'waited for Retry-After');
    } finally {
      await faulty.close();
    }
    const a = await CorpusStore.open(cleanFile);
    const b = await CorpusStore.open(faultyFile);
    assert.equal(canonicalDump(b), canonicalDump(a));
    a.close();
    b.close();
  });
});
