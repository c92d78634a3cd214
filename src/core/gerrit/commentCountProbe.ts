// The comment-count probe (docs/user-guide.md; Qt's stale index): a listing's total_comment_count 0
// lets the fetch skip a change (no_comments), but real Gerrit can list 0 for a change that has
// comments. On a query answered from the change index, ChangeData.totalCommentCount() returns the
// count the index entry stored (setTotalCommentCount) and computes it from the change's notes only
// when lazily loaded
// (GerritCodeReview/gerrit java/com/google/gerrit/server/query/change/ChangeData.java @
// 9a0cab9f25b9168bb11b7c53ae905272a99140bd), while GET /changes/{id}/comments reads the notes
// (ListChangeComments). So the count is only as fresh as the change's index entry. Before trusting it
// on a host, comments are fetched for a seeded random sample of those changes; the probe holds only
// when none has an inline comment, and otherwise the host is fetched without the shortcut.
import type { CorpusStore } from '../ground/store/corpusStore';
import type { HostConfig } from '../ground/config/types';
import type { HostClient } from './hostClient';
import { PSEUDO_FILES } from './fetchRecords';
import { commentsProblem } from './records';
import type { CommentInfo } from './types';
import { mulberry32 } from '../ground/stats/bootstrap'; // fixed: a seed draws the same on every platform

/** The schema's defaults (corpusSchema.ts, hosts[].probe), for a host whose config names no probe. */
export const DEFAULT_PROBE = { sample: 50, seed: 20241001 } as const;

export type ProbeResult = 'held' | 'failed' | 'none';

export interface ProbeRecord {
  sample: number;
  seed: number;
  /** Changes the host listed with total_comment_count 0 when the probe ran. */
  candidates: number;
  /** Sampled changes whose comments were read. */
  probed: number;
  /** Of those, the changes with an inline comment (on a file, not on a Gerrit pseudo-file). */
  withComments: number;
  /** Sampled changes whose comments the host would not return. */
  unreadable: number;
  result: ProbeResult;
  probedAt: string;
}

export function probeSettings(host: HostConfig): { sample: number; seed: number } {
  return { sample: host.probe?.sample ?? DEFAULT_PROBE.sample, seed: host.probe?.seed ?? DEFAULT_PROBE.seed };
}

/** `n` of `numbers` drawn without replacement by a seeded partial Fisher–Yates shuffle, in draw order. */
export function seededSample(numbers: readonly number[], n: number, seed: number): number[] {
  const pool = [...numbers].sort((x, y) => x - y); // the draw depends on the set, not the listing order
  const next = mulberry32(seed);
  const k = Math.min(n, pool.length);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, k);
}

export function storedProbe(store: CorpusStore, hostId: number): ProbeRecord | undefined {
  const r = store.get<{
    sample: number;
    seed: number;
    candidates: number;
    probed: number;
    with_comments: number;
    unreadable: number;
    result: string;
    probed_at: string;
  }>(
    'SELECT sample, seed, candidates, probed, with_comments, unreadable, result, probed_at FROM comment_count_probes WHERE host_id = ?',
    [hostId],
  );
  return (
    r && {
      sample: r.sample,
      seed: r.seed,
      candidates: r.candidates,
      probed: r.probed,
      withComments: r.with_comments,
      unreadable: r.unreadable,
      result: r.result as ProbeResult,
      probedAt: r.probed_at,
    }
  );
}

/** Whether the host's listing count of 0 may be trusted now: never after a failed probe. */
export function shortcutAllowed(store: CorpusStore, hostId: number): boolean {
  return storedProbe(store, hostId)?.result !== 'failed';
}

const hasInlineComment = (byPath: Record<string, CommentInfo[]>) =>
  Object.entries(byPath).some(([path, list]) => !PSEUDO_FILES.has(path) && Array.isArray(list) && list.length > 0);

/**
 * Runs the probe once the listing is stored, unless the host has one recorded that held or failed (a
 * resumed or later fetch keeps it; 'none' is tried again, since later listings may bring such changes).
 * Its requests go through the host's one client, so they are paced like the rest. Nothing the host
 * sends is stored but the counts: a failed probe hands every skipped change to the ordinary fetch.
 */
export async function probeCommentCounts(
  store: CorpusStore,
  hostId: number,
  host: HostConfig,
  client: HostClient,
  signal?: AbortSignal,
): Promise<ProbeRecord> {
  const recorded = storedProbe(store, hostId);
  if (recorded && recorded.result !== 'none') return recorded;
  const { sample, seed } = probeSettings(host);
  const candidates = store
    .all<{ number: number }>("SELECT number FROM changes WHERE host_id = ? AND collection_rule = 'no_comments'", [
      hostId,
    ])
    .map((r) => r.number);
  const drawn = seededSample(candidates, sample, seed);
  const withComments: number[] = [];
  let unreadable = 0;
  for (const number of drawn) {
    signal?.throwIfAborted();
    const r = await client.getJson<Record<string, CommentInfo[]>>(`/changes/${number}/comments`);
    if (!r.ok || commentsProblem(r.value)) unreadable++;
    else if (hasInlineComment(r.value)) withComments.push(number);
  }
  signal?.throwIfAborted();
  // A sample the host would not return in full cannot vouch for the count either.
  const result: ProbeResult =
    drawn.length === 0 ? 'none' : withComments.length === 0 && unreadable === 0 ? 'held' : 'failed';
  const record: ProbeRecord = {
    sample,
    seed,
    candidates: candidates.length,
    probed: drawn.length - unreadable,
    withComments: withComments.length,
    unreadable,
    result,
    probedAt: new Date().toISOString(),
  };
  store.transaction(() => {
    store.run(
      `INSERT INTO comment_count_probes(host_id, sample, seed, candidates, probed, with_comments, unreadable, result, sampled, with_comments_changes, probed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(host_id) DO UPDATE SET sample = excluded.sample, seed = excluded.seed, candidates = excluded.candidates, probed = excluded.probed,
         with_comments = excluded.with_comments, unreadable = excluded.unreadable, result = excluded.result, sampled = excluded.sampled,
         with_comments_changes = excluded.with_comments_changes, probed_at = excluded.probed_at`,
      [
        hostId,
        sample,
        seed,
        record.candidates,
        record.probed,
        record.withComments,
        unreadable,
        result,
        JSON.stringify(drawn),
        JSON.stringify(withComments),
        record.probedAt,
      ],
    );
    // Without the shortcut: every change the listing skipped for its count is fetched like any other.
    if (result === 'failed')
      store.run(
        "UPDATE changes SET collection_rule = NULL, fetch_state = 'listed' WHERE host_id = ? AND collection_rule = 'no_comments'",
        [hostId],
      );
  });
  return record;
}
