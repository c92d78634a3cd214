// The Gerrit REST routes the fake serves, as a pure function from a request to a reply.
import { buildDiffInfo, gerritLines, lineDiff, type Whitespace } from './diffInfo';
import type { FixtureStore } from './fixtureStore';
import { fileVersionToText, type FileVersion, type FixtureChange } from './fixtureTypes';
import type { FileInfo, FilesByPath } from '../../src/core/gerrit/types';

/** GetDiff without `whitespace` (or the older `ignore-whitespace`): hard-coded in GetDiff, not the preferences' default. */
const DEFAULT_WHITESPACE: Whitespace = 'IGNORE_LEADING_AND_TRAILING';
import { listChanges, pageRefusal, shapeChange } from './listing';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const XSSI_PREFIX = ")]}'\n";
export const DEFAULT_ROBOTS_TXT = 'User-agent: *\nCrawl-delay: 0\n';

/** How RestApiServlet writes JSON: compact when the client accepts application/json (or pp=0), else pretty. */
export type JsonFormat = 'pretty' | 'compact';

/** Gson's default HTML-safe escapes, which Gerrit's OutputFormat never turns off. */
const GSON_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '=': '\\u003d',
  "'": '\\u0027',
};

/** The XSSI line, the JSON as Gson writes it, and a final newline (RestApiServlet.replyJson). */
export function gerritJson(value: unknown, format: JsonFormat): string {
  const text = format === 'pretty' ? JSON.stringify(value, null, 2) : JSON.stringify(value);
  // These characters can only stand inside JSON strings, so replacing them everywhere escapes exactly those.
  return XSSI_PREFIX + text.replace(/[<>&=']/g, (c) => GSON_ESCAPES[c]) + '\n';
}

function json(value: unknown, format: JsonFormat): Reply {
  return {
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: gerritJson(value, format),
  };
}

/** RestApiServlet.enablePrettyPrint: pp (or prettyPrint) decides; without it, Accept: application/json means compact. */
function formatOf(params: URLSearchParams, accept: string): JsonFormat {
  const pp = params.get('pp') ?? params.get('prettyPrint');
  if (pp !== null) return pp === '1' || pp === 'true' ? 'pretty' : 'compact';
  return accept.split(/[ ,;]/).includes('application/json') ? 'compact' : 'pretty';
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
  if (/^\d+$/.test(revision))
    return revisions.some(([, r]) => r._number === Number(revision)) ? Number(revision) : undefined;
  const bySha = revisions.filter(([sha]) => revision.length >= 4 && sha.startsWith(revision));
  return bySha.length === 1 ? bySha[0][1]._number : undefined;
}

function shaOf(change: FixtureChange, patchSet: number): string {
  const found = Object.entries(change.change.revisions).find(([, r]) => r._number === patchSet);
  return found ? found[0] : '0'.repeat(40);
}

/** The path a file had at patch set `ps` (0: the parent), following the change's renames backwards from `path` at `target`. */
function pathAt(change: FixtureChange, path: string, ps: number, target: number): string {
  let p = path;
  for (const r of [...(change.renames ?? [])].sort((x, y) => y.ps - x.ps)) {
    if (r.to === p && r.ps > ps && r.ps <= target) p = r.from;
  }
  return p;
}

function versionAt(change: FixtureChange, path: string, ps: number): FileVersion | null {
  return change.files[path]?.[ps] ?? null;
}

/** The file in the parent commit of patch set `ps`: the last rebase at or before it, else the change's parent. */
function parentVersion(change: FixtureChange, path: string, ps: number): FileVersion | null {
  const rebase = (change.rebases ?? []).filter((r) => r.ps <= ps && path in r.parent).sort((x, y) => y.ps - x.ps)[0];
  return rebase ? rebase.parent[path] : versionAt(change, path, 0);
}

const WHITESPACE = new Set<Whitespace>(['IGNORE_NONE', 'IGNORE_TRAILING', 'IGNORE_LEADING_AND_TRAILING', 'IGNORE_ALL']);

function diffReply(
  change: FixtureChange,
  revision: string,
  encodedPath: string,
  params: URLSearchParams,
  format: JsonFormat,
): Reply {
  const target = patchSetOf(change, revision);
  const filePath = decodeSegment(encodedPath);
  if (target === undefined || filePath === undefined) return notFound(revision);
  const baseParam = params.get('base');
  const base = baseParam === null ? 0 : patchSetOf(change, baseParam);
  if (!change.files[filePath] || base === undefined || base >= target) return notFound(filePath);
  const pathA = pathAt(change, filePath, base, target);
  const a = versionAt(change, pathA, base);
  const b = versionAt(change, filePath, target);
  if (a === null && b === null) return notFound(filePath);
  // GetDiff's ContextOptionHandler takes ALL or a short of at least 0; the content is whole either way.
  const contextParam = params.get('context');
  if (
    contextParam !== null &&
    contextParam.toUpperCase() !== 'ALL' &&
    !(/^\d+$/.test(contextParam) && Number(contextParam) <= 32767)
  ) {
    return text(400, `"${contextParam}" is not a valid value for "--context"\n`);
  }
  const whitespaceParam = (params.get('whitespace') ?? '').toUpperCase() as Whitespace;
  const whitespace = WHITESPACE.has(whitespaceParam) ? whitespaceParam : DEFAULT_WHITESPACE;
  const parentA = parentVersion(change, pathA, base);
  const parentB = parentVersion(change, filePath, target);
  const rebased = base > 0 && (change.rebases ?? []).some((r) => r.ps > base && r.ps <= target);
  return json(
    buildDiffInfo({
      pathA,
      pathB: filePath,
      a,
      b,
      whitespace,
      shas: [base === 0 ? '0'.repeat(40) : shaOf(change, base), shaOf(change, target)],
      ...(rebased ? { parents: [parentA, parentB] as [FileVersion | null, FileVersion | null] } : {}),
    }),
    format,
  );
}

/**
 * The MIME type Gerrit sends in X-FYI-Content-Type for the fixtures' files: its table by file name, then
 * by extension (resources/com/google/gerrit/server/mime/mime-types.properties @
 * 04ec362bd52f49b39c99c60684150b4f36c25ba7, read by DefaultFileExtensionRegistry). A name it does not
 * list is sent as text/plain: real Gerrit then asks mime-util's own detectors, which the fake does not run.
 */
const MIME_TYPES: Record<string, string> = {
  'CMakeLists.txt': 'text/x-cmake',
  'README.md': 'text/x-gfm',
  cmake: 'text/x-cmake',
  cpp: 'text/x-c++src',
  h: 'text/x-csrc',
  js: 'text/javascript',
  json: 'application/json',
  less: 'text/x-less',
  md: 'text/x-markdown',
  php: 'text/x-php',
  py: 'text/x-python',
  rst: 'text/x-rst',
  txt: 'text/plain',
  yaml: 'text/x-yaml',
};

function mimeTypeOf(filePath: string): string {
  const name = filePath.slice(filePath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return MIME_TYPES[name] ?? (dot > 0 ? MIME_TYPES[name.slice(dot + 1)] : undefined) ?? 'text/plain';
}

/**
 * GET /changes/{id}/revisions/{rev}/files/{path}/content: the file at `rev`, `{path}` being its path
 * there (GetContent → FileContentUtil.getContent; a path the commit does not hold is a 404). The bytes go
 * out base64 as RestApiServlet.stackBase64 writes them: text/plain in ISO-8859-1, X-FYI-Content-Encoding
 * base64 and the file's own type in X-FYI-Content-Type. A request whose only Accept is application/json
 * gets the text as one JSON string instead (stackJsonString, X-FYI-Content-Encoding json).
 */
function contentReply(change: FixtureChange, revision: string, encodedPath: string, accept: string): Reply {
  const ps = patchSetOf(change, revision);
  const filePath = decodeSegment(encodedPath);
  if (ps === undefined || filePath === undefined) return notFound(revision);
  const version = versionAt(change, filePath, ps);
  if (version === null) return notFound(filePath);
  const text = fileVersionToText(version);
  const type = mimeTypeOf(filePath);
  if (accept === 'application/json') {
    return {
      status: 200,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'X-FYI-Content-Encoding': 'json',
        'X-FYI-Content-Type': type,
      },
      body: gerritJson(text, 'compact'),
    };
  }
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/plain; charset=ISO-8859-1',
      'X-FYI-Content-Encoding': 'base64',
      'X-FYI-Content-Type': type,
    },
    body: Buffer.from(text, 'utf8').toString('base64'),
  };
}

