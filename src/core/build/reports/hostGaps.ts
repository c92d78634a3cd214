// What a host did not record, read from the file, and what it means for the funnel: a rule that could
// not run there reads "not counted" with the reason, a rule that ran only in part says so beside its
// count, and the comment-count probe the fetch recorded goes into the host's report.
import type { CorpusStore } from '../../ground/store/corpusStore';
import type { FunnelTally } from './funnelReport';
import type { LoadedCorpus } from '../stages/loadCorpus';
import { NOT_COUNTED, PARTLY_COUNTED, probeText, type ProbeReport } from './funnelNotes';
import type { ProbeResult } from '../../gerrit/commentCountProbe';

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
  for (const [org, p] of probes) {
    tally.probe(org, p);
    if (p.result === 'failed') tally.notCounted(org, 'no_comments', NOT_COUNTED.probeFailed(p.text));
  }

  store.each(
    'SELECT h.org, count(*) AS n FROM changes c JOIN hosts h ON h.id = c.host_id WHERE c.total_comment_count IS NULL GROUP BY h.org',
    [],
    (r) => tally.notCounted(String(r.org), 'no_comments', NOT_COUNTED.noCommentCounts(Number(r.n))),
  );

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
