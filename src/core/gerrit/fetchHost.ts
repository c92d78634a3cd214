// Fetches one host: list changes page by page, then each change's comments and the diffs the build needs.
// Every step is idempotent and checkpointed in the file, so a killed run resumes without loss or duplicates.
import type { CorpusConfig, HostConfig, WindowConfig } from '../ground/config/types';
import { windowOf } from '../ground/config/windows';
import type { CorpusStore } from '../ground/store/corpusStore';
import { UserError } from '../ground/store/errors';
import { HostClient, type GerritResult } from './hostClient';
import { PSEUDO_FILES, RecordWriter, gerritTime, type StoredComment } from './fetchRecords';
import type { Pseudonymizer } from './pseudonymize';
import { commentsProblem, diffProblem, filesProblem, unreadableChange, unusableListing } from './records';
import type { ChangeInfo, CommentInfo, FilesByPath } from './types';
import { probeCommentCounts, shortcutAllowed } from './commentCountProbe';
import { FetchMeter, type HostProgress } from './fetchProgress';
import { followHost, relistDueKey, type FollowContext } from './followHost';

export type { HostProgress } from './fetchProgress';

export interface HostFetchContext {
  store: CorpusStore;
  config: CorpusConfig;
  host: HostConfig;
  hostId: number;
  windows: WindowConfig[];
  client: HostClient;
  pseudonyms: Pseudonymizer;
  signal?: AbortSignal;
  /** Called after each unit of work; the caller decides when to write the file. */
  checkpoint: () => void;
  /** Called at most this often (default 1 s), and at each change of phase. */
  onProgress?: (p: HostProgress) => void;
  progressEveryMs?: number;
}

const DEFAULT_PAGE = 100;
const DEFAULT_MAX_PAGES = 100_000;
const DEFAULT_MAX_ATTEMPTS = 3;

/**
 * Changes the host failed to return (their comments, a files list or a diff) are fetched again by a
 * later fetch, until a change has been tried maxFetchAttempts times: after the host recovers, one more
 * fetch gives what a fault-free run gives. robots.txt refusals are not retried, nor is a listed record
 * that could not be read (it was never fetched: fetch_attempts 0; a later listing that reads it replaces it).
 */
function retryFailed(store: CorpusStore, hostId: number, maxAttempts: number): void {
  store.run(
    `UPDATE changes SET fetch_state = 'listed', collection_rule = NULL, fetch_error = NULL
     WHERE host_id = ? AND fetch_state = 'done' AND fetch_attempts BETWEEN 1 AND ? - 1 AND (
       collection_rule = 'fetch_error'
       OR (collection_rule IS NULL AND EXISTS (SELECT 1 FROM diffs d WHERE d.change_id = changes.id AND d.fetch_error IS NOT NULL AND d.fetch_error NOT LIKE '%robots.txt disallows%'))
       OR (collection_rule IS NULL AND EXISTS (SELECT 1 FROM file_lists f WHERE f.change_id = changes.id AND f.fetch_error IS NOT NULL AND f.fetch_error NOT LIKE '%robots.txt disallows%')))`,
    [hostId, maxAttempts],
  );
}

export async function fetchHost(ctx: HostFetchContext): Promise<HostProgress> {
  const { store, host, hostId } = ctx;
  const writer = new RecordWriter(store, hostId, ctx.pseudonyms);
  const progress: Omit<HostProgress, 'totals'> = {
    org: host.org,
    phase: 'listing',
    listed: 0,
    changesDone: 0,
    changesTotal: 0,
    requests: 0,
    errors: 0,
    intervalMs: 0,
  };
  const meter = new FetchMeter(store, hostId, ctx.client.stats, ctx.progressEveryMs);
  let last: HostProgress | undefined;
  const report = () => {
    progress.requests = ctx.client.stats.requests;
    progress.errors = ctx.client.stats.errors;
    progress.intervalMs = ctx.client.currentIntervalMs();
    const shown = meter.due(progress);
    if (shown) ctx.onProgress?.((last = shown));
  };
  try {
    return await fetchHostRun(ctx, writer, progress, report, () => last!);
  } finally {
    // Also after a stop or a failure: the next save keeps what this run asked of the host.
    try {
      meter.persist();
    } catch {
      // The file cannot be written: the error already on its way says why, and better than this would.
    }
  }
}

