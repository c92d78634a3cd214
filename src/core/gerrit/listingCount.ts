// How many changes a listing query holds, asked of the host in about 2·log2(N) requests of one change
// each instead of reading N / pageSize pages. Gerrit's /changes/ answers a page from offset S and marks
// its last change `_more_changes: true` when more follow (QueryChanges.java; ChangeJson.java). So a
// probe at S with n=1 says: nothing (N ≤ S), one change and more (N ≥ S + 2), or the last one (N = S + 1).
// Offsets double until a probe finds the end, then a binary search between the last two finds it.
//
// A host may refuse large offsets: Gerrit's `index.maxPages` turns a query whose page (S / n + 1) is
// beyond it into "400 Cannot go beyond page …" (QueryProcessor.java). With n=1 every offset is a page,
// so on a 400 the probes go on with the fetch's own page size, which reaches as far as the fetch can.
// A refusal there too ends the count: the fetch's listing would stop at the same offset.
import type { HostClient } from './hostClient';

export interface ListingCount {
  /** Changes the query lists now; when refusedFrom is set, at least this many. */
  changes: number;
  /** The host refused to list from this offset on, even with the fetch's page size. */
  refusedFrom?: number;
  /** Probes sent (after the robots.txt the client reads first). */
  probes: number;
  /** The page size the probes ended with: 1, or the fetch's after a refusal of n=1. */
  probeSize: number;
}

export class ListingCountError extends Error {}

const MAX_PROBES = 64;

type Probe = { kind: 'page'; items: number; more: boolean } | { kind: 'refused' };

/** `query` as the fetch sends it (`status:merged after:2024-10-01`); `pageSize` is the fetch's. */
export async function countListing(
  client: HostClient,
  query: string,
  pageSize: number,
  signal?: AbortSignal,
): Promise<ListingCount> {
  let size = 1;
  let probes = 0;
  const probe = async (offset: number): Promise<Probe> => {
    for (;;) {
      signal?.throwIfAborted();
      probes++;
      const path = `/changes/?q=${encodeURIComponent(query)}&n=${size}&S=${offset}`;
      const page = await client.getJson<unknown>(path);
      if (!page.ok && page.reason === 'http' && page.status === 400) {
        if (size >= pageSize) return { kind: 'refused' };
        size = pageSize;
        continue;
      }
      if (!page.ok) throw new ListingCountError(page.message);
      if (!Array.isArray(page.value)) throw new ListingCountError(`GET ${path}: the listing is not an array`);
      const last = page.value[page.value.length - 1] as { _more_changes?: unknown } | null | undefined;
      return { kind: 'page', items: page.value.length, more: last?._more_changes === true };
    }
  };

  // The count is known to lie in [low, high].
  let low = 0;
  let high = Number.POSITIVE_INFINITY;
  for (let offset = 0; low < high;) {
    // 2·31 probes reach Gerrit's largest offset (an int) and find any end below it; a host whose
    // listing never ends (one that ignores S) is named instead of probed for ever.
    if (probes >= MAX_PROBES)
      throw new ListingCountError(`no end of the listing found after ${probes} probes (does the host ignore S=?)`);
    const p = await probe(offset);
    if (p.kind === 'refused') return { changes: low, refusedFrom: offset, probes, probeSize: size };
    if (p.items === 0) high = offset;
    else if (!p.more) return { changes: offset + p.items, probes, probeSize: size };
    else low = offset + p.items + 1;
    // Doubling until the end is passed, then halving what is left between the bounds.
    offset = high === Number.POSITIVE_INFINITY ? Math.max(1, low) * 2 : Math.floor((low + high) / 2);
  }
  return { changes: low, probes, probeSize: size };
}
