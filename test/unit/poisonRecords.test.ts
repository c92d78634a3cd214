// No record stops a crawl: answers nested 10,000 levels deep, answers too large, texts and lists longer
// than Gerrit allows, and records whose storing throws, each served by the loopback fake Gerrit over
// real HTTP into a real corpus file. Each costs its own change a counted fetch_error with its reason;
// every other change is fetched, and a second fetch over the same host runs to its end too.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bulkFixture, BULK_ORG } from '../fake-gerrit/bulkFixture';
import { startFakeGerrit, type Fault } from '../fake-gerrit/server';
import { SAMPLE_SALT } from '../../scripts/sample-corpus';
import { validateCorpusConfig } from '../../src/core/rules/corpusJson/loadConfig';
import { PRODUCT_WINDOWS } from '../../src/core/ground/config/types';
import { fetchCorpus, type FetchOptions } from '../../src/core/gerrit/fetchCorpus';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';

const COUNT = 10;
const number = (i: number) => 500_000 + i; // bulkFixture numbers its changes from 500000
const filePath = (i: number) => `src/module${i % 100}/file_${i}.py`;
const DEEP = '['.repeat(10_000) + ']'.repeat(10_000);

const routes = {
  listing: /^\/changes\/\?/,
  comments: (i: number) => new RegExp(`^/changes/${number(i)}/comments`),
  files: (i: number) => new RegExp(`^/changes/${number(i)}/revisions/2/files\\?base=1`),
  diff: (i: number) => new RegExp(`^/changes/${number(i)}/revisions/2/files/${encodeURIComponent(filePath(i))}/diff`),
};

/** A fault that alters every answer of `route` (a rerun meets it again) by replacing `find` once. */
const alter = (route: RegExp, find: string, by: string): Fault => ({
  route,
  kind: 'rewrite',
  times: 10_000,
  rewrite: (json) => json.replace(find, by),
});

/** One change's record in the listing: `find`, first met after change `i`'s number, becomes `by`. */
type ListedEdit = [i: number, find: string, by: string];

/** A fault that makes `edits` in every listing (one fault: the fake applies the first that matches a route). */
const alterListing = (...edits: ListedEdit[]): Fault => ({
  route: routes.listing,
  kind: 'rewrite',
  times: 10_000,
  rewrite: (json) =>
    edits.reduce((text, [i, find, by]) => {
      const at = text.indexOf(`"_number":${number(i)},`);
      const hit = at < 0 ? -1 : text.indexOf(find, at);
      return hit < 0 ? text : text.slice(0, hit) + by + text.slice(hit + find.length);
    }, json),
});

const configFor = (url: string) =>
  validateCorpusConfig(
    {
      name: 'poison',
      db: 'corpus.sqlite',
      start: '2024-10-01',
      salt: { env: 'REVIEW_CORPUS_SALT' },
      windows: PRODUCT_WINDOWS.map((w) => ({ ...w })),
      hosts: [{ org: BULK_ORG, url, query: 'status:merged', minIntervalMs: 0 }],
      rules: {},
    },
    'poison corpus.json',
  );

const FAST: FetchOptions['clientOptions'] = {
  baseBackoffMs: 2,
  maxBackoffMs: 10,
  maxRetries: 1,
  requestDeadlineMs: 5000,
};

/** Two fetches from one fake host with `faults`, into `file`; each fetch's summary. */
async function fetchTwice(file: string, faults: Fault[], clientOptions = FAST) {
  const host = await startFakeGerrit({ org: BULK_ORG, fixture: bulkFixture(COUNT), faults });
  try {
    const summaries = [];
    for (let run = 0; run < 2; run++) {
      const store = await CorpusStore.openOrCreate(file);
      try {
        summaries.push(await fetchCorpus(store, configFor(host.url), { salt: SAMPLE_SALT, clientOptions }));
      } finally {
        store.close();
      }
    }
    return { summaries, requests: host.requests };
  } finally {
    await host.close();
  }
}

const tempFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'rc-poison-')), 'corpus.sqlite');

interface ChangeRow {
  number: number;
  collection_rule: string | null;
  fetch_error: string | null;
  fetch_state: string;
}

async function inspect(file: string) {
  const store = await CorpusStore.open(file);
  const changes = new Map(
    store
      .all<ChangeRow>('SELECT number, collection_rule, fetch_error, fetch_state FROM changes')
      .map((r) => [r.number, r]),
  );
  const diffError = (i: number) =>
    store.scalar('SELECT d.fetch_error FROM diffs d JOIN changes c ON c.id = d.change_id WHERE c.number = ?', [
      number(i),
    ]);
  const listError = (i: number) =>
    store.scalar('SELECT f.fetch_error FROM file_lists f JOIN changes c ON c.id = f.change_id WHERE c.number = ?', [
      number(i),
    ]);
  const counter = (name: string) =>
    store.scalar('SELECT value FROM fetch_counters WHERE name = ?', [name]) as number | undefined;
  return { store, changes, diffError, listError, counter };
}

/** Changes `clean` were fetched as usual: done, no error, their diff stored. */
function assertFetchedAsUsual(r: Awaited<ReturnType<typeof inspect>>, clean: number[]): void {
  for (const i of clean) {
    const row = r.changes.get(number(i));
    assert.equal(row?.fetch_state, 'done', `change ${i} fetched`);
    assert.equal(row?.fetch_error, null, `change ${i} without error`);
    assert.equal(r.diffError(i), null, `change ${i}'s diff stored`);
  }
}