async function fetchHostRun(
  ctx: HostFetchContext,
  writer: RecordWriter,
  progress: Omit<HostProgress, 'totals'>,
  report: () => void,
  lastShown: () => HostProgress,
): Promise<HostProgress> {
  const { store, host, hostId } = ctx;

  let cp = store.get<{ phase: 'listing' | 'changes' | 'done'; list_offset: number; high_water: string | null }>(
    'SELECT phase, list_offset, high_water FROM fetch_checkpoints WHERE host_id = ?',
    [hostId],
  );
  if (!cp || cp.phase === 'done') {
    const since = newRunSince(cp?.high_water ?? null, ctx.config.start);
    setCheckpoint(store, hostId, 'listing', 0, cp?.high_water ?? null, since);
    // A fetch after a finished one follows the host: changes gone from it are found (followHost.ts).
    if (cp) store.setMeta(relistDueKey(hostId), cp.high_water ?? '');
    cp = { phase: 'listing', list_offset: 0, high_water: cp?.high_water ?? null };
  }

  await recordServerVersion(ctx);
  // After a failed comment-count probe, a listing's count of 0 is never trusted on this host again.
  const trustCounts = shortcutAllowed(store, hostId);

  if (cp.phase === 'listing') {
    const listed = await listChanges(ctx, writer, cp, trustCounts, (n) => {
      progress.listed += n;
      report();
    }).catch((e: unknown) => {
      report();
      throw e;
    });
    cp = { phase: 'changes', list_offset: listed.offset, high_water: listed.highWater };
  }

  progress.phase = 'changes';
  // Before any change is fetched, so a failed probe's changes join this run's pending list.
  if (trustCounts) {
    await probeCommentCounts(store, hostId, host, ctx.client, ctx.signal);
    ctx.checkpoint();
  }
  if (store.getMeta(relistDueKey(hostId)) !== undefined) await followHost(followContext(ctx), writer);
  retryFailed(store, hostId, host.maxFetchAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const pending = store.all<{ id: number; number: number; owner: string | null }>(
    "SELECT id, number, owner FROM changes WHERE host_id = ? AND fetch_state = 'listed' AND collection_rule IS NULL ORDER BY id",
    [hostId],
  );
  progress.changesTotal = pending.length;
  report();
  for (const change of pending) {
    ctx.signal?.throwIfAborted();
    await fetchChangeGuarded(ctx, writer, change);
    progress.changesDone++;
    report();
    ctx.checkpoint();
  }
  store.transaction(() => setCheckpoint(store, hostId, 'done', 0, cp!.high_water));
  progress.phase = 'done';
  report();
  return lastShown();
}

/** What the re-list of the whole range needs: the fetch's own query from the corpus start, and its pages. */
function followContext(ctx: HostFetchContext): FollowContext {
  return {
    ...ctx,
    query: listingQuery(ctx.host, ctx.config.start),
    pageSize: listingPageSize(ctx.host),
    maxPages: ctx.host.maxListingPages ?? DEFAULT_MAX_PAGES,
  };
}

/** A new run lists from the last high-water mark (a date): only new or updated changes come back. */
export function newRunSince(highWater: string | null, start: string): string {
  return highWater && highWater.slice(0, 10) > start ? highWater.slice(0, 10) : start;
}

/** Changes per listing page. */
export function listingPageSize(host: HostConfig): number {
  return host.pageSize ?? DEFAULT_PAGE;
}

/** The listing query of a run that lists changes updated since `since` (a date). */
export function listingQuery(host: HostConfig, since: string): string {
  return `${host.query} after:${since}`;
}

interface ListingState {
  offset: number;
  highWater: string | null;
  /** The page size asked now: the host's, or less after an answer too large to read. */
  asked: number;
}

/**
 * Lists the host's changes from the checkpoint on, page by page, each page stored in one transaction
 * with the checkpoint after it; `onPage` hears how many records each page brought.
 */
async function listChanges(
  ctx: HostFetchContext,
  writer: RecordWriter,
  cp: { list_offset: number; high_water: string | null },
  trustCounts: boolean,
  onPage: (records: number) => void,
): Promise<{ offset: number; highWater: string | null }> {
  const { store, host, hostId } = ctx;
  const since = String(
    store.scalar('SELECT value FROM meta WHERE key = ?', [`fetch_since:${hostId}`]) ?? ctx.config.start,
  );
  const pageSize = listingPageSize(host);
  const maxPages = host.maxListingPages ?? DEFAULT_MAX_PAGES;
  const state: ListingState = { offset: cp.list_offset, highWater: cp.high_water, asked: pageSize };
  // A host whose _more_changes never ends must not keep us listing: a page that brings no change this
  // run has not seen, or the page bound, ends the listing, and the cut is counted.
  const seenThisRun = new Set<number>();
  let pages = 0;
  let listing = true;
  while (listing) {
    ctx.signal?.throwIfAborted();
    const q = encodeURIComponent(listingQuery(host, since));
    const page = await listingPage(
      ctx,
      writer,
      state,
      pageSize,
      (n) => `/changes/?q=${q}&o=ALL_REVISIONS&o=DETAILED_ACCOUNTS&n=${n}`,
    );
    if (page === null) continue;
    pages++;
    const numbers = page.value
      .map((c) => (c as { _number?: unknown } | null)?._number)
      .filter((n): n is number => typeof n === 'number');
    const fresh = numbers.filter((n) => !seenThisRun.has(n));
    for (const n of numbers) seenThisRun.add(n);
    const cut =
      page.value.length > 0 && fresh.length === 0
        ? 'a page brought no change not listed already'
        : pages >= maxPages
          ? `${maxPages} pages read (maxListingPages)`
          : null;
    store.transaction(() => {
      for (const c of page.value) {
        const updated = listRecord(ctx, writer, page.path, c, trustCounts);
        if (updated !== null && (!state.highWater || updated > state.highWater)) state.highWater = updated;
      }
      state.offset += page.value.length;
      const last = page.value[page.value.length - 1] as ChangeInfo | undefined;
      const more = cut === null && last?._more_changes === true;
      if (cut !== null && last?._more_changes === true) writer.listingCut(page.path, cut);
      setCheckpoint(store, hostId, more ? 'listing' : 'changes', state.offset, state.highWater);
      listing = more;
    });
    onPage(page.value.length);
    ctx.checkpoint();
  }
  return { offset: state.offset, highWater: state.highWater };
}

/**
 * The listing page at `state.offset`, or null when there is none to store this time: an answer too
 * large to read is asked again as smaller pages, down to one change, and a change whose listing alone
 * is too large is skipped and counted, so it cannot stop the listing. Any other failure ends the host's
 * fetch (without the listing nothing else can go on; the checkpoint keeps the offset).
 */
async function listingPage(
  ctx: HostFetchContext,
  writer: RecordWriter,
  state: ListingState,
  pageSize: number,
  pathFor: (n: number) => string,
): Promise<{ path: string; value: ChangeInfo[] } | null> {
  const path = `${pathFor(state.asked)}&S=${state.offset}`;
  const page = await ctx.client.getJson<ChangeInfo[]>(path);
  if (!page.ok && page.reason === 'oversized') {
    if (state.asked > 1) state.asked = Math.ceil(state.asked / 2);
    else {
      ctx.store.transaction(() => {
        writer.rejectListed(path, page.message);
        state.offset += 1;
        setCheckpoint(ctx.store, ctx.hostId, 'listing', state.offset, state.highWater);
      });
      state.asked = Math.min(pageSize, 2);
    }
    return null;
  }
  state.asked = Math.min(pageSize, state.asked * 2);
  if (!page.ok || !Array.isArray(page.value))
    throw new HostListingError(ctx.host.org, page.ok ? 'listing is not an array' : page.message);
  return { path, value: page.value };
}

/**
 * Stores one listed record and returns its `updated` time, or null when it could not be read. One bad
 * record never stops the host: it is counted, and the rest of the page goes on. Anything that throws
 * while it is stored (a shape the boundary did not foresee) undoes that record alone (store.unit) and
 * makes it a fetch_error with the error's text.
 */
function listRecord(
  ctx: HostFetchContext,
  writer: RecordWriter,
  path: string,
  c: ChangeInfo,
  trustCounts: boolean,
): string | null {
  const unusable = unusableListing(c);
  if (unusable) {
    writer.rejectListed(path, unusable);
    return null;
  }
  const unreadable = unreadableChange(c);
  if (unreadable) {
    writer.unreadableChange(c._number as number, unreadable);
    return null;
  }
  try {
    return ctx.store.unit(() => {
      const decision = listingDecision(ctx, c, ctx.store, ctx.hostId, trustCounts);
      if (decision !== 'unchanged') writer.change(c, decision);
      return gerritTime(c.updated) as string;
    });
  } catch (e) {
    if (!isRecordError(e)) throw e;
    ctx.store.unit(() => writer.unreadableChange(c._number as number, `could not be stored: ${errorText(e)}`));
    return null;
  }
}

/**
 * Whether `e`, thrown while one record was handled, belongs to that record alone. Cancellation and a
 * damaged or unwritable corpus file (UserError) stop the fetch; everything else is the record's.
 */
function isRecordError(e: unknown): boolean {
  return !(e instanceof UserError) && !(e instanceof Error && e.name === 'AbortError');
}

/** An error's text for a fetch_error reason: its first line, at most 300 characters. */
function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split('\n')[0].slice(0, 300);
}

