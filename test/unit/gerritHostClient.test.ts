import assert from 'node:assert/strict';
import pkg from '../../package.json';
import { HostClient, type HostClientEvent, type HostClientOptions } from '../../src/core/gerrit/hostClient';
import { stripXssi } from '../../src/core/gerrit/xssi';
import { type LoopbackServer, sendGerritJson, startServer, withRobots, type Handler } from './gerritLoopbackServer';

describe('gerrit host client: responses, robots.txt, one connection', () => {
  let server: LoopbackServer | undefined;
  let client: HostClient | undefined;

  async function setUp(
    handler: Handler,
    options: Partial<HostClientOptions> = {},
    basePath = '',
  ): Promise<{ server: LoopbackServer; client: HostClient }> {
    server = await startServer(handler);
    client = new HostClient({ baseUrl: server.origin + basePath, minIntervalMs: 0, baseBackoffMs: 5, ...options });
    return { server, client };
  }

  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = server = undefined;
  });

  it('strips the XSSI prefix line and keeps fields it does not know', async () => {
    const change = {
      _number: 42,
      change_id: 'I1',
      total_comment_count: 3,
      submit_requirements: [{ name: 'Code-Review', status: 'SATISFIED' }],
    };
    const { client } = await setUp(withRobots(undefined, (_req, res) => sendGerritJson(res, [change])));
    const result = await client.getJson<unknown[]>('/changes/?q=status:merged');
    assert.deepEqual(result, { ok: true, value: [change], status: 200 });
  });

  it('stripXssi leaves a body without the prefix alone', () => {
    assert.equal(stripXssi(')]}\'\n{"a":1}'), '{"a":1}');
    assert.equal(stripXssi(")]}'\r\n[]"), '[]');
    assert.equal(stripXssi('{"a":1}'), '{"a":1}');
  });

  it('asks again, like after a 503, for a 2xx that is not Gerrit JSON, and reports it malformed when it stays so', async () => {
    const bodies: [string, string, RegExp][] = [
      ['application/json', ')]}\'\n[{"_number": 1, "subj', /truncated/],
      ['text/html', '<!DOCTYPE html><html><body>Maintenance</body></html>', /HTML page/],
      ['application/json', '[{"_number": 1}]', /no XSSI prefix/],
    ];
    for (const [type, body, message] of bodies) {
      const { server, client } = await setUp(
        withRobots(undefined, (_req, res) => {
          res.writeHead(200, { 'content-type': type });
          res.end(body);
        }),
        { maxRetries: 2 },
      );
      const result = await client.getJson('/changes/1/comments');
      assert.equal(!result.ok && result.reason, 'malformed');
      assert.equal(!result.ok && result.status, 200);
      assert.match(!result.ok ? result.message : '', message);
      assert.equal(server.hits('/changes/1/comments').length, 3, 'the first try and two more');
      assert.equal(client.stats.errors, 1);
      await client.close();
      await server.close();
    }
  });

  it('gives up an attempt whose body trickles past the deadline, and tries again', async () => {
    let calls = 0;
    const { server, client } = await setUp(
      withRobots(undefined, (_req, res) => {
        calls++;
        if (calls > 1) return sendGerritJson(res, { ok: true });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(")]}'\n");
        const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 50);
        res.on('close', () => clearInterval(timer));
      }),
      { requestDeadlineMs: 400, requestTimeoutMs: 60_000 },
    );
    const result = await client.getJson('/changes/1/comments');
    assert.deepEqual(result, { ok: true, value: { ok: true }, status: 200 });
    assert.equal(server.hits('/changes/1/comments').length, 2);
  });

  it('returns a 404 as an http failure with its status, without retrying', async () => {
    const { server, client } = await setUp(
      withRobots(undefined, (_req, res) => {
        res.writeHead(404);
        res.end('Not found: 99');
      }),
    );
    const result = await client.getJson('/changes/99/comments');
    assert.deepEqual(!result.ok && [result.reason, result.status], ['http', 404]);
    assert.match(!result.ok ? result.message : '', /^GET \/changes\/99\/comments: HTTP 404/);
    assert.equal(server.hits('/changes/99/comments').length, 1);
  });

  it('runs requests one at a time over a single kept-alive connection', async () => {
    const { server, client } = await setUp(
      withRobots(undefined, (req, res) => setTimeout(() => sendGerritJson(res, { path: req.url }), 20)),
    );
    const paths = [1, 2, 3, 4, 5].map((n) => `/changes/${n}/comments`);
    const results = await Promise.all(paths.map((p) => client.getJson<{ path: string }>(p)));
    assert.deepEqual(
      results.map((r) => r.ok && r.value.path),
      paths,
    );
    assert.equal(server.maxActive, 1, 'the host never sees two requests at once');
    assert.equal(server.sockets, 1, 'all requests, robots.txt included, share one connection');
    assert.deepEqual(
      server.seen.map((s) => s.path),
      ['/robots.txt', ...paths],
      'in the order they were asked for',
    );
    assert.equal(client.stats.requests, 6);
  });

  it('names the tool and its version in User-Agent, on robots.txt and API requests', async () => {
    const { server, client } = await setUp(
      withRobots('User-agent: *\nAllow: /\n', (_req, res) => sendGerritJson(res, {})),
    );
    await client.getJson('/config/server/version');
    const expected = `review-corpus/${pkg.version}`; // and ` (+<homepage>)` once package.json has one
    assert.match(expected, /^review-corpus\/\d+\.\d+\.\d+$/);
    assert.deepEqual(
      server.seen.map((s) => s.userAgent),
      [expected, expected],
    );
  });

  it('reads robots.txt once, before the first API request', async () => {
    const { server, client } = await setUp(
      withRobots('User-agent: *\nDisallow:\n', (_req, res) => sendGerritJson(res, [])),
    );
    await client.getJson('/changes/?q=a');
    await client.getJson('/changes/?q=b');
    assert.deepEqual(
      server.seen.map((s) => s.path),
      ['/robots.txt', '/changes/?q=a', '/changes/?q=b'],
    );
  });

  it('never requests a path robots.txt disallows for review-corpus, and counts it', async () => {
    const robots = [
      'User-agent: *',
      'Disallow: /private',
      '',
      'User-agent: review-corpus',
      'Disallow: /changes/*/revisions/*/files/',
      '',
    ].join('\n');
    const events: HostClientEvent[] = [];
    const { server, client } = await setUp(
      withRobots(robots, (_req, res) => sendGerritJson(res, {})),
      { onEvent: (e) => events.push(e) },
    );
    const refused = await client.getJson('/changes/7/revisions/2/files/src%2Fa.c/diff');
    assert.deepEqual(!refused.ok && refused.reason, 'disallowed');
    const allowed = await client.getJson('/changes/7/comments');
    assert.equal(allowed.ok, true, 'our own group replaces the * group, which disallowed /private only');
    assert.deepEqual(
      server.seen.map((s) => s.path),
      ['/robots.txt', '/changes/7/comments'],
    );
    assert.equal(client.stats.disallowed, 1);
    assert.equal(client.stats.errors, 0);
    assert.deepEqual(
      events.filter((e) => e.type === 'disallowed').map((e) => e.type === 'disallowed' && e.path),
      ['/changes/7/revisions/2/files/src%2Fa.c/diff'],
    );
  });

  it('applies robots.txt of the origin to API paths under a base-URL prefix', async () => {
    const robots = 'User-agent: *\nDisallow: /gerrit/changes/\n';
    const { server, client } = await setUp(
      withRobots(robots, (_req, res) => sendGerritJson(res, { ok: 1 })),
      {},
      '/gerrit',
    );
    const listing = await client.getJson('/changes/?q=status:merged');
    assert.equal(!listing.ok && listing.reason, 'disallowed');
    const version = await client.getJson<{ ok: number }>('/config/server/version');
    assert.deepEqual(version.ok && version.value, { ok: 1 });
    assert.deepEqual(
      server.seen.map((s) => s.path),
      ['/robots.txt', '/gerrit/config/server/version'],
    );
  });

  it('does not touch the API while robots.txt is unreachable, and tries robots.txt again next time', async () => {
    let robotsUp = false;
    const { server, client } = await setUp(
      (req, res) => {
        if (req.url === '/robots.txt' && !robotsUp) {
          res.writeHead(503);
          res.end();
        } else if (req.url === '/robots.txt') {
          res.end('User-agent: *\nAllow: /\n');
        } else {
          sendGerritJson(res, []);
        }
      },
      { maxRetries: 1 },
    );
    const first = await client.getJson('/changes/?q=x');
    assert.deepEqual(!first.ok && [first.reason, first.status], ['http', 503]);
    assert.match(!first.ok ? first.message : '', /robots\.txt/);
    assert.equal(server.hits('/changes/?q=x').length, 0);
    robotsUp = true;
    const second = await client.getJson('/changes/?q=x');
    assert.equal(second.ok, true);
    assert.equal(server.hits('/robots.txt').length, 3, 'two failed attempts, then one that worked');
  });

  it('rejects a getJson after close()', async () => {
    const { client } = await setUp(withRobots(undefined, (_req, res) => sendGerritJson(res, [])));
    await client.close();
    await assert.rejects(client.getJson('/changes/'), /closed/);
  });
});
