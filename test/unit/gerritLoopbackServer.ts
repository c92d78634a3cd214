// A node:http server on 127.0.0.1 for the host-client tests: it records what a real host would
// see (each request's path, start time, User-Agent and socket) and answers with a test's handler.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface SeenRequest {
  path: string;
  /** performance.now() when the request's headers arrived. */
  at: number;
  userAgent: string | undefined;
  socket: number;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: SeenRequest) => void;

export interface LoopbackServer {
  origin: string;
  seen: SeenRequest[];
  /** The most requests ever in progress at the same time. */
  maxActive: number;
  sockets: number;
  /** Requests seen for `path` (robots.txt excluded unless asked for). */
  hits(path: string): SeenRequest[];
  close(): Promise<void>;
}

/** Gerrit's answer: the XSSI prefix line, then JSON. */
export function sendGerritJson(res: http.ServerResponse, value: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(`)]}'\n${JSON.stringify(value)}`);
}

/** A robots.txt handler; anything else goes to `api`. `robots` undefined answers 404. */
export function withRobots(robots: string | undefined, api: Handler): Handler {
  return (req, res, seen) => {
    if (req.url !== '/robots.txt') return api(req, res, seen);
    if (robots === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(robots);
    }
  };
}

export async function startServer(handler: Handler): Promise<LoopbackServer> {
  const seen: SeenRequest[] = [];
  const socketIds = new Map<Socket, number>();
  let active = 0;
  const state = { maxActive: 0 };
  const server = http.createServer((req, res) => {
    const entry: SeenRequest = {
      path: req.url ?? '',
      at: performance.now(),
      userAgent: req.headers['user-agent'],
      socket: socketIds.get(req.socket) ?? -1,
    };
    seen.push(entry);
    active++;
    state.maxActive = Math.max(state.maxActive, active);
    let done = false;
    const finish = (): void => {
      if (!done) active--;
      done = true;
    };
    res.on('finish', finish);
    res.on('close', finish);
    handler(req, res, entry);
  });
  server.on('connection', (socket: Socket) => socketIds.set(socket, socketIds.size + 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    get maxActive() {
      return state.maxActive;
    },
    get sockets() {
      return socketIds.size;
    },
    hits: (path) => seen.filter((s) => s.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Start-to-start gaps between consecutive requests, in ms. */
export function gaps(requests: SeenRequest[]): number[] {
  return requests.slice(1).map((r, i) => r.at - requests[i].at);
}
