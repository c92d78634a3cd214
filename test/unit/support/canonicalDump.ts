// A canonical dump of what a fetch stored: every record table, rows sorted by natural keys, row ids
// replaced by those keys, and volatile columns (times of our own requests, checkpoints) left out.
// Two fetches that stored the same records give the same dump, whatever order they ran in.
import type { CorpusStore } from '../../../src/core/ground/store/corpusStore';
import { diffContentById } from '../../../src/core/ground/store/diffText';

const QUERIES: Record<string, string> = {
  hosts: 'SELECT org FROM hosts ORDER BY org',
  windows: 'SELECT name, from_date, to_date, sealed, seal_hash, fetched FROM windows ORDER BY name',
  accounts:
    'SELECT h.org, a.pseudonym, a.is_bot FROM accounts a JOIN hosts h ON h.id = a.host_id ORDER BY h.org, a.pseudonym',
  changes: `SELECT h.org, c.number, c.change_key, c.project, c.branch, c.created, c.updated, c.owner, c.total_comment_count,
              c.collection_rule, c.fetch_state, c.fetch_error FROM changes c JOIN hosts h ON h.id = c.host_id ORDER BY h.org, c.number`,
  revisions: `SELECT h.org, c.number, r.patch_set, r.sha, r.kind, r.uploader, r.created FROM revisions r JOIN changes c ON c.id = r.change_id
              JOIN hosts h ON h.id = c.host_id ORDER BY h.org, c.number, r.patch_set`,
  comments: `SELECT h.org, c.number, m.gerrit_id, m.path, m.patch_set, m.side, m.line, m.start_line, m.start_character, m.end_line, m.end_character,
              m.in_reply_to, m.author, m.message, m.updated, m.unresolved FROM comments m JOIN changes c ON c.id = m.change_id
              JOIN hosts h ON h.id = c.host_id ORDER BY h.org, c.number, m.gerrit_id`,
  // d.id is swapped for the diff's DiffInfo JSON as stored (src/core/ground/store/diffText.ts), whatever its layout.
  diffs: `SELECT h.org, c.number, d.path, d.ps_base, d.ps_target, d.id AS content, d.fetch_error FROM diffs d JOIN changes c ON c.id = d.change_id
              JOIN hosts h ON h.id = c.host_id ORDER BY h.org, c.number, d.path, d.ps_base`,
  comment_count_probes: `SELECT h.org, p.sample, p.seed, p.candidates, p.probed, p.with_comments, p.unreadable, p.result, p.sampled, p.with_comments_changes
              FROM comment_count_probes p JOIN hosts h ON h.id = p.host_id ORDER BY h.org`,
};

export function canonicalDump(store: CorpusStore): string {
  const out: string[] = [];
  for (const [table, sql] of Object.entries(QUERIES)) {
    out.push(`## ${table}`);
    for (const row of store.all(sql)) {
      if (table === 'diffs') row.content = diffContentById(store, Number(row.content));
      out.push(JSON.stringify(row));
    }
  }
  return out.join('\n');
}
