// A real Gerrit 2.x ChangeInfo, byte for byte (test/fake-gerrit/recordings/), listed by a loopback host
// and fetched by the real client into a real corpus file, then built. Its shapes are ones our own
// fixtures lack: a MERGED change with no `total_comment_count` (Gerrit leaves it out when the change
// index does not hold it: rest-api-changes.txt, ChangeInfo), gravatar `avatars` with Gson's escapes,
// a CI account without any tag, `_more_changes` on a page of one. The same bytes less their
// `submitted` line are the MERGED change without `submitted` that real hosts send for changes merged
// before Gerrit recorded it. Either way the change is fetched, dated by `created`, kept, and no
// name, e-mail, username, avatar or account id of the recording reaches the corpus file.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validateCorpusConfig } from '../../src/core/rules/corpusJson/loadConfig';
import { fetchCorpus } from '../../src/core/gerrit/fetchCorpus';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';

const RECORDING = path.resolve('test/fake-gerrit/recordings/software-factory-change-2019-08.json');
const ORG = 'softwarefactory';

interface RecordedAccount {
  _account_id: number;
  name: string;
  email: string;
  username: string;
  avatars: { url: string; height: number }[];
}

const recorded = readFileSync(RECORDING, 'utf8');
const change = JSON.parse(recorded) as {
  _number: number;
  status: string;
  submitted?: string;
  owner: RecordedAccount;
  messages: { author: RecordedAccount }[];
  _more_changes?: boolean;
};
const SUBMITTED_LINE = /^ {4}"submitted": "[^"]*",\n/m;

/** A listing page as Gerrit sends one: the XSSI line, then the array; the README kept only its object. */
const page = (objects: string) => `)]}'\n[\n${objects}]\n`;

/** Serves `listed` as the first page of the host's listing; records every path asked. */
async function serve(listed: string): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    const u = new URL(req.url ?? '/', 'http://x');
    const json = (body: string) => res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(body);
    if (u.pathname === '/changes/' && (u.searchParams.get('S') ?? '0') === '0') return json(page(listed));
    if (u.pathname === '/changes/') return json(page(''));
    // ListChangeComments of a change without inline comments: an empty map.
    if (u.pathname === `/changes/${change._number}/comments`) return json(")]}'\n{}\n");
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Fetches the host listing `listed`, builds, and returns what the corpus holds of change 45. */
async function fetchAndBuild(listed: string) {
  const host = await serve(listed);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'rc-software-factory-')), 'corpus.sqlite');
  const config = validateCorpusConfig(
    {
      name: 'software-factory-recording',
      db: 'corpus.sqlite',
      start: '2019-08-01',
      salt: { env: 'REVIEW_CORPUS_SALT' },
      windows: [{ name: 'august', from: '2019-08-01', to: '2019-09-01' }],
      hosts: [{ org: ORG, url: host.url, query: 'status:merged', minIntervalMs: 0 }],
      rules: {},
    },
    'software-factory corpus.json',
  );
  const store = await CorpusStore.create(file);
  try {
    const summary = await fetchCorpus(store, config, { salt: 'recording-salt', clientOptions: { maxRetries: 0 } });
    assert.deepEqual(summary.failures, []);
    const build = await runBuild(store, { hunkFactsWorker: false });
    store.save({ full: true });
    return {
      file,
      seen: host.seen,
      row: store.get(
        'SELECT number, status, created, updated, total_comment_count, collection_rule, fetch_state FROM changes',
      ),
      decision: store.get("SELECT unit_key, window, rule FROM decisions WHERE build_id = ? AND unit = 'changes'", [
        build.buildId,
      ]),
      probe: store.scalar('SELECT result FROM comment_count_probes'),
      accounts: store.scalar('SELECT count(*) FROM accounts'),
    };
  } finally {
    store.close();
    await host.close();
  }
}

/** What a user depends on: the change fetched (its comments asked for), dated by `created`, and kept. */
function assertCollected(got: Awaited<ReturnType<typeof fetchAndBuild>>): void {
  assert.deepEqual(got.row, {
    number: 45,
    status: 'MERGED',
    created: '2019-08-20T11:01:45.000Z',
    updated: '2019-08-29T08:45:34.000Z',
    total_comment_count: null,
    collection_rule: null,
    fetch_state: 'done',
  });
  assert.ok(got.seen.includes('/changes/45/comments'), 'a change listed without a count has its comments asked for');
  assert.equal(got.probe, 'none', 'no change was skipped for a count of 0, so there was nothing to probe');
  assert.deepEqual(got.decision, { unit_key: `${ORG}/45`, window: 'august', rule: 'kept' });
  assert.deepEqual(
    got.seen.filter((p) => p.startsWith('/changes/?')).map((p) => new URL(p, 'http://x').searchParams.get('S')),
    ['0', '1'],
    'the next page after _more_changes',
  );
  assert.equal(got.accounts, 1, 'the owner, as a pseudonym');
}

/** Every string of the recording that names or shows an account, in the forms the recording writes it. */
function accountNeedles(): Set<string> {
  const needles = new Set<string>();
  for (const a of [change.owner, ...change.messages.map((m) => m.author)]) {
    for (const s of [a.name, a.email, a.username]) needles.add(s);
    // The id as the recording writes it: one bare digit occurs in any binary page by chance.
    needles.add(`"_account_id": ${a._account_id}`);
    for (const { url } of a.avatars) {
      needles.add(url);
      needles.add(/avatar\/([0-9a-f]{32})/.exec(url)?.[1] ?? url); // gravatar's hash of the e-mail
    }
  }
  for (const m of recorded.matchAll(/"url": "([^"]+)"/g)) needles.add(m[1]); // with Gson's \u003d escapes
  return needles;
}

function assertNoAccountIn(file: string): void {
  const bytes = Buffer.concat([
    readFileSync(file),
    ...(existsSync(`${file}.blobs`) ? [readFileSync(`${file}.blobs`)] : []),
  ]);
  const needles = accountNeedles();
  assert.ok(needles.size >= 14, `${needles.size} account strings in the recording`);
  for (const n of needles) assert.equal(bytes.indexOf(Buffer.from(n, 'utf8')), -1, `the corpus file holds ${n}`);
}

describe('a recorded Software Factory (Gerrit 2.x) change', function () {
  this.timeout(60_000);

  it('as recorded: MERGED without total_comment_count is fetched, not skipped as uncommented', async () => {
    assert.equal(change.status, 'MERGED');
    assert.ok(!('total_comment_count' in change), 'the recording has no total_comment_count');
    assert.equal(change._more_changes, true);
    assert.ok(change.owner.avatars.length > 0);
    const got = await fetchAndBuild(recorded);
    assertCollected(got);
    assertNoAccountIn(got.file);
  });

  it('less its submitted line: a MERGED change without submitted is collected the same', async () => {
    // The one change made to the recorded bytes.
    const withoutSubmitted = recorded.replace(SUBMITTED_LINE, '');
    assert.equal(
      recorded.length - withoutSubmitted.length,
      '    "submitted": "2019-08-29 08:45:34.000000000",\n'.length,
    );
    assert.ok(!('submitted' in (JSON.parse(withoutSubmitted) as object)));
    const got = await fetchAndBuild(withoutSubmitted);
    assertCollected(got);
    assertNoAccountIn(got.file);
  });
});
