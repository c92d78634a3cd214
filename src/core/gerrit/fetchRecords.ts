// Writes pseudonymized Gerrit records into the corpus file. Nothing here stores an account id,
// name, username or email: accounts arrive as pseudonyms from the Pseudonymizer.
import type { CorpusStore } from '../store/corpusStore';
import type { Pseudonymizer } from './pseudonymize';
import type { ChangeInfo, CommentInfo } from './types';

/** Gerrit's timestamps ("2024-10-03 09:12:44.000000000", UTC) as ISO 8601. */
export function gerritTime(ts: string | undefined): string {
  if (!ts) return '';
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?/.exec(ts);
  if (!m) return ts;
  const ms = (m[3] ?? '.000').slice(0, 4).padEnd(4, '0');
  return `${m[1]}T${m[2]}${ms}Z`;
}

export const PSEUDO_FILES: ReadonlySet<string> = new Set(['/COMMIT_MSG', '/PATCHSET_LEVEL', '/MERGE_LIST']);

export class RecordWriter {
  constructor(private readonly store: CorpusStore, private readonly hostId: number, private readonly pseudonyms: Pseudonymizer) {}

  /** Stores an account as its pseudonym and bot status; returns the pseudonym. */
  account(info: Parameters<Pseudonymizer['account']>[0]): string | null {
    const a = this.pseudonyms.account(info);
    if (!a) return null;
    this.store.run(
      'INSERT INTO accounts(host_id, pseudonym, is_bot) VALUES (?, ?, ?) ON CONFLICT(host_id, pseudonym) DO UPDATE SET is_bot = max(is_bot, excluded.is_bot)',
      [this.hostId, a.pseudonym, a.isBot ? 1 : 0],
    );
    return a.pseudonym;
  }

  /** Inserts or refreshes a listed change and its revisions; returns its row id. */
  change(c: ChangeInfo, collectionRule: string | null): number {
    const owner = this.account(c.owner);
    const created = gerritTime(c.created as string);
    const updated = gerritTime(c.updated as string);
    this.store.run(
      `INSERT INTO changes(host_id, number, change_key, project, branch, created, updated, owner, total_comment_count, collection_rule, fetch_state, fetch_error)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'listed', NULL)
       ON CONFLICT(host_id, number) DO UPDATE SET change_key = excluded.change_key, project = excluded.project, branch = excluded.branch,
         created = excluded.created, updated = excluded.updated, owner = excluded.owner, total_comment_count = excluded.total_comment_count,
         collection_rule = excluded.collection_rule, fetch_state = 'listed', fetch_error = NULL`,
      [this.hostId, c._number as number, (c.change_id as string) ?? null, c.project as string, (c.branch as string) ?? null, created, updated, owner,
        c.total_comment_count ?? null, collectionRule],
    );
    const id = Number(this.store.scalar('SELECT id FROM changes WHERE host_id = ? AND number = ?', [this.hostId, c._number as number]));
    for (const [sha, rev] of Object.entries(c.revisions ?? {})) {
      this.store.run(
        `INSERT INTO revisions(change_id, patch_set, sha, kind, uploader, created) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(change_id, patch_set) DO UPDATE SET sha = excluded.sha, kind = excluded.kind, uploader = excluded.uploader, created = excluded.created`,
        [id, rev._number as number, sha, (rev.kind as string | undefined) ?? null, this.account(rev.uploader), gerritTime(rev.created as string)],
      );
    }
    return id;
  }

  /** Stores one change's comments (a path → CommentInfo[] map), replacing what an earlier fetch stored. */
  comments(changeId: number, byPath: Record<string, CommentInfo[]>): StoredComment[] {
    const stored: StoredComment[] = [];
    const seen = new Set<string>();
    for (const [path, list] of Object.entries(byPath)) {
      for (const c of list) {
        const author = this.account(c.author);
        const range = c.range;
        const side = c.side === 'PARENT' ? 'PARENT' : 'REVISION';
        const row: StoredComment = { gerritId: String(c.id), path, patchSet: (c.patch_set as number | undefined) ?? null, line: c.line ?? null, author, side };
        this.store.run(
          `INSERT INTO comments(change_id, gerrit_id, path, patch_set, side, line, start_line, start_character, end_line, end_character,
             in_reply_to, author, message, updated, unresolved)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(change_id, gerrit_id) DO UPDATE SET path = excluded.path, patch_set = excluded.patch_set, side = excluded.side,
             line = excluded.line, start_line = excluded.start_line, start_character = excluded.start_character, end_line = excluded.end_line,
             end_character = excluded.end_character, in_reply_to = excluded.in_reply_to, author = excluded.author, message = excluded.message,
             updated = excluded.updated, unresolved = excluded.unresolved`,
          [changeId, row.gerritId, path, row.patchSet, side, row.line, range?.start_line ?? null, range?.start_character ?? null,
            range?.end_line ?? null, range?.end_character ?? null, (c.in_reply_to as string | undefined) ?? null, author,
            this.pseudonyms.scrubText(c.message ?? ''), gerritTime(c.updated as string), c.unresolved === undefined ? null : c.unresolved ? 1 : 0],
        );
        seen.add(row.gerritId);
        stored.push(row);
      }
    }
    // A comment deleted on the host since the last fetch goes from the file too.
    for (const r of this.store.all<{ gerrit_id: string }>('SELECT gerrit_id FROM comments WHERE change_id = ?', [changeId])) {
      if (!seen.has(r.gerrit_id)) this.store.run('DELETE FROM comments WHERE change_id = ? AND gerrit_id = ?', [changeId, r.gerrit_id]);
    }
    return stored;
  }

  diff(changeId: number, path: string, base: number, content: string | null, error: string | null): void {
    this.store.run(
      `INSERT INTO diffs(change_id, path, ps_base, ps_target, content, fetch_error) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(change_id, path, ps_base) DO UPDATE SET ps_target = excluded.ps_target, content = excluded.content, fetch_error = excluded.fetch_error`,
      [changeId, path, base, base + 1, content, error],
    );
  }

  finishChange(changeId: number, collectionRule: string | null, error: string | null): void {
    this.store.run("UPDATE changes SET fetch_state = 'done', collection_rule = ?, fetch_error = ? WHERE id = ?", [collectionRule, error, changeId]);
  }

  logRequest(request: string, status: number, body: string | null): void {
    this.store.run('INSERT INTO raw_responses(host_id, request, status, body, fetched_at) VALUES (?, ?, ?, ?, ?)', [
      this.hostId, request, status, body === null ? null : this.pseudonyms.scrubText(body), new Date().toISOString(),
    ]);
  }
}

export interface StoredComment {
  gerritId: string;
  path: string;
  patchSet: number | null;
  line: number | null;
  author: string | null;
  side: 'REVISION' | 'PARENT';
}
