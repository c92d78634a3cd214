// Pace, retries and cancellation, over real HTTP on loopback. Gaps are measured where the host
// would measure them, on the server; the checks are lower bounds (politeness), not speed.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { HostClient, type HostClientEvent, type HostClientOptions } from '../../src/core/gerrit/hostClient';
import { backoffMs, retryAfterMs } from '../../src/core/gerrit/retryPolicy';
import {
  gaps,
  type Handler,
  type LoopbackServer,
  sendGerritJson,
  startServer,
  withRobots,
} from './gerritLoopbackServer';

/** Server and client clocks are the same here; allow for timer rounding only. */
const TOLERANCE_MS = 5;

function assertGapsAtLeast(actual: number[], min: number): void {
  assert.ok(actual.length > 0);
  for (const gap of actual)
    assert.ok(
      gap >= min - TOLERANCE_MS,
      `gap ${gap.toFixed(1)} ms < ${min} ms (gaps: ${actual.map((g) => g.toFixed(1)).join(', ')})`,
    );
}

/** Answers the listed statuses (or 'reset' to drop the connection) in turn, then 200 with JSON. */
function scripted(script: Array<number | 'reset' | { status: number; retryAfter: string }>): Handler {
  let n = 0;
  return withRobots(undefined, (req, res) => {
    const step = script[n++];
    if (step === undefined) return sendGerritJson(res, { attempt: n });
    if (step === 'reset') return req.socket.destroy();
    const status = typeof step === 'number' ? step : step.status;
    const headers = typeof step === 'number' ? {} : { 'retry-after': step.retryAfter };
    res.writeHead(status, headers);
    res.end('busy');
  });
}

