// Following the host over time (docs/crawling.md, "Following the host"). A change deleted on the host,
// made private or in a project now hidden leaves the listing instead of showing as updated, so the
// listing from the high-water mark never sees it go. A later fetch therefore re-lists the whole range
// (one light request per page: numbers only, no revisions or accounts), and confirms each stored change
// the re-list no longer holds with one request of its own: a 404 marks it gone_from_host, with its
// earlier records kept; an answer means the re-list missed it (a change updated while the pages were
// read moves to the front of Gerrit's order), and it stays.
import type { CorpusStore } from '../ground/store/corpusStore';
import type { RecordWriter } from './fetchRecords';
import type { HostClient } from './hostClient';

export interface FollowContext {
  store: CorpusStore;
  hostId: number;
  client: HostClient;
  /** The listing query of the whole range (the corpus start on), as the fetch lists it. */
  query: string;
  pageSize: number;
  maxPages: number;
  signal?: AbortSignal;
  /** Called after each unit of work; the caller decides when to write the file. */
  checkpoint: () => void;
}

export interface FollowResult {
  /** Listing pages asked for the re-list. */
  pages: number;
  /** Whether the re-list read the range to its end; only then is a change missing from it confirmed. */
  complete: boolean;
  /** Stored changes the re-list did not hold, each asked for once. */
  confirmed: number;
  /** Of those, the ones the host answered 404 for: now gone_from_host. */
  gone: number;
}

/** The meta key that says a re-list is due on this host: set when a fetch after a finished one starts. */
export const relistDueKey = (hostId: number): string => `relist_due:${hostId}`;

/**
 * Re-lists the range and confirms the stored changes missing from it. A page that fails, or a listing
 * that does not end, leaves the re-list incomplete: nothing is confirmed, the reason is logged and
 * counted (relist_incomplete), and the next fetch re-lists again. It never stops the fetch.
 */
export async function followHost(ctx: FollowContext, writer: RecordWriter): Promise<FollowResult> {
  const listed = await relist(ctx, writer);
  if (!listed.complete) {
    writer.count('relist_incomplete');
    ctx.checkpoint();
    return { pages: listed.pages, complete: false, confirmed: 0, gone: 0 };
  }
  ctx.store.transaction(() => {
    for (const n of listed.numbers) writer.present(n);
  });
  const missing = ctx.store
    .all<{ number: number }>(
      'SELECT number FROM changes WHERE host_id = ? AND gone_from_host IS NULL ORDER BY number',
      [ctx.hostId],
    )
    .map((r) => r.number)
    .filter((n) => !listed.numbers.has(n));
  let gone = 0;
  for (const number of missing) {
    ctx.signal?.throwIfAborted();
    const path = `/changes/${number}`;
    const r = await ctx.client.getJson<unknown>(path);
    ctx.store.transaction(() => {
      if (!r.ok && r.status === 404) {
        writer.gone(number, 404);
        gone++;
      } else if (!r.ok && r.reason !== 'disallowed') {
        writer.count('gone_unconfirmed');
        writer.logRequest(path, r.status ?? 0, `not confirmed gone: ${r.message}`);
      }
    });
    ctx.checkpoint();
  }
  ctx.store.transaction(() => ctx.store.run('DELETE FROM meta WHERE key = ?', [relistDueKey(ctx.hostId)]));
  ctx.checkpoint();
  return { pages: listed.pages, complete: true, confirmed: missing.length, gone };
}

/** The numbers the listing holds now, page by page, and whether it was read to its end. */
async function relist(
  ctx: FollowContext,
  writer: RecordWriter,
): Promise<{ numbers: Set<number>; pages: number; complete: boolean }> {
  const numbers = new Set<number>();
  const q = encodeURIComponent(ctx.query);
  let offset = 0;
  let pages = 0;
  for (;;) {
    ctx.signal?.throwIfAborted();
    const path = `/changes/?q=${q}&n=${ctx.pageSize}&S=${offset}`;
    const page = await ctx.client.getJson<unknown>(path);
    pages++;
    if (!page.ok || !Array.isArray(page.value)) {
      const why = page.ok ? 'listing is not an array' : page.message;
      ctx.store.transaction(() =>
        writer.logRequest(path, page.ok ? page.status : (page.status ?? 0), `re-list: ${why}`),
      );
      return { numbers, pages, complete: false };
    }
    const records = page.value as unknown[];
    let fresh = 0;
    for (const c of records) {
      const n = (c as { _number?: unknown } | null)?._number;
      if (typeof n === 'number' && Number.isSafeInteger(n) && !numbers.has(n)) {
        numbers.add(n);
        fresh++;
      }
    }
    const more = (records[records.length - 1] as { _more_changes?: unknown } | undefined)?._more_changes === true;
    if (!more) return { numbers, pages, complete: true };
    // A host whose _more_changes never ends must not keep us listing (as in the fetch's own listing).
    const cut =
      fresh === 0 ? 'a page brought no change not listed already' : pages >= ctx.maxPages ? 'maxListingPages' : null;
    if (cut) {
      ctx.store.transaction(() => writer.logRequest(path, page.status, `re-list cut short: ${cut}`));
      return { numbers, pages, complete: false };
    }
    offset += records.length;
  }
}
