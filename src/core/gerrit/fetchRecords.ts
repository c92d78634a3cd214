// Writes pseudonymized Gerrit records into the corpus file. Nothing here stores an account id,
// name, username or email: accounts arrive as pseudonyms from the Pseudonymizer.
import type { CorpusStore } from '../ground/store/corpusStore';
import { writeDiff } from '../ground/store/diffText';
import type { IdentityIndex, Pseudonymizer } from './pseudonymize';
import type { ChangeInfo, CommentInfo } from './types';

/**
 * A Gerrit timestamp ("2024-10-03 09:12:44.000000000", UTC; Gerrit's Timestamp is written in exactly
 * this form) as ISO 8601 with milliseconds, or null for anything else: another format, a number, or a
 * date that is not in the calendar. Nothing unparsed may be compared as a string, or filed in a window.
 */
export function gerritTime(ts: unknown): string | null {
  if (typeof ts !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{9})$/.exec(ts);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const t = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (
    t.getUTCFullYear() !== year ||
    t.getUTCMonth() !== month - 1 ||
    t.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return null;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7].slice(0, 3)}Z`;
}

export const PSEUDO_FILES: ReadonlySet<string> = new Set(['/COMMIT_MSG', '/PATCHSET_LEVEL', '/MERGE_LIST']);

export class RecordWriter {
  constructor(
    private readonly store: CorpusStore,
    private readonly hostId: number,
    private readonly pseudonyms: Pseudonymizer,
  ) {}

  /**
   * Stores an account as its pseudonym and bot status; returns the pseudonym. A bot stays a bot (as
   * with the bot list, a later fetch never un-bots an account), and a later sighting can only add a
   * reason: bot_pattern keeps the pattern that decided, or is cleared when the tag or the bot list now
   * decides (they come first). names_checked records that the names were matched at all.
   */
  account(info: Parameters<Pseudonymizer['account']>[0]): string | null {
    const a = this.pseudonyms.account(info);
    if (!a) return null;
    this.store.run(
      `INSERT INTO accounts(host_id, pseudonym, is_bot, service_user, bot_pattern, names_checked) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(host_id, pseudonym) DO UPDATE SET is_bot = max(is_bot, excluded.is_bot), service_user = max(coalesce(service_user, 0), excluded.service_user),
         bot_pattern = CASE WHEN excluded.is_bot = 1 AND excluded.bot_pattern IS NULL THEN NULL ELSE coalesce(excluded.bot_pattern, bot_pattern) END,
         names_checked = coalesce(excluded.names_checked, names_checked)`,
      [this.hostId, a.pseudonym, a.isBot ? 1 : 0, a.isServiceUser ? 1 : 0, a.botPattern, a.namesChecked ? 1 : null],
    );
    return a.pseudonym;
  }

  /** Inserts or refreshes a listed change and its revisions; returns its row id. */
  /** `error`: the change cannot be read (unreadableChange); it is stored under fetch_error, with no dates. */
  change(c: ChangeInfo, collectionRule: string | null, error: string | null = null): number {
    const owner = error ? null : this.account(c.owner);
    const created = gerritTime(c.created) ?? '';
    const updated = gerritTime(c.updated) ?? '';
    const project = typeof c.project === 'string' ? c.project : '';
    this.store.run(
      `INSERT INTO changes(host_id, number, change_key, project, branch, created, updated, owner, total_comment_count, collection_rule, fetch_state, fetch_error, status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(host_id, number) DO UPDATE SET change_key = excluded.change_key, project = excluded.project, branch = excluded.branch,
         created = excluded.created, updated = excluded.updated, owner = excluded.owner, total_comment_count = excluded.total_comment_count,
         collection_rule = excluded.collection_rule, fetch_state = excluded.fetch_state, fetch_error = excluded.fetch_error, status = excluded.status`,
      [
        this.hostId,
        c._number as number,
        typeof c.change_id === 'string' ? c.change_id : null,
        project,
        typeof c.branch === 'string' ? c.branch : null,
        created,
        updated,
        owner,
        typeof c.total_comment_count === 'number' ? c.total_comment_count : null,
        error ? 'fetch_error' : collectionRule,
        error ? 'done' : 'listed',
        error ? this.pseudonyms.scrubText(error) : null,
        typeof c.status === 'string' ? c.status : null,
      ],
    );
    const id = Number(
      this.store.scalar('SELECT id FROM changes WHERE host_id = ? AND number = ?', [this.hostId, c._number as number]),
    );
    if (error) return id;
    for (const [sha, rev] of Object.entries(c.revisions ?? {})) {
      this.store.run(
        `INSERT INTO revisions(change_id, patch_set, sha, kind, uploader, created) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(change_id, patch_set) DO UPDATE SET sha = excluded.sha, kind = excluded.kind, uploader = excluded.uploader, created = excluded.created`,
        [
          id,
          rev._number as number,
          sha,
          (rev.kind as string | undefined) ?? null,
          this.account(rev.uploader),
          gerritTime(rev.created),
        ],
      );
    }
    return id;
  }

  /**
   * A listed change that cannot be read (records.ts unreadableChange, or storing it threw): kept under
   * fetch_error with its reason and nothing but its number, so a later listing that reads it replaces it.
   */
  unreadableChange(number: number, reason: string): void {
    this.store.run(
      `INSERT INTO changes(host_id, number, project, created, updated, collection_rule, fetch_state, fetch_error)
       VALUES (?, ?, '', '', '', 'fetch_error', 'done', ?)
       ON CONFLICT(host_id, number) DO UPDATE SET change_key = NULL, project = '', branch = NULL, created = '', updated = '',
         owner = NULL, total_comment_count = NULL, collection_rule = 'fetch_error', fetch_state = 'done', fetch_error = excluded.fetch_error, status = NULL`,
      [this.hostId, number, this.pseudonyms.scrubText(reason)],
    );
  }

  /** `text` scrubbed of accounts and e-mail addresses, as every stored text from a host is. */
  scrub(text: string): string {
    return this.pseudonyms.scrubText(text);
  }

  /** Stores one change's comments (a path → CommentInfo[] map), replacing what an earlier fetch stored. */
  comments(changeId: number, byPath: Record<string, CommentInfo[]>): StoredComment[] {
    const stored: StoredComment[] = [];
    const seen = new Set<string>();
    // Every author of the response first, so a comment that types any of them is scrubbed of it.
    const identities = this.pseudonyms.identities(Object.values(byPath).flatMap((list) => list.map((c) => c.author)));
    for (const [path, list] of Object.entries(byPath)) {
      for (const c of list) {
        const author = this.account(c.author);
        const range = c.range;
        const side = c.side === 'PARENT' ? 'PARENT' : 'REVISION';
        const row: StoredComment = {
          gerritId: String(c.id),
          path,
          patchSet: (c.patch_set as number | undefined) ?? null,
          line: c.line ?? null,
          author,
          side,
        };
        this.store.run(
          `INSERT INTO comments(change_id, gerrit_id, path, patch_set, side, line, start_line, start_character, end_line, end_character,
             in_reply_to, author, message, updated, unresolved, fix_suggestions, autogenerated)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(change_id, gerrit_id) DO UPDATE SET path = excluded.path, patch_set = excluded.patch_set, side = excluded.side,
             line = excluded.line, start_line = excluded.start_line, start_character = excluded.start_character, end_line = excluded.end_line,
             end_character = excluded.end_character, in_reply_to = excluded.in_reply_to, author = excluded.author, message = excluded.message,
             updated = excluded.updated, unresolved = excluded.unresolved, fix_suggestions = excluded.fix_suggestions,
             autogenerated = excluded.autogenerated`,
          [
            changeId,
            row.gerritId,
            path,
            row.patchSet,
            side,
            row.line,
            range?.start_line ?? null,
            range?.start_character ?? null,
            range?.end_line ?? null,
            range?.end_character ?? null,
            (c.in_reply_to as string | undefined) ?? null,
            author,
            this.pseudonyms.scrubText(c.message ?? '', identities),
            gerritTime(c.updated),
            c.unresolved === undefined ? null : c.unresolved ? 1 : 0,
            this.fixSuggestions(c, identities),
            isAutogenerated(c) ? 1 : 0,
          ],
        );
        seen.add(row.gerritId);
        stored.push(row);
      }
    }
    // A comment deleted on the host since the last fetch goes from the file too.
    for (const r of this.store.all<{ gerrit_id: string }>('SELECT gerrit_id FROM comments WHERE change_id = ?', [
      changeId,
    ])) {
      if (!seen.has(r.gerrit_id))
        this.store.run('DELETE FROM comments WHERE change_id = ? AND gerrit_id = ?', [changeId, r.gerrit_id]);
    }
    return stored;
  }

  /**
   * The replacement texts of a comment's structured fix_suggestions (FixSuggestionInfo.replacements),
   * scrubbed like its message, as a JSON list; null when it carries none. Only the texts are kept:
   * descriptions and ranges are not needed by any rule.
   */
  private fixSuggestions(c: CommentInfo, identities: IdentityIndex): string | null {
    const fixes = (c as { fix_suggestions?: unknown }).fix_suggestions;
    if (!Array.isArray(fixes) || fixes.length === 0) return null;
    const texts: string[] = [];
    for (const fix of fixes) {
      const replacements = (fix as { replacements?: unknown } | null)?.replacements;
      if (!Array.isArray(replacements)) continue;
      for (const r of replacements) {
        const text = (r as { replacement?: unknown } | null)?.replacement;
        if (typeof text === 'string') texts.push(this.pseudonyms.scrubText(text, identities));
      }
    }
    return JSON.stringify(texts);
  }

  /** A diff of `path` (the comment's path at N); `targetPath` is its path at N + 1 when it was renamed. */
  diff(
    changeId: number,
    path: string,
    base: number,
    content: string | null,
    error: string | null,
    targetPath: string | null = null,
  ): void {
    writeDiff(this.store, { changeId, path, base, content, error, targetPath });
  }

  /** GET /changes/{id}/revisions/{base + 1}/files?base={base}, as received (paths only; no account is in it). */
  fileList(changeId: number, base: number, content: string | null, error: string | null): void {
    this.store.run(
      `INSERT INTO file_lists(change_id, ps_base, ps_target, content, fetch_error) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(change_id, ps_base) DO UPDATE SET ps_target = excluded.ps_target, content = excluded.content, fetch_error = excluded.fetch_error`,
      [changeId, base, base + 1, content, error],
    );
  }

  /** One fetch of the change ended (fetch_attempts counts them, for retryFailed). */
  finishChange(changeId: number, collectionRule: string | null, error: string | null): void {
    this.store.run(
      "UPDATE changes SET fetch_state = 'done', collection_rule = ?, fetch_error = ?, fetch_attempts = fetch_attempts + 1 WHERE id = ?",
      [collectionRule, error, changeId],
    );
  }

  /** The listing was ended before the host said it had no more: counted per host, and logged with why. */
  listingCut(request: string, reason: string): void {
    this.bumpCounter('listing_cut_short');
    this.logRequest(request, 200, `listing cut short: ${reason}`);
  }

  /** A listed record with no usable change number: counted per host, and logged with why. */
  rejectListed(request: string, reason: string): void {
    this.bumpCounter('rejected_listing_records');
    this.logRequest(request, 200, `rejected listing record: ${reason}`);
  }

  /** One more of the host's counter `name` (fetch_counters). */
  private bumpCounter(name: string): void {
    this.store.run(
      `INSERT INTO fetch_counters(host_id, name, value) VALUES (?, ?, 1)
       ON CONFLICT(host_id, name) DO UPDATE SET value = value + 1`,
      [this.hostId, name],
    );
  }

  logRequest(request: string, status: number, body: string | null): void {
    this.store.run('INSERT INTO raw_responses(host_id, request, status, body, fetched_at) VALUES (?, ?, ?, ?, ?)', [
      this.hostId,
      request,
      status,
      body === null ? null : this.pseudonyms.scrubText(body),
      new Date().toISOString(),
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

/**
 * Gerrit's mark of a comment a machine wrote: a tag starting "autogenerated:" (CommentInfo.tag; a CI
 * system's comments carry it even when its account is not tagged SERVICE_USER nor named like a bot).
 */
function isAutogenerated(c: CommentInfo): boolean {
  const tag = (c as { tag?: unknown }).tag;
  return typeof tag === 'string' && tag.startsWith('autogenerated:');
}