describe('gerrit host client: pace, retries, cancellation', () => {
  let server: LoopbackServer | undefined;
  let client: HostClient | undefined;

  /** Aborted after each test, so a test that fails mid-wait leaves nothing waiting behind it. */
  let cleanup: AbortController | undefined;

  async function setUp(
    handler: Handler,
    options: Partial<HostClientOptions> = {},
  ): Promise<{ server: LoopbackServer; client: HostClient }> {
    server = await startServer(handler);
    cleanup = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, cleanup.signal]) : cleanup.signal;
    client = new HostClient({
      baseUrl: server.origin,
      minIntervalMs: 0,
      baseBackoffMs: 10,
      maxBackoffMs: 50,
      ...options,
      signal,
    });
    return { server, client };
  }

  afterEach(async () => {
    cleanup?.abort();
    await client?.close().catch(() => undefined);
    await server?.close();
    client = server = undefined;
  });

  it('starts requests at least minIntervalMs apart, robots.txt included', async () => {
    const { server, client } = await setUp(
      withRobots(undefined, (_req, res) => sendGerritJson(res, [])),
      { minIntervalMs: 150 },
    );
    assert.equal(client.currentIntervalMs(), 150);
    await Promise.all([1, 2, 3, 4].map((n) => client.getJson(`/changes/${n}/comments`)));
    assert.equal(server.seen.length, 5);
    assertGapsAtLeast(gaps(server.seen), 150);
  });

  it('follows a robots.txt Crawl-delay slower than minIntervalMs', async () => {
    const events: HostClientEvent[] = [];
    const robots = 'User-agent: *\nCrawl-delay: 0.3\n';
    const { server, client } = await setUp(
      withRobots(robots, (_req, res) => sendGerritJson(res, [])),
      { minIntervalMs: 100, onEvent: (e) => events.push(e) },
    );
    for (const n of [1, 2, 3]) await client.getJson(`/changes/${n}/comments`);
    assertGapsAtLeast(gaps(server.seen), 300);
    assert.equal(client.currentIntervalMs(), 300);
    assert.deepEqual(
      events.find((e) => e.type === 'pace'),
      { host: new URL(server.origin).host, type: 'pace', intervalMs: 300, crawlDelayMs: 300, minIntervalMs: 100 },
    );
  });

  it('keeps minIntervalMs when robots.txt asks for less', async () => {
    const { client } = await setUp(
      withRobots('User-agent: *\nCrawl-delay: 0.01\n', (_req, res) => sendGerritJson(res, [])),
      { minIntervalMs: 40 },
    );
    await client.getJson('/changes/');
    assert.equal(client.currentIntervalMs(), 40);
  });

  it('waits for Retry-After (seconds) on 429, then succeeds', async () => {
    const { server, client } = await setUp(scripted([{ status: 429, retryAfter: '1' }]));
    const result = await client.getJson<{ attempt: number }>('/changes/5/comments');
    assert.deepEqual(result.ok && result.value, { attempt: 2 });
    assertGapsAtLeast(gaps(server.hits('/changes/5/comments')), 1000);
    assert.equal(client.stats.retries, 1);
  });

  it('backs off on 503 without Retry-After, then succeeds', async () => {
    const events: HostClientEvent[] = [];
    const { server, client } = await setUp(scripted([503, 503]), {
      baseBackoffMs: 40,
      maxBackoffMs: 1000,
      onEvent: (e) => events.push(e),
    });
    const result = await client.getJson<{ attempt: number }>('/changes/6/comments');
    assert.deepEqual(result.ok && result.value, { attempt: 3 });
    const retries = events.filter((e) => e.type === 'retry');
    assert.deepEqual(
      retries.map((e) => e.type === 'retry' && e.cause),
      ['HTTP 503', 'HTTP 503'],
    );
    // backoff draws from the upper half of a doubling ceiling: >= 20 ms, then >= 40 ms
    assertGapsAtLeast(gaps(server.hits('/changes/6/comments')).slice(0, 1), 20);
    assertGapsAtLeast(gaps(server.hits('/changes/6/comments')).slice(1), 40);
  });

  it('gives up on a persistent 503 after maxRetries + 1 attempts', async () => {
    const { server, client } = await setUp(scripted(Array(20).fill(503)), { maxRetries: 3 });
    const result = await client.getJson('/changes/8/comments');
    assert.equal(result.ok, false);
    assert.deepEqual(!result.ok && [result.reason, result.status], ['http', 503]);
    assert.equal(server.hits('/changes/8/comments').length, 4);
    const { requests, retries, errors, disallowed, waitMs } = client.stats;
    assert.deepEqual({ requests, retries, errors, disallowed }, { requests: 5, retries: 3, errors: 1, disallowed: 0 });
    // Backoff ceilings 10, 20 and 40 ms, each wait drawn from the upper half.
    assert.ok(waitMs >= 5 + 10 + 20, `the three backoffs are counted as waits (${waitMs} ms)`);
  });

  it('retries a dropped connection', async () => {
    const { server, client } = await setUp(scripted(['reset']));
    const result = await client.getJson<{ attempt: number }>('/changes/9/comments');
    assert.deepEqual(result.ok && result.value, { attempt: 2 });
    assert.equal(server.hits('/changes/9/comments').length, 2);
  });

  it('retries a body cut short by the connection, as a transport fault', async () => {
    let n = 0;
    const { server, client } = await setUp(
      withRobots(undefined, (req, res) => {
        if (n++ === 0) {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
          res.write(')]}\'\n[{"_number": 1,');
          setTimeout(() => req.socket.destroy(), 10);
        } else {
          sendGerritJson(res, [{ _number: 1 }]);
        }
      }),
    );
    const result = await client.getJson('/changes/?q=cut');
    assert.deepEqual(result.ok && result.value, [{ _number: 1 }]);
    assert.equal(server.hits('/changes/?q=cut').length, 2);
  });

  it('gives up at once when Retry-After is longer than maxRetryAfterMs', async () => {
    const { server, client } = await setUp(scripted([{ status: 429, retryAfter: '3600' }]), {
      maxRetryAfterMs: 60_000,
    });
    const result = await client.getJson('/changes/');
    assert.deepEqual(!result.ok && [result.reason, result.status], ['http', 429]);
    assert.equal(server.hits('/changes/').length, 1);
  });

  describe('cancellation', () => {
    async function expectPromptAbort(
      handler: Handler,
      options: Partial<HostClientOptions>,
      abortWhen: (s: LoopbackServer) => boolean,
    ): Promise<void> {
      const controller = new AbortController();
      const { server, client } = await setUp(handler, { ...options, signal: controller.signal });
      const pending = Promise.all([client.getJson('/changes/1/comments'), client.getJson('/changes/2/comments')]);
      const deadline = performance.now() + 5000;
      while (!abortWhen(server)) {
        assert.ok(
          performance.now() < deadline,
          `the server never reached the state to abort in (saw ${server.seen.map((s) => s.path).join(', ')})`,
        );
        await new Promise((r) => setTimeout(r, 5));
      }
      const abortedAt = performance.now();
      controller.abort();
      await assert.rejects(pending, { name: 'AbortError' });
      // The waits here are a minute long; "promptly" means well under that.
      assert.ok(performance.now() - abortedAt < 2000, 'the wait was cut short');
    }

    it('stops a long Retry-After wait', async () => {
      await expectPromptAbort(
        scripted([{ status: 429, retryAfter: '60' }]),
        {},
        (s) => s.hits('/changes/1/comments').length === 1,
      );
    });

    it('stops a long pace wait', async () => {
      await expectPromptAbort(
        withRobots(undefined, (_req, res) => sendGerritJson(res, [])),
        { minIntervalMs: 60_000 },
        (s) => s.seen.length === 1,
      );
    });

    it('stops a request the host does not answer', async () => {
      await expectPromptAbort(
        withRobots(undefined, () => undefined),
        {},
        (s) => s.hits('/changes/1/comments').length === 1,
      );
    });

    it('rejects at once when the signal is already aborted, without a request', async () => {
      const controller = new AbortController();
      controller.abort();
      const { server, client } = await setUp(
        withRobots(undefined, (_req, res) => sendGerritJson(res, [])),
        { signal: controller.signal },
      );
      await assert.rejects(client.getJson('/changes/'), { name: 'AbortError' });
      assert.equal(server.seen.length, 0);
    });
  });
});

describe('retry policy', () => {
  it('reads Retry-After as delay-seconds or as an HTTP-date', () => {
    const now = Date.parse('2025-03-01T12:00:00Z');
    assert.equal(retryAfterMs('2', now), 2000);
    assert.equal(retryAfterMs(' 0 ', now), 0);
    assert.equal(retryAfterMs('Sat, 01 Mar 2025 12:00:30 GMT', now), 30_000);
    assert.equal(retryAfterMs('Sat, 01 Mar 2025 11:00:00 GMT', now), 0, 'a date in the past means now');
    assert.equal(retryAfterMs('soon', now), undefined);
    assert.equal(retryAfterMs(undefined, now), undefined);
  });

  it('backs off exponentially, jittered within the upper half, capped', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => backoffMs(n, 100, 500, () => 0)),
      [50, 100, 200, 250],
    );
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => backoffMs(n, 100, 500, () => 1)),
      [100, 200, 400, 500],
    );
  });
});
