// A host that sends bad records, never ends its listing, or fails a fifth of its answers: over
// loopback HTTP into a real corpus file. One bad record is a counted fetch_error and the rest of the
// host is fetched; after the host recovers, one more fetch gives exactly the corpus of a fault-free run.
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bulkFixture, BULK_ORG } from '../fake-gerrit/bulkFixture';
import { startFakeGerrit, type Chaos, type Fault } from '../fake-gerrit/server';
import type { OrgFixture } from '../fake-gerrit/fixtureTypes';
import { SAMPLE_SALT } from '../../scripts/sample-corpus';
import { validateCorpusConfig } from '../../src/core/rules/corpusJson/loadConfig';
import { PRODUCT_WINDOWS } from '../../src/core/ground/config/types';
import { fetchCorpus, type FetchOptions } from '../../src/core/gerrit/fetchCorpus';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { canonicalDump } from './support/canonicalDump';

const tempFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'rc-hostile-')), 'corpus.sqlite');
const configFor = (url: string, over: Record<string, unknown> = {}) =>
  validateCorpusConfig(
    {
      name: 'hostile',
      db: 'corpus.sqlite',
      start: '2024-10-01',
      salt: { env: 'REVIEW_CORPUS_SALT' },
      windows: PRODUCT_WINDOWS.map((w) => ({ ...w })),
      hosts: [{ org: BULK_ORG, url, query: 'status:merged', minIntervalMs: 0, ...over }],
      rules: {},
    },
    'hostile corpus.json',
  );
const FAST: FetchOptions['clientOptions'] = {
  baseBackoffMs: 2,
  maxBackoffMs: 10,
  maxRetries: 2,
  requestDeadlineMs: 1000,
};

async function fetchFrom(
  file: string,
  fixture: OrgFixture,
  setup: { faults?: Fault[]; chaos?: Chaos } = {},
  clientOptions = FAST,
) {
  const host = await startFakeGerrit({ org: BULK_ORG, fixture, ...setup });
  const store = await CorpusStore.openOrCreate(file);
  try {
    const summary = await fetchCorpus(store, configFor(host.url), { salt: SAMPLE_SALT, clientOptions });
    return { summary, requests: host.requests };
  } finally {
    store.close();
    await host.close();
  }
}