/** Every edit between N and `target` of a file is one a rebase brought in. */
function rebasedOnly(change: FixtureChange, path: string, base: number, target: number): boolean {
  if (base === 0 || !(change.rebases ?? []).some((r) => r.ps > base && r.ps <= target)) return false;
  const info = buildDiffInfo({
    pathA: path,
    pathB: path,
    a: versionAt(change, path, base),
    b: versionAt(change, path, target),
    whitespace: 'IGNORE_NONE',
    shas: ['0'.repeat(40), '0'.repeat(40)],
    parents: [parentVersion(change, path, base), parentVersion(change, path, target)],
  });
  return info.content.every((c) => c.ab !== undefined || c.due_to_rebase === true);
}

/**
 * GET /changes/{id}/revisions/{rev}/files?base={N}: every file that differs between N (default: the
 * parent) and rev, keyed by its path at rev; `status` is left out for a modified file, a rename
 * carries `old_path`; `/COMMIT_MSG` is listed as modified, as its header's dates differ between
 * patch sets.
 */
function filesReply(change: FixtureChange, revision: string, params: URLSearchParams, format: JsonFormat): Reply {
  const target = patchSetOf(change, revision);
  const baseParam = params.get('base');
  const base = baseParam === null ? 0 : patchSetOf(change, baseParam);
  if (target === undefined || base === undefined || base >= target) return notFound(revision);
  const out: FilesByPath = { '/COMMIT_MSG': { lines_inserted: 1, lines_deleted: 1, size_delta: 0, size: 420 } };
  const renamedAway = new Set<string>();
  for (const path of Object.keys(change.files).sort()) {
    const pathA = pathAt(change, path, base, target);
    if (pathA !== path) renamedAway.add(pathA);
  }
  for (const path of Object.keys(change.files).sort()) {
    const b = versionAt(change, path, target);
    const pathA = pathAt(change, path, base, target);
    const a = versionAt(change, pathA, base);
    if (b === null && renamedAway.has(path)) continue;
    if (a === null && b === null) continue;
    const aLines = gerritLines(a);
    const bLines = gerritLines(b);
    if (pathA === path && a !== null && b !== null && aLines.join('\n') === bLines.join('\n')) continue;
    // With base=, a file whose only differences came with a rebase is left out (RevisionDiffIT:
    // filesNotTouchedByPatchSetsAndContainingOnlyRebaseHunksAreIgnored).
    if (pathA === path && a !== null && b !== null && rebasedOnly(change, path, base, target)) continue;
    // Counted as Git counts: the "" after a final newline is no line (FileInfo.lines_inserted).
    const real = (lines: string[]) => (lines.at(-1) === '' ? lines.slice(0, -1) : lines);
    const ops = lineDiff(real(aLines), real(bLines));
    const inserted = ops.filter((o) => o.kind === 'add').length;
    const deleted = ops.filter((o) => o.kind === 'del').length;
    const size = Buffer.byteLength(bLines.join('\n'));
    const info: FileInfo = {};
    if (a === null) info.status = 'A';
    else if (b === null) info.status = 'D';
    else if (pathA !== path) info.status = 'R';
    if (pathA !== path) info.old_path = pathA;
    if (inserted > 0) info.lines_inserted = inserted;
    if (deleted > 0) info.lines_deleted = deleted;
    info.size_delta = size - Buffer.byteLength(aLines.join('\n'));
    info.size = size;
    out[path] = info;
  }
  return json(out, format);
}