/** Gerrit 3.3 put account tags (SERVICE_USER) on the REST API (its release notes: "Expose 'Service User' tag"). */
const TAGS_SINCE: readonly [number, number] = [3, 3];

/**
 * The host's Gerrit version (GET /config/server/version), once per host: it tells whether the accounts
 * we receive could carry tags at all. We always ask for detailed accounts (listing DETAILED_ACCOUNTS;
 * comment authors are always detailed), and Gerrit omits an empty `tags`, so an account without tags
 * proves nothing; only the version does. Unknown stays NULL, which the funnel reports as not counted.
 */
async function recordServerVersion(ctx: HostFetchContext): Promise<void> {
  if (ctx.store.scalar('SELECT account_tags FROM hosts WHERE id = ?', [ctx.hostId]) !== null) return;
  const r = await ctx.client.getJson<unknown>('/config/server/version');
  const version = r.ok && typeof r.value === 'string' ? r.value : null;
  const m = version ? /^(\d+)\.(\d+)/.exec(version) : null;
  const tags =
    m === null
      ? null
      : Number(m[1]) > TAGS_SINCE[0] || (Number(m[1]) === TAGS_SINCE[0] && Number(m[2]) >= TAGS_SINCE[1])
        ? 'supported'
        : 'unsupported';
  ctx.store.run('UPDATE hosts SET server_version = ?, account_tags = ? WHERE id = ?', [
    version === null ? null : version.slice(0, 40),
    tags,
    ctx.hostId,
  ]);
}

