// Writes pseudonymized Gerrit records into the corpus file. Nothing here stores an account id,
// name, username or email: accounts arrive as pseudonyms from the Pseudonymizer.
import type { CorpusStore } from '../ground/store/corpusStore';
import { writeDiff } from '../ground/store/diffText';
import type { IdentityIndex, Pseudonymizer } from './pseudonymize';
import type { ChangeInfo, CommentInfo } from './types';
import { CommentVersions, isDeletionNotice, recordHostEvent, type CommentRow } from './commentVersions';

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
      `INSERT INTO changes(host_id, number, change_key, project, branch, created, updated, owner, total_comment_count, collection_rule, fetch_state, fetch_error, status, submitted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(host_id, number) DO UPDATE SET change_key = excluded.change_key, project = excluded.project, branch = excluded.branch,
         created = excluded.created, updated = excluded.updated, owner = excluded.owner, total_comment_count = excluded.total_comment_count,
         collection_rule = excluded.collection_rule, fetch_state = excluded.fetch_state, fetch_error = excluded.fetch_error, status = excluded.status,
         submitted = excluded.submitted`,
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
        gerritTime(c.submitted),
      ],
    );
    this.present(c._number as number);
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

  /** The host lists change `number` again: if it was gone, it is back (its gone_from_host is cleared, the event kept). */
  present(number: number): void {
    const gone = this.store.scalar(
      'SELECT gone_from_host FROM changes WHERE host_id = ? AND number = ? AND gone_from_host IS NOT NULL',
      [this.hostId, number],
    );
    if (gone === undefined) return;
    this.store.run('UPDATE changes SET gone_from_host = NULL, gone_reason = NULL WHERE host_id = ? AND number = ?', [
      this.hostId,
      number,
    ]);
    recordHostEvent(this.store, this.hostId, number, null, 'change_back', new Date().toISOString());
  }

  /**
   * A request of the change's own answered `status` (404: deleted, private, or in a project now hidden):
   * it is gone from the host. Its earlier records stay; the time and the status are recorded once.
   */
  gone(number: number, status: number): void {
    const present = this.store.scalar(
      'SELECT id FROM changes WHERE host_id = ? AND number = ? AND gone_from_host IS NULL',
      [this.hostId, number],
    );
    if (present === undefined) return;
    const now = new Date().toISOString();
    this.store.run('UPDATE changes SET gone_from_host = ?, gone_reason = ? WHERE id = ?', [
      now,
      `HTTP ${status}`,
      present,
    ]);
    recordHostEvent(this.store, this.hostId, number, null, 'change_gone', now);
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

  /**
   * Stores one change's comments (a path → CommentInfo[] map). What an earlier fetch stored is never
   * overwritten: a comment whose record changed on the host is kept as a version before it is updated,
   * a deletion notice is stored as the fact (deleted_on_host), never as text, and a comment the answer
   * leaves out stays, marked deleted (commentVersions.ts).
   */
  comments(changeId: number, byPath: Record<string, CommentInfo[]>): StoredComment[] {
    const stored: StoredComment[] = [];
    const seen = new Set<string>();
    const number = Number(this.store.scalar('SELECT number FROM changes WHERE id = ?', [changeId]));
    const followed =
      this.store.get('SELECT 1 AS x FROM comments WHERE change_id = ? LIMIT 1', [changeId]) !== undefined;
    const versions = new CommentVersions(this.store, this.hostId, new Date().toISOString());
    // Every author of the response first, so a comment that types any of them is scrubbed of it.
    const identities = this.pseudonyms.identities(Object.values(byPath).flatMap((list) => list.map((c) => c.author)));
    for (const [path, list] of Object.entries(byPath)) {
      for (const c of list) {
        const row = this.commentRow(path, c, identities);
        versions.put(changeId, number, row, followed);
        seen.add(row.gerritId);
        stored.push({
          gerritId: row.gerritId,
          path,
          patchSet: row.patchSet,
          line: row.line,
          author: row.author,
          side: row.side,
        });
      }
    }
    versions.missing(changeId, number, seen);
    return stored;
  }

  /** One CommentInfo as a comments row: accounts as pseudonyms, texts scrubbed, a deletion notice as the fact alone. */
  private commentRow(path: string, c: CommentInfo, identities: IdentityIndex): CommentRow {
    const range = c.range;
    const deleted = isDeletionNotice(c.message);
    return {
      gerritId: String(c.id),
      path,
      patchSet: (c.patch_set as number | undefined) ?? null,
      side: c.side === 'PARENT' ? 'PARENT' : 'REVISION',
      line: c.line ?? null,
      startLine: range?.start_line ?? null,
      startCharacter: range?.start_character ?? null,
      endLine: range?.end_line ?? null,
      endCharacter: range?.end_character ?? null,
      inReplyTo: (c.in_reply_to as string | undefined) ?? null,
      author: this.account(c.author),
      message: deleted ? '' : this.pseudonyms.scrubText(c.message ?? '', identities),
      updated: gerritTime(c.updated),
      unresolved: c.unresolved === undefined ? null : c.unresolved ? 1 : 0,
      fixSuggestions: this.fixSuggestions(c, identities),
      autogenerated: isAutogenerated(c) ? 1 : 0,
      deleted,
    };
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
    this.count('listing_cut_short');
    this.logRequest(request, 200, `listing cut short: ${reason}`);
  }

  /** A listed record with no usable change number: counted per host, and logged with why. */
  rejectListed(request: string, reason: string): void {
    this.count('rejected_listing_records');
    this.logRequest(request, 200, `rejected listing record: ${reason}`);
  }

  /** One more of the host's counter `name` (fetch_counters). */
  count(name: string): void {
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