describe('no record stops a crawl (over loopback HTTP)', function () {
  this.timeout(120_000);

  it('an answer nested 10,000 levels deep costs its change alone, wherever it is', async () => {
    const file = tempFile();
    const { summaries } = await fetchTwice(file, [
      alterListing([1, `"_number":${number(1)},`, `"_number":${number(1)},"labels":{"Code-Review":${DEEP}},`]),
      alter(routes.comments(2), '"id":', `"context_lines":${DEEP},"id":`),
      alter(routes.diff(3), '{', `{"intraline_status":${DEEP},`),
      alter(routes.files(4), '"size":', `"extra":${DEEP},"size":`),
    ]);
    for (const s of summaries) assert.deepEqual(s.failures, [], 'each fetch runs to the end');
    const r = await inspect(file);
    try {
      assert.match(String(r.changes.get(number(1))?.fetch_error), /listed change is nested more than 64 levels deep/);
      assert.equal(r.changes.get(number(1))?.collection_rule, 'fetch_error');
      assert.match(String(r.changes.get(number(2))?.fetch_error), /comments response is nested more than 64/);
      assert.match(String(r.diffError(3)), /diff response is nested more than 64 levels deep/);
      assert.match(String(r.listError(4)), /files response is nested more than 64 levels deep/);
      assertFetchedAsUsual(r, [0, 5, 6, 7, 8, 9]);
      const org = (await runBuild(r.store, { hunkFactsWorker: false })).funnel.organizations[BULK_ORG];
      assert.equal(org.funnel.find((x) => x.stage === 'collection' && x.rule === 'fetch_error')?.removed, 2);
    } finally {
      r.store.close();
    }
  });

  it('answers, texts and lists longer than any Gerrit sends are counted, and the listing goes on', async () => {
    const file = tempFile();
    const manyComments = Array.from({ length: 50_001 }, (_, k) => `{"id":"m${k}","message":"m"}`).join(',');
    const { summaries, requests } = await fetchTwice(
      file,
      [
        alterListing([5, `"subject":"Bench change 5"`, `"subject":"${'s'.repeat(5 << 20)}"`]),
        alter(routes.comments(1), '"message":"', `"message":"${'x'.repeat((1 << 20) + 1)}`),
        alter(routes.comments(2), '[', `[${manyComments},`),
        alter(routes.diff(3), '"ab":[', `"ab":["${'y'.repeat(5 << 20)}",`),
      ],
      { ...FAST, maxResponseBytes: 4 << 20 },
    );
    for (const s of summaries) assert.deepEqual(s.failures, []);
    const r = await inspect(file);
    try {
      assert.match(String(r.changes.get(number(1))?.fetch_error), /message is longer than 1048576 characters/);
      assert.match(String(r.changes.get(number(2))?.fetch_error), /more than 50000 comments on one change/);
      assert.match(String(r.diffError(3)), /the answer is larger than 4 MiB/);
      assert.equal(r.changes.has(number(5)), false, 'the change whose listing alone is too large is not stored');
      assert.ok((r.counter('rejected_listing_records') ?? 0) >= 1, 'and is counted');
      assertFetchedAsUsual(r, [0, 4, 6, 7, 8, 9]);
      const diffAsks = requests.filter((q) => routes.diff(3).test(q.path)).length;
      assert.equal(diffAsks, 2, 'an oversized answer is not asked again within a fetch (one per fetch)');
    } finally {
      r.store.close();
    }
  });

  it('a record whose storing throws is undone and counted, and the next change is fetched', async () => {
    const file = tempFile();
    // Two records the store refuses (as an unforeseen shape would make it): a revision of change 7,
    // and a comment of change 6. They stand for any exception while one change's records are stored.
    const seed = await CorpusStore.create(file);
    const ps1Sha = createHash('sha1').update('bulk-7-1').digest('hex');
    seed.exec(
      `CREATE TRIGGER poison_revision BEFORE INSERT ON revisions WHEN NEW.sha = '${ps1Sha}' BEGIN SELECT RAISE(ABORT, 'revision refused'); END`,
    );
    seed.exec(
      `CREATE TRIGGER poison_comment BEFORE INSERT ON comments WHEN NEW.gerrit_id = 'bk${number(6)}_c01' BEGIN SELECT RAISE(ABORT, 'comment refused'); END`,
    );
    seed.save();
    seed.close();
    const { summaries } = await fetchTwice(file, [
      alterListing(
        [1, '"revisions":{', '"revisions":{"0000":null,'],
        [2, '"owner":{', '"owner":{"email":5},"owner_was":{'],
        [4, '"kind":"REWORK"', '"kind":{"k":1}'],
      ),
      alter(routes.comments(3), '"author":{', '"author":{"email":7},"author_was":{'),
    ]);
    for (const s of summaries) assert.deepEqual(s.failures, []);
    const r = await inspect(file);
    try {
      assert.match(String(r.changes.get(number(1))?.fetch_error), /revision "0000" is not an object/);
      assert.match(String(r.changes.get(number(2))?.fetch_error), /owner: email is not a name/);
      assert.match(String(r.changes.get(number(3))?.fetch_error), /author: email is not a name/);
      assert.match(String(r.changes.get(number(4))?.fetch_error), /kind is not a string/);
      assert.match(String(r.changes.get(number(7))?.fetch_error), /could not be stored: revision refused/);
      assert.equal(
        r.store.scalar('SELECT count(*) FROM revisions v JOIN changes c ON c.id = v.change_id WHERE c.number = ?', [
          number(7),
        ]),
        0,
        'nothing of the refused change is half-written',
      );
      assert.match(String(r.changes.get(number(6))?.fetch_error), /could not be stored: comment refused/);
      assert.equal(r.changes.get(number(6))?.collection_rule, 'fetch_error');
      assertFetchedAsUsual(r, [0, 5, 8, 9]);
    } finally {
      r.store.close();
    }
  });
});
