// A real Gerrit listing, byte for byte (test/fake-gerrit/recordings/), through the real client over
// loopback HTTP into a real corpus file: parsed, paged, decided, and none of its accounts stored.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validateCorpusConfig } from '../../src/core/rules/corpusJson/loadConfig';
import { fetchCorpus } from '../../src/core/gerrit/fetchCorpus';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';

const RECORDING = path.resolve('test/fake-gerrit/recordings/gerrit-review-changes-2019-12.json');

describe('a recorded gerrit-review listing', function () {
  this.timeout(30_000);
  const bytes = readFileSync(RECORDING);
  const listed = JSON.parse(bytes.toString('utf8').slice(")]}'\n".length)) as Record<string, unknown>[];
  let server: http.Server;
  let url: string;
  const seen: string[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      const u = new URL(req.url ?? '/', 'http://x');
      const json = (body: Buffer | string) =>
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(body);
      if (u.pathname === '/robots.txt') return void res.writeHead(404).end();
      if (u.pathname === '/changes/' && (u.searchParams.get('S') ?? '0') === '0') return json(bytes);
      if (u.pathname === '/changes/') return json(")]}'\n[]\n");
      // The comment-count probe asks for the comments of the one merged change listed with 0: none, as
      // Gerrit answers a change without comments (an empty map; ListChangeComments).
      if (u.pathname === '/changes/249209/comments') return json(")]}'\n{}\n");
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is read as Gerrit wrote it, paged by its _more_changes, decided, and stored without an account', async () => {
    assert.ok(bytes.subarray(0, 5).equals(Buffer.from(")]}'\n")), 'the recording starts with the XSSI line');
    assert.equal(listed.at(-1)?._more_changes, true);
    // Gson writes ChangeInfo's fields in declaration order, and `requirements` comes after `_moreChanges`.
    assert.equal(Object.keys(listed.at(-1) ?? {}).at(-1), 'requirements', '_more_changes is not the last key');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'rc-recording-')), 'corpus.sqlite');
    const config = validateCorpusConfig(
      {
        name: 'recording',
        db: 'corpus.sqlite',
        start: '2019-12-01',
        salt: { env: 'REVIEW_CORPUS_SALT' },
        windows: [{ name: 'december', from: '2019-12-01', to: '2020-01-01' }],
        hosts: [{ org: 'gerrit-review', url, query: 'repositories:plugins', minIntervalMs: 0 }],
        rules: {},
      },
      'recording corpus.json',
    );
    const store = await CorpusStore.create(file);
    try {
      const summary = await fetchCorpus(store, config, { salt: 'recording-salt', clientOptions: { maxRetries: 0 } });
      assert.deepEqual(summary.failures, []);
      const rows = store.all<{ number: number; status: string; collection_rule: string | null }>(
        'SELECT number, status, collection_rule FROM changes ORDER BY number',
      );
      assert.deepEqual(rows, [
        { number: 248192, status: 'NEW', collection_rule: 'not_merged' },
        { number: 249209, status: 'MERGED', collection_rule: 'no_comments' },
        { number: 249214, status: 'NEW', collection_rule: 'not_merged' },
        { number: 249221, status: 'NEW', collection_rule: 'not_merged' },
        { number: 249252, status: 'NEW', collection_rule: 'not_merged' },
      ]);
      assert.deepEqual(
        seen.filter((p) => p.startsWith('/changes/?')).map((p) => new URL(p, 'http://x').searchParams.get('S')),
        ['0', '5'],
        'the next page after _more_changes',
      );
      assert.deepEqual(
        seen.filter((p) => /^\/changes\/\d/.test(p)),
        ['/changes/249209/comments'],
        "nothing more is asked for changes the rules removed but the probe's one",
      );
      assert.equal(store.scalar('SELECT result FROM comment_count_probes'), 'held');
      store.save();
    } finally {
      store.close();
    }

    const stored = readFileSync(file).toString('latin1') + readFileSync(file).toString('utf8');
    const needles = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(walk);
      if (v === null || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (typeof o._account_id === 'number') {
        needles.add(String(o._account_id));
        for (const k of ['name', 'email', 'username', 'display_name', 'status'])
          if (typeof o[k] === 'string') needles.add(o[k] as string);
        for (const a of Array.isArray(o.avatars) ? (o.avatars as { url?: unknown }[]) : [])
          if (typeof a.url === 'string') needles.add(a.url);
      }
      Object.values(o).forEach(walk);
    };
    walk(listed);
    assert.ok(needles.size >= 50, `${needles.size} account strings in the recording`);
    assert.ok(needles.has('🇺🇸'), "an account's status, an emoji, is among them");
    for (const n of needles)
      assert.ok(!stored.includes(n), `the corpus file holds ${JSON.stringify(n)} from the recording`);
  });
});
