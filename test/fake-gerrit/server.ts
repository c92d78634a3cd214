// A loopback fake Gerrit: one server = one host = one org, serving fabricated fixtures in Gerrit's
// wire format, with faults that tests inject per route. node:http only.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type Chaos, type Fault, FaultList, seededRandom } from './faults';
import { FixtureStore, loadOrgFixture } from './fixtureStore';
import type { OrgFixture } from './fixtureTypes';
import { DEFAULT_ROBOTS_TXT, type Reply, route, XSSI_PREFIX } from './routes';

export type { Chaos, Fault, FaultKind } from './faults';

export const SAMPLE_ORGS: string[] = ['openstack', 'qt', 'wikimedia'];

export interface LoggedRequest {
  method: string;
  /** Raw path and query, as sent. */
  path: string;
  /** HTTP status sent; 0 when the connection was reset instead. */
  status: number;
}

export interface FakeGerrit {
  url: string;
  org: string;
  requests: LoggedRequest[];
  close(): Promise<void>;
  addFault(f: Fault): void;
  /** Faults with uses left, so a test can check every injected fault fired. */
  pendingFaults(): Fault[];
}

export interface FakeGerritOptions {
  org: string;
  /** A folder holding `<org>.json`; default: the committed fixtures bundled with the server. */
  fixturesDir?: string;
  /** Serve this fixture (e.g. from buildOrgFixture) instead of a committed one. */
  fixture?: OrgFixture;
  /** GET /config/server/version; default 3.10.3. */
  serverVersion?: string;
  /** Changes the listing reports with total_comment_count 0 although they have comments (a stale index entry; FixtureStore). */
  staleCommentCounts?: number[];
  /** Gerrit's `index.maxPages`: a listing page beyond it is a 400 (listing.ts pageRefusal). Default: no limit. */
  indexMaxPages?: number;
  faults?: Fault[];
  /** Faults at random on top of `faults`. */
  chaos?: Chaos;
  robotsTxt?: string;
  port?: number;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function send(res: http.ServerResponse, reply: Reply, headOnly: boolean): void {
  res.writeHead(reply.status, { ...reply.headers, 'Content-Length': Buffer.byteLength(reply.body) });
  res.end(headOnly ? undefined : reply.body);
}

export async function startFakeGerrit(opts: FakeGerritOptions): Promise<FakeGerrit> {
  const store = new FixtureStore(
    opts.fixture ?? loadOrgFixture(opts.org, opts.fixturesDir),
    opts.serverVersion,
    new Set(opts.staleCommentCounts ?? []),
    opts.indexMaxPages,
  );
  const faults = new FaultList();
  for (const f of opts.faults ?? []) faults.add(f);
  const robotsTxt = opts.robotsTxt ?? DEFAULT_ROBOTS_TXT;
  const requests: LoggedRequest[] = [];
  const sockets = new Set<Socket>();
  const random = opts.chaos ? seededRandom(opts.chaos.seed) : undefined;
  const chaosFault = (url: string): Fault | undefined => {
    if (!opts.chaos || !random || url === '/robots.txt' || random() >= opts.chaos.rate) return undefined;
    const kind = opts.chaos.kinds[Math.floor(random() * opts.chaos.kinds.length)];
    return { route: /./, kind, delayMs: opts.chaos.delayMs };
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const logged: LoggedRequest = { method, path: url, status: 0 };
    requests.push(logged);
    const fault = faults.take(url) ?? chaosFault(url);
    if (fault?.kind === 'slow') await delay(fault.delayMs ?? 200);
    if (fault?.kind === 'reset') {
      // An RST, not a clean close, where the platform allows it.
      if (typeof req.socket.resetAndDestroy === 'function') req.socket.resetAndDestroy();
      else req.socket.destroy();
      return;
    }
    let reply: Reply;
    if (fault?.kind === '429') {
      reply = {
        status: 429,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': String(fault.retryAfterSeconds ?? 0) },
        body: 'Too Many Requests\n',
      };
    } else if (fault?.kind === '503') {
      const headers: Record<string, string> = { 'Content-Type': 'text/plain; charset=utf-8' };
      if (fault.retryAfterSeconds !== undefined) headers['Retry-After'] = String(fault.retryAfterSeconds);
      reply = { status: 503, headers, body: 'Service Unavailable\n' };
    } else if (fault?.kind === '500') {
      reply = {
        status: 500,
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
        body: 'Internal server error\n',
      };
    } else if (fault?.kind === '404') {
      // A change deleted or made private after it was listed: Gerrit's answer to any request of it
      // (RestApiServlet replyText of ResourceNotFoundException(id), as routes.ts notFound).
      const id = /^\/(?:a\/)?changes\/([^/?]+)/.exec(url)?.[1];
      reply = {
        status: 404,
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
        body: id ? `Not found: ${decodeURIComponent(id)}\n` : 'Not found\n',
      };
    } else if (fault?.kind === 'body') {
      reply = {
        status: 200,
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: `${XSSI_PREFIX}${fault.body ?? ''}\n`,
      };
    } else if (fault?.kind === 'html') {
      // A proxy's or a login page's 200, as some hosts answer while they are down.
      reply = {
        status: 200,
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
        body: '<!DOCTYPE html>\n<html><body><h1>Maintenance</h1></body></html>\n',
      };
    } else {
      reply = route(store, method, url, robotsTxt, String(req.headers.accept ?? ''));
      if (fault?.kind === 'no_xssi' && reply.body.startsWith(XSSI_PREFIX))
        reply = { ...reply, body: reply.body.slice(XSSI_PREFIX.length) };
      if (fault?.kind === 'rewrite' && fault.rewrite && reply.body.startsWith(XSSI_PREFIX))
        reply = { ...reply, body: `${XSSI_PREFIX}${fault.rewrite(reply.body.slice(XSSI_PREFIX.length))}` };
    }
    logged.status = reply.status;
    if (fault?.kind === 'truncated') {
      // A well-framed (chunked) 200 whose body stops halfway: the client sees JSON that does not parse.
      const bytes = Buffer.from(reply.body);
      res.writeHead(reply.status, reply.headers);
      res.end(bytes.subarray(0, Math.floor(bytes.length / 2)));
      return;
    }
    if (fault?.kind === 'trickle') {
      // The whole answer, one byte at a time: only a deadline on the whole request stops waiting for it.
      const bytes = Buffer.from(reply.body);
      res.writeHead(reply.status, { ...reply.headers, 'Content-Length': bytes.length });
      for (let i = 0; i < bytes.length && !res.destroyed; i++) {
        res.write(bytes.subarray(i, i + 1));
        await delay(fault.delayMs ?? 1000);
      }
      if (!res.destroyed) res.end();
      return;
    }
    send(res, reply, method === 'HEAD');
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        send(
          res,
          {
            status: 500,
            headers: { 'Content-Type': 'text/plain; charset=utf-8' },
            body: `fake Gerrit error: ${String(err)}\n`,
          },
          false,
        );
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}`,
    org: opts.org,
    requests,
    addFault: (f) => faults.add(f),
    pendingFaults: () => faults.pending(),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy(); // keep-alive connections would hold close() open
      })),
  };
}

export interface SampleHostsOptions {
  /** Which orgs to start; default SAMPLE_ORGS. */
  orgs?: string[];
  fixturesDir?: string;
  /** Faults per org. */
  faults?: Record<string, Fault[]>;
  /** robots.txt per org; default `User-agent: *` with `Crawl-delay: 0`. */
  robotsTxt?: Record<string, string>;
  /** Per org, changes listed with a stale total_comment_count of 0 (FakeGerritOptions.staleCommentCounts). */
  staleCommentCounts?: Record<string, number[]>;
}

/** One fake host per sample org, each on its own free 127.0.0.1 port. */
export async function startSampleHosts(
  opts: SampleHostsOptions = {},
): Promise<{ hosts: FakeGerrit[]; close(): Promise<void> }> {
  const hosts: FakeGerrit[] = [];
  const close = async () => {
    await Promise.all(hosts.map((h) => h.close()));
  };
  try {
    for (const org of opts.orgs ?? SAMPLE_ORGS) {
      hosts.push(
        await startFakeGerrit({
          org,
          fixturesDir: opts.fixturesDir,
          faults: opts.faults?.[org],
          robotsTxt: opts.robotsTxt?.[org],
          staleCommentCounts: opts.staleCommentCounts?.[org],
        }),
      );
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { hosts, close };
}