export function route(store: FixtureStore, method: string, rawUrl: string, robotsTxt: string, accept = ''): Reply {
  if (method !== 'GET' && method !== 'HEAD') return text(405, 'Method Not Allowed\n');
  const q = rawUrl.indexOf('?');
  const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
  const format = formatOf(params, accept);
  // Split before decoding, so a %2F inside a change id or file path stays inside its segment.
  const segments = rawPath
    .replace(/^\/a\//, '/')
    .split('/')
    .slice(1);

  if (rawPath === '/robots.txt') return text(200, robotsTxt);
  if (rawPath === '/config/server/version') return json(store.serverVersion, format);
  if (segments[0] !== 'changes') return notFound();
  if (segments.length === 1 || (segments.length === 2 && segments[1] === '')) {
    const refused = pageRefusal(params, store.indexMaxPages);
    if (refused !== undefined) return text(400, `${refused}\n`);
    // Only the listing is answered from the index; /changes/{id}/comments reads the change itself.
    const listed = listChanges(store.changes, params).map((c) =>
      store.staleCommentCounts.has(c._number as number) ? { ...c, total_comment_count: 0 } : c,
    );
    return json(listed, format);
  }

  const identifier = decodeSegment(segments[1]);
  const change = identifier === undefined ? undefined : store.find(identifier);
  if (!change) return notFound(identifier ?? segments[1]);
  const rest = segments.slice(2);
  if (rest.length === 0 || (rest.length === 1 && rest[0] === 'detail')) {
    const options = new Set(params.getAll('o').map((o) => o.toUpperCase()));
    if (rest[0] === 'detail') options.add('DETAILED_ACCOUNTS');
    return json(shapeChange(change.change, options), format);
  }
  if (rest.length === 1 && rest[0] === 'comments') return json(change.comments, format);
  if (rest.length === 3 && rest[0] === 'revisions' && rest[2] === 'files')
    return filesReply(change, rest[1], params, format);
  if (rest.length === 5 && rest[0] === 'revisions' && rest[2] === 'files' && rest[4] === 'diff') {
    return diffReply(change, rest[1], rest[3], params, format);
  }
  if (rest.length === 5 && rest[0] === 'revisions' && rest[2] === 'files' && rest[4] === 'content')
    return contentReply(change, rest[1], rest[3], accept);
  return notFound();
}