export class HostListingError extends Error {
  constructor(
    readonly org: string,
    reason: string,
  ) {
    super(`${org}: could not list changes (${reason})`);
  }
}

function setCheckpoint(
  store: CorpusStore,
  hostId: number,
  phase: string,
  offset: number,
  highWater: string | null,
  since?: string,
): void {
  store.run(
    `INSERT INTO fetch_checkpoints(host_id, phase, list_offset, high_water, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(host_id) DO UPDATE SET phase = excluded.phase, list_offset = excluded.list_offset, high_water = excluded.high_water, updated_at = excluded.updated_at`,
    [hostId, phase, offset, highWater, new Date().toISOString()],
  );
  if (since !== undefined) store.setMeta(`fetch_since:${hostId}`, since);
}

/**
 * The collection rule a listed change falls under, or null when it is to be fetched.
 * A change already fetched and not updated since is 'unchanged': it keeps its records and costs nothing.
 */
function listingDecision(
  ctx: HostFetchContext,
  c: ChangeInfo,
  store: CorpusStore,
  hostId: number,
  trustCounts: boolean,
): string | null | 'unchanged' {
  const created = gerritTime(c.created) as string; // unreadableChange checked it
  if (created.slice(0, 10) < ctx.config.start) return 'created_before_start';
  if (c.status !== 'MERGED') return 'not_merged';
  if (c.total_comment_count === 0 && trustCounts) return 'no_comments';
  const w = windowOf(ctx.windows, created);
  if (w?.sealed) return 'sealed_window';
  const existing = store.get<{ updated: string; fetch_state: string; collection_rule: string | null }>(
    'SELECT updated, fetch_state, collection_rule FROM changes WHERE host_id = ? AND number = ?',
    [hostId, c._number as number],
  );
  if (
    existing &&
    existing.fetch_state === 'done' &&
    existing.updated === gerritTime(c.updated) &&
    existing.collection_rule !== 'sealed_window'
  ) {
    return 'unchanged';
  }
  return null;
}

