// The Gerrit REST routes the fake serves, as a pure function from a request to a reply.
import { buildDiffInfo } from './diffInfo';
import type { FixtureStore } from './fixtureStore';
import type { FixtureChange } from './fixtureTypes';
import { listChanges, shapeChange } from './listing';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const XSSI_PREFIX = ")]}'\n";
export const DEFAULT_ROBOTS_TXT = 'User-agent: *\nCrawl-delay: 0\n';
const SERVER_VERSION = '3.10.3';

function json(value: unknown): Reply {
  return { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: XSSI_PREFIX + JSON.stringify(value, null, 2) + '\n' };
}

function text(status: number, body: string): Reply {
  return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body };
}

const notFound = (what?: string): Reply => text(404, what ? `Not found: ${what}\n` : 'Not found\n');

/** A path segment as Gerrit reads it: percent-decoded once. Undefined if it is not valid encoding. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** `{revision}`: a patch set number, a (prefix of a) commit sha, or `current`. */
function patchSetOf(change: FixtureChange, revision: string): number | undefined {
  const revisions = Object.entries(change.change.revisions);
  if (revision === 'current') return change.change.revisions[change.change.current_revision]._number;
  if (/^\d+$/.test(revision)) return revisions.some(([, r]) => r._number === Number(revision)) ? Number(revision) : undefined;
  const bySha = revisions.filter(([sha]) => revision.length >= 4 && sha.startsWith(revision));
  return bySha.length === 1 ? bySha[0][1]._number : undefined;
}

function shaOf(change: FixtureChange, patchSet: number): string {
  const found = Object.entries(change.change.revisions).find(([, r]) => r._number === patchSet);
  return found ? found[0] : '0'.repeat(40);
}

function diffReply(change: FixtureChange, revision: string, encodedPath: string, params: URLSearchParams): Reply {
  const target = patchSetOf(change, revision);
  const filePath = decodeSegment(encodedPath);
  if (target === undefined || filePath === undefined) return notFound(revision);
  const versions = change.files[filePath];
  const baseParam = params.get('base');
  const base = baseParam === null ? 0 : patchSetOf(change, baseParam);
  if (!versions || base === undefined || base >= target) return notFound(filePath);
  const a = versions[base] ?? null;
  const b = versions[target] ?? null;
  if (a === null && b === null) return notFound(filePath);
  const contextParam = (params.get('context') ?? '').toUpperCase();
  const context = contextParam === 'ALL' ? 'ALL' : /^\d+$/.test(contextParam) ? Number(contextParam) : 10;
  return json(buildDiffInfo(filePath, a, b, context, [base === 0 ? '0'.repeat(40) : shaOf(change, base), shaOf(change, target)]));
}

export function route(store: FixtureStore, method: string, rawUrl: string, robotsTxt: string): Reply {
  if (method !== 'GET' && method !== 'HEAD') return text(405, 'Method Not Allowed\n');
  const q = rawUrl.indexOf('?');
  const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
  // Split before decoding, so a %2F inside a change id or file path stays inside its segment.
  const segments = rawPath.replace(/^\/a\//, '/').split('/').slice(1);

  if (rawPath === '/robots.txt') return text(200, robotsTxt);
  if (rawPath === '/config/server/version') return json(SERVER_VERSION);
  if (segments[0] !== 'changes') return notFound();
  if (segments.length === 1 || (segments.length === 2 && segments[1] === '')) return json(listChanges(store.changes, params));

  const identifier = decodeSegment(segments[1]);
  const change = identifier === undefined ? undefined : store.find(identifier);
  if (!change) return notFound(identifier ?? segments[1]);
  const rest = segments.slice(2);
  if (rest.length === 0 || (rest.length === 1 && rest[0] === 'detail')) {
    const options = new Set(params.getAll('o').map((o) => o.toUpperCase()));
    if (rest[0] === 'detail') options.add('DETAILED_ACCOUNTS');
    return json(shapeChange(change.change, options));
  }
  if (rest.length === 1 && rest[0] === 'comments') return json(change.comments);
  if (rest.length === 5 && rest[0] === 'revisions' && rest[2] === 'files' && rest[4] === 'diff') {
    return diffReply(change, rest[1], rest[3], params);
  }
  return notFound();
}
