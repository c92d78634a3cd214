// What a host did not record, read from the file, and what it means for the funnel: a rule that could
// not run there reads "not counted" with the reason, a rule that ran only in part says so beside its
// count, and the comment-count probe the fetch recorded goes into the host's report.
import type { CorpusStore } from '../../ground/store/corpusStore';
import type { FunnelTally } from './funnelReport';
import type { ChangeRec, LoadedCorpus } from '../stages/loadCorpus';
import { NOT_COUNTED, PARTLY_COUNTED, probeText, type ProbeReport } from './funnelNotes';
import type { ProbeResult } from '../../gerrit/commentCountProbe';
import { COLLECTION_RULES } from '../../rules/funnel';
import { noComments } from '../../rules/collection/noComments';

export function applyHostGaps(
  store: CorpusStore,
  corpus: Pick<LoadedCorpus, 'changes' | 'withoutAccountTags'>,
  tally: FunnelTally,
): void {
  const probes = new Map<string, ProbeReport>();
  store.each(
    `SELECT h.org, p.sample, p.seed, p.candidates, p.probed, p.with_comments, p.unreadable, p.result, p.probed_at
     FROM comment_count_probes p JOIN hosts h ON h.id = p.host_id`,
    [],
    (r) => {
      const p = {
        sample: Number(r.sample),
        seed: Number(r.seed),
        candidates: Number(r.candidates),
        probed: Number(r.probed),
        with_comments: Number(r.with_comments),
        unreadable: Number(r.unreadable),
        result: String(r.result) as ProbeResult,
        probed_at: String(r.probed_at),
      };
      probes.set(String(r.org), { ...p, text: probeText(p) });
    },
  );
  const probeFailed = new Set<string>();
  for (const [org, p] of probes) {
    tally.probe(org, p);
    if (p.result !== 'failed') continue;
    tally.notCounted(org, noComments.id, NOT_COUNTED.probeFailed(p.text));
    probeFailed.add(org);
  }
  applyCommentCountGaps(store, corpus, tally, probeFailed);

  const versions = new Map<string, string | null>();
  store.each('SELECT org, server_version FROM hosts', [], (r) =>
    versions.set(String(r.org), r.server_version === null ? null : String(r.server_version)),
  );
  for (const org of corpus.withoutAccountTags) {
    const why = NOT_COUNTED.accountTags(versions.get(org) ?? null);
    tally.notCounted(org, 'bot_account_service_user', why);
    tally.partly(org, 'bot_account', PARTLY_COUNTED.botTags(why));
  }

  store.each(
    'SELECT h.org, count(*) AS n FROM accounts a JOIN hosts h ON h.id = a.host_id WHERE a.names_checked IS NULL AND a.is_bot = 0 GROUP BY h.org',
    [],
    (r) => {
      const why = NOT_COUNTED.nameChecks(Number(r.n));
      tally.notCounted(String(r.org), 'bot_account_name_pattern', why);
      tally.partly(String(r.org), 'bot_account', PARTLY_COUNTED.botNames(why));
    },
  );

  // not_merged cannot check a change whose status was stored before the fetch kept it (status_unrecorded).
  const unchecked = new Map<string, number>();
  for (const c of corpus.changes.values())
    if (!c.removal && c.statusUnrecorded) unchecked.set(c.org, (unchecked.get(c.org) ?? 0) + 1);
  for (const [org, n] of unchecked) tally.partly(org, 'not_merged', PARTLY_COUNTED.status(n));
}

/** no_comments and the collection rules after it: a change one of these removed reached no_comments. */
const FROM_NO_COMMENTS = new Set(COLLECTION_RULES.slice(COLLECTION_RULES.indexOf(noComments)).map((r) => r.id));

/**
 * no_comments per organization and per window: of the M changes that reached it (no earlier collection
 * rule removed them), the N listed without total_comment_count were fetched instead, so its count is a
 * lower bound ("partly counted: N of M"); when N = M it could not run at all and reads not counted. On
 * a host whose probe failed no change was skipped for its count: that reason, on every row, stands alone.
 */
function applyCommentCountGaps(
  store: CorpusStore,
  corpus: Pick<LoadedCorpus, 'changes'>,
  tally: FunnelTally,
  probeFailed: ReadonlySet<string>,
): void {
  const reachedNoComments = (c: ChangeRec) => c.removal === null || FROM_NO_COMMENTS.has(c.removal.rule);
  // Keyed `${org}\0` for the organization's row and `${org}\0${window}` for a window's.
  const reached = new Map<string, number>();
  const without = new Map<string, number>();
  const add = (map: Map<string, number>, c: ChangeRec) => {
    map.set(`${c.org}\0`, (map.get(`${c.org}\0`) ?? 0) + 1);
    if (c.window) map.set(`${c.org}\0${c.window.name}`, (map.get(`${c.org}\0${c.window.name}`) ?? 0) + 1);
  };
  const counts = (c: ChangeRec) => !probeFailed.has(c.org) && reachedNoComments(c);
  for (const c of corpus.changes.values()) if (counts(c)) add(reached, c);
  store.each('SELECT id FROM changes WHERE total_comment_count IS NULL', [], (r) => {
    const c = corpus.changes.get(Number(r.id));
    if (c && counts(c)) add(without, c);
  });
  for (const [key, n] of without) {
    const [org, window] = key.split('\0');
    const m = reached.get(key)!;
    const scope = window === '' ? 'org' : { window };
    if (n === m) tally.notCounted(org, noComments.id, NOT_COUNTED.noCommentCounts(m), scope);
    else tally.partly(org, noComments.id, PARTLY_COUNTED.commentCounts(n, m), scope);
  }
}