/**
 * fetchChange, where anything it throws but a cancellation or a damaged corpus file ends this change
 * alone: what it wrote in the failed step is rolled back, and the change is a fetch_error with the
 * error's text, counted like any other. The next change is fetched; the change is not retried for
 * ever (fetch_attempts, as for a host error).
 */
async function fetchChangeGuarded(
  ctx: HostFetchContext,
  writer: RecordWriter,
  change: { id: number; number: number; owner: string | null },
): Promise<void> {
  try {
    await fetchChange(ctx, writer, change);
  } catch (e) {
    if (!isRecordError(e) || ctx.signal?.aborted) throw e;
    const reason = `/changes/${change.number}: could not be stored: ${errorText(e)}`;
    ctx.store.transaction(() => writer.finishChange(change.id, 'fetch_error', writer.scrub(reason)));
  }
}

async function fetchChange(
  ctx: HostFetchContext,
  writer: RecordWriter,
  change: { id: number; number: number; owner: string | null },
): Promise<void> {
  const { store } = ctx;
  const commentsPath = `/changes/${change.number}/comments`;
  const comments = await ctx.client.getJson<Record<string, CommentInfo[]>>(commentsPath);
  const commentsBad = comments.ok ? commentsProblem(comments.value) : null;
  if (!comments.ok && comments.status === 404) {
    // Deleted, made private or hidden since it was listed: gone, with whatever it had stored kept.
    store.transaction(() => (writer.gone(change.number, 404), writer.finishChange(change.id, null, null)));
    return;
  }
  if (!comments.ok || commentsBad) {
    const rule = !comments.ok && comments.reason === 'disallowed' ? 'disallowed' : 'fetch_error';
    const message = comments.ok ? `${commentsPath}: ${commentsBad}` : comments.message;
    store.transaction(() => {
      writer.logRequest(commentsPath, comments.ok ? comments.status : (comments.status ?? 0), message);
      writer.finishChange(change.id, rule, message);
    });
    return;
  }
  const stored = store.transaction(() => writer.comments(change.id, comments.value));
  const needed = filesNeeded(ctx, change, stored);
  const lists: { base: number; result: GerritResult<unknown> }[] = [];
  const diffs: { path: string; base: number; target: string; result?: GerritResult<unknown>; error?: string }[] = [];
  for (const [base, paths] of needed) {
    ctx.signal?.throwIfAborted();
    const result = await ctx.client.getJson(`/changes/${change.number}/revisions/${base + 1}/files?base=${base}`);
    lists.push({ base, result });
    const filesBad = result.ok ? filesProblem(result.value) : result.message;
    const files = filesBad === null && result.ok ? (result.value as FilesByPath) : undefined;
    for (const path of paths) {
      if (!files) {
        diffs.push({ path, base, target: path, error: filesBad ?? 'files list failed' });
        continue;
      }
      const target = pathInNext(files, path);
      if (target === undefined) continue;
      ctx.signal?.throwIfAborted();
      // Whole files, whitespace kept: Gerrit's default ignores leading and trailing whitespace, which
      // would turn a re-indent (a real answer to "use four spaces") into common lines.
      const diffPath = `/changes/${change.number}/revisions/${base + 1}/files/${encodeURIComponent(target)}/diff?base=${base}&context=ALL&whitespace=IGNORE_NONE`;
      diffs.push({ path, base, target, result: await ctx.client.getJson(diffPath) });
    }
  }
  storeFilesAndDiffs(ctx, writer, change.id, lists, diffs);
}

