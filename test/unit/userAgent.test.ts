// The User-Agent names a contact from corpus.json (required for any host that is not loopback), and a
// host URL with a path is a REST root: the API goes under the path, robots.txt stays at the origin.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pkg from '../../package.json';
import { loadCorpusConfig, validateCorpusConfig } from '../../src/core/rules/corpusJson/loadConfig';
import { PRODUCT_WINDOWS, type CorpusConfig } from '../../src/core/ground/config/types';
import { fetchCorpus } from '../../src/core/gerrit/fetchCorpus';
import { HostClient } from '../../src/core/gerrit/hostClient';
import { isLoopbackUrl, requireContact, USER_AGENT, userAgentFor } from '../../src/core/gerrit/userAgent';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { sendGerritJson, startServer, withRobots, type LoopbackServer } from './gerritLoopbackServer';

const SALT = 'user-agent-test-salt';

function config(hosts: { org: string; url: string }[], contact?: string): Record<string, unknown> {
  return {
    name: 'ua',
    start: '2024-10-01',
    salt: { env: 'REVIEW_CORPUS_SALT' },
    ...(contact === undefined ? {} : { contact }),
    windows: PRODUCT_WINDOWS.map((w) => ({ ...w })),
    hosts: hosts.map((h) => ({ ...h, minIntervalMs: 0 })),
  };
}

describe('User-Agent contact and REST roots under a path', () => {
  let dir: string;
  let server: LoopbackServer | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-ua-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("names the tool, its version and the contact, as Wikimedia's User-Agent policy asks, and no homepage while there is none", () => {
    assert.equal((pkg as { homepage?: string }).homepage, undefined, 'package.json names no homepage');
    const c = validateCorpusConfig(
      config([{ org: 'wikimedia', url: 'https://gerrit.wikimedia.org/r' }], 'corpus-team@example.org'),
    );
    assert.equal(userAgentFor(c), `review-corpus/${pkg.version} (corpus-team@example.org)`);
    const u = validateCorpusConfig(
      config([{ org: 'wikimedia', url: 'https://gerrit.wikimedia.org/r' }], 'https://example.org/our-corpus'),
    );
    assert.equal(userAgentFor(u), `review-corpus/${pkg.version} (https://example.org/our-corpus)`);
  });

  it('needs no contact for loopback hosts', () => {
    const c = validateCorpusConfig(
      config([
        { org: 'a', url: 'http://127.0.0.1:8080' },
        { org: 'b', url: 'http://localhost:9/r' },
        { org: 'c', url: 'http://[::1]:9' },
      ]),
    );
    assert.doesNotThrow(() => requireContact(c));
    assert.equal(userAgentFor(c), USER_AGENT);
  });

  it('tells loopback hosts from real ones', () => {
    for (const url of [
      'http://127.0.0.1:1',
      'http://127.8.9.10',
      'http://localhost',
      'http://LOCALHOST:80/r',
      'http://gerrit.localhost',
      'http://[::1]:8080',
      'http://[::ffff:127.0.0.1]',
    ]) {
      assert.equal(isLoopbackUrl(url), true, url);
    }
    for (const url of [
      'https://review.opendev.org',
      'http://128.0.0.1',
      'http://localhost.example.org',
      'http://[::2]',
      'http://10.0.0.1',
      'not a url',
    ]) {
      assert.equal(isLoopbackUrl(url), false, url);
    }
  });

  it('refuses to fetch a real host without a contact, in one line naming the config file and the field, before any request', async () => {
    const file = path.join(dir, 'corpus.json');
    writeFileSync(
      file,
      JSON.stringify(
        config([
          { org: 'local', url: 'http://127.0.0.1:9' },
          { org: 'openstack', url: 'https://review.opendev.example' },
        ]),
      ),
    );
    const c = loadCorpusConfig(file);
    const expected = `${file}: contact is required to fetch https://review.opendev.example (hosts[1])`;
    assert.throws(
      () => requireContact(c),
      (e: Error) => e.name === 'UserError' && e.message.startsWith(expected) && !e.message.includes('\n'),
    );
    const store = await CorpusStore.create(path.join(dir, 'corpus.sqlite'));
    try {
      await assert.rejects(
        fetchCorpus(store, c, { salt: SALT, clientOptions: { maxRetries: 0, requestTimeoutMs: 2000 } }),
        (e: Error) => {
          assert.equal(e.name, 'UserError');
          assert.ok(e.message.startsWith(expected), e.message);
          assert.match(e.message, /"contact"/);
          return true;
        },
      );
      assert.equal(store.scalar('SELECT count(*) FROM changes'), 0);
    } finally {
      store.close();
    }
  });

  it("sends the contact on every request of a fetch, robots.txt at the origin and the API under the REST root's path", async () => {
    server = await startServer(withRobots('User-agent: *\nDisallow: /r/a/\n', (_req, res) => sendGerritJson(res, [])));
    const c: CorpusConfig = validateCorpusConfig(
      config([{ org: 'local', url: `${server.origin}/r/` }], 'corpus-team@example.org'),
    );
    const store = await CorpusStore.create(path.join(dir, 'corpus.sqlite'));
    try {
      const summary = await fetchCorpus(store, c, { salt: SALT });
      assert.deepEqual(summary.failures, []);
    } finally {
      store.close();
    }
    const expected = `review-corpus/${pkg.version} (corpus-team@example.org)`;
    assert.equal(server.seen[0].path, '/robots.txt', 'robots.txt at the origin root, not /r/robots.txt');
    assert.ok(server.seen.length >= 2);
    for (const s of server.seen.slice(1))
      assert.match(s.path, /^\/r\/(changes\/\?q=|config\/server\/version$)/, 'the API under /r/');
    assert.ok(
      server.seen.some((s) => s.path.startsWith('/r/changes/?q=')),
      'the listing was asked for',
    );
    assert.deepEqual(new Set(server.seen.map((s) => s.userAgent)), new Set([expected]));
  });

  it("follows a relative robots.txt redirect from the origin's /robots.txt, not from the REST root's path", async () => {
    server = await startServer((req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(301, { location: 'robots-moved.txt' });
        res.end();
      } else if (req.url === '/robots-moved.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('User-agent: *\nDisallow: /r/changes/\n');
      } else if (req.url === '/r/robots-moved.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('User-agent: *\nAllow: /\n');
      } else {
        sendGerritJson(res, { ok: 1 });
      }
    });
    const client = new HostClient({ baseUrl: `${server.origin}/r`, minIntervalMs: 0 });
    try {
      const listing = await client.getJson('/changes/?q=status:merged');
      assert.equal(!listing.ok && listing.reason, 'disallowed', 'the rules of /robots-moved.txt apply');
      const version = await client.getJson('/config/server/version');
      assert.equal(version.ok, true);
    } finally {
      await client.close();
    }
    assert.deepEqual(
      server.seen.map((s) => s.path),
      ['/robots.txt', '/robots-moved.txt', '/r/config/server/version'],
    );
  });
});