describe('hostile and faulty hosts over loopback HTTP', function () {
  this.timeout(120_000);

  it('turns each malformed record into a counted fetch_error and fetches the rest', async () => {
    const fixture = bulkFixture(12);
    const c = (i: number) => fixture.changes[i];
    const [p0] = Object.keys(c(0).comments);
    (c(0).comments[p0][0] as unknown as Record<string, unknown>).message = 42;
    const [p1] = Object.keys(c(1).comments);
    (c(1).comments[p1][0] as unknown as Record<string, unknown>).message = { text: 'an object' };
    (c(2).change as unknown as Record<string, unknown>).project = { name: 'an object' };
    (c(3).change as unknown as Record<string, unknown>).created = 1727740800;
    (c(4).change as unknown as Record<string, unknown>)._number = null;
    (c(5).change as unknown as Record<string, unknown>)._number = { n: 5 };
    (c(6).change as unknown as Record<string, unknown>)._number = '500006';
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const number7 = c(7).change._number;
    const file = tempFile();
    const { summary, requests } = await fetchFrom(file, fixture, {
      faults: [
        {
          route: new RegExp(`^/changes/${number7}/revisions/2/files/[^/]+/diff`),
          kind: 'body',
          body: `{"content": ${deep}}`,
          times: 1_000,
        },
      ],
    });
    assert.deepEqual(summary.failures, [], 'the host is fetched to the end');
    const store = await CorpusStore.open(file);
    try {
      const rule = (n: number) =>
        store.get<{ collection_rule: string | null; fetch_error: string | null }>(
          'SELECT collection_rule, fetch_error FROM changes WHERE number = ?',
          [n],
        );
      assert.match(String(rule(c(0).change._number)?.fetch_error), /message is not text/);
      assert.match(String(rule(c(1).change._number)?.fetch_error), /message is not text/);
      assert.match(String(rule(c(2).change._number)?.fetch_error), /project is not a string/);
      assert.match(String(rule(c(3).change._number)?.fetch_error), /unreadable created time 1727740800/);
      assert.equal(
        store.scalar("SELECT value FROM fetch_counters WHERE name = 'rejected_listing_records'"),
        3,
        '_number null, an object, text',
      );
      assert.match(
        String(
          store.scalar('SELECT d.fetch_error FROM diffs d JOIN changes c ON c.id = d.change_id WHERE c.number = ?', [
            number7,
          ]),
        ),
        /diff response is nested more than 64 levels deep/,
      );
      for (const i of [8, 9, 10, 11])
        assert.equal(rule(c(i).change._number)?.fetch_error, null, `change ${i} fetched as usual`);
      assert.ok(
        !requests.some((r) => /^\/changes\/(null|\[object|%5Bobject)/i.test(r.path)),
        'no URL made from a bad number',
      );
      const build = await runBuild(store, { hunkFactsWorker: false });
      const org = build.funnel.organizations[BULK_ORG];
      assert.equal(
        org.funnel.find((r) => r.stage === 'collection' && r.rule === 'fetch_error')?.removed,
        7,
        '4 unreadable changes, 3 unnumbered records',
      );
      assert.equal(
        org.funnel.find((r) => r.stage === 'comments' && r.rule === 'fetch_error')?.removed,
        Object.values(c(7).comments).flat().length,
        'the comments whose diff was 10k deep',
      );
    } finally {
      store.close();
    }
  });

  it('ends a listing whose _more_changes never ends, and counts the cut', async () => {
    const page = JSON.stringify(
      bulkFixture(2).changes.map((x, i) => ({
        ...x.change,
        total_comment_count: 0,
        ...(i === 1 ? { _more_changes: true } : {}),
      })),
    );
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      if ((req.url ?? '').startsWith('/changes/?'))
        return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(`)]}'\n${page}\n`);
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const file = tempFile();
    const store = await CorpusStore.create(file);
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const summary = await fetchCorpus(store, configFor(url), { salt: SAMPLE_SALT, clientOptions: FAST });
      assert.deepEqual(summary.failures, []);
      assert.equal(seen.filter((p) => p.startsWith('/changes/?')).length, 2, 'the second page brought nothing new');
      assert.equal(store.scalar("SELECT value FROM fetch_counters WHERE name = 'listing_cut_short'"), 1);
      assert.equal(
        (await runBuild(store, { hunkFactsWorker: false })).funnel.organizations[BULK_ORG].counters.listing_cut_short,
        1,
      );
    } finally {
      store.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('after 20% faults over a thousand requests, one clean fetch gives exactly the fault-free corpus', async () => {
    const fixture = bulkFixture(330);
    const cleanFile = tempFile();
    await fetchFrom(cleanFile, fixture);
    const faultyFile = tempFile();
    const faulty = await fetchFrom(
      faultyFile,
      fixture,
      {
        chaos: {
          rate: 0.2,
          seed: 7,
          kinds: ['429', '503', 'reset', 'truncated', 'html', 'no_xssi', 'trickle'],
          delayMs: 400,
        },
      },
      { ...FAST, requestDeadlineMs: 1000 },
    );
    assert.ok(faulty.requests.length >= 1000, `${faulty.requests.length} requests`);
    const after = await fetchFrom(faultyFile, fixture);
    assert.ok(after.requests.length < faulty.requests.length / 5, 'the clean fetch asks only for what failed');
    const a = await CorpusStore.open(cleanFile);
    const b = await CorpusStore.open(faultyFile);
    try {
      assert.equal(canonicalDump(b), canonicalDump(a));
    } finally {
      a.close();
      b.close();
    }
  });
});