/**
 * The patch-set pairs whose files list and diffs a comment needs: for each patch set N with an N + 1,
 * the paths of the comments on N that pass the cheap rules (so a bot's or the owner's costs no request).
 */
function filesNeeded(
  ctx: HostFetchContext,
  change: { id: number; owner: string | null },
  stored: ReturnType<RecordWriter['comments']>,
): Map<number, Set<string>> {
  const { store } = ctx;
  const patchSets = new Set(
    store
      .all<{ patch_set: number }>('SELECT patch_set FROM revisions WHERE change_id = ?', [change.id])
      .map((r) => r.patch_set),
  );
  const bots = new Set(
    store
      .all<{ pseudonym: string }>('SELECT pseudonym FROM accounts WHERE host_id = ? AND is_bot = 1', [ctx.hostId])
      .map((r) => r.pseudonym),
  );
  // The files of N + 1 against N, once per patch-set pair a comment needs: they say where each file
  // went (a rename's old_path) and which files N + 1 left alone, which then need no diff at all.
  const needed = new Map<number, Set<string>>();
  for (const c of stored) {
    if (!passesCheapRules(c, change.owner, bots) || c.patchSet === null || !patchSets.has(c.patchSet + 1)) continue;
    let paths = needed.get(c.patchSet);
    if (!paths) needed.set(c.patchSet, (paths = new Set()));
    paths.add(c.path);
  }
  return needed;
}

/** Stores one change's files lists and diffs (or why each is missing) and marks the change fetched, at once. */
function storeFilesAndDiffs(
  ctx: HostFetchContext,
  writer: RecordWriter,
  changeId: number,
  lists: { base: number; result: GerritResult<unknown> }[],
  diffs: { path: string; base: number; target: string; result?: GerritResult<unknown>; error?: string }[],
): void {
  const { store } = ctx;
  const created = String(store.scalar('SELECT created FROM changes WHERE id = ?', [changeId]));
  store.transaction(() => {
    for (const l of lists) {
      const problem = l.result.ok ? filesProblem(l.result.value) : l.result.message;
      writer.fileList(
        changeId,
        l.base,
        problem === null && l.result.ok ? JSON.stringify(l.result.value) : null,
        problem,
      );
    }
    for (const d of diffs) {
      const r = d.result;
      const problem = d.error ?? (r === undefined ? 'not requested' : r.ok ? diffProblem(r.value) : r.message);
      writer.diff(
        changeId,
        d.path,
        d.base,
        problem === null && r?.ok ? JSON.stringify(r.value) : null,
        problem,
        d.target === d.path ? null : d.target,
      );
    }
    writer.finishChange(changeId, null, null);
    const w = windowOf(ctx.windows, created);
    if (w) store.run('UPDATE windows SET fetched = 1 WHERE name = ?', [w.name]);
  });
}

/**
 * Where a file of patch set N is in N + 1, by N + 1's files list against N: the same path when it is
 * listed (modified, added or deleted: a deleted file's diff is one-sided), the new path of a rename,
 * and undefined when the list leaves it out (N + 1 did not change it). A copy leaves the original in
 * place, so only renames are followed.
 */
export function pathInNext(files: FilesByPath, path: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(files, path)) return path;
  for (const [next, info] of Object.entries(files)) {
    if (info && info.status === 'R' && info.old_path === path) return next;
  }
  return undefined;
}

/** The build's cheap comment rules, applied here so no diff is fetched for a comment they remove. */
function passesCheapRules(c: StoredComment, owner: string | null, bots: ReadonlySet<string>): boolean {
  return (
    !PSEUDO_FILES.has(c.path) && c.author !== owner && !(c.author !== null && bots.has(c.author)) && c.line !== null
  );
}
