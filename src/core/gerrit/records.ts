// The boundary: each record type a host sends is checked before anything reads it, so the rest of
// the code can trust its types. A record that fails is a counted fetch_error with the reason here;
// it never stops the host. Each answer's nesting is measured first, without recursion (bounds.ts), so
// fields nobody reads may be anything but 10,000 levels deep; what the fetch and the build read is
// checked field by field, texts and lists against the bounds of bounds.ts.

import {
  MAX_COMMENTS_PER_CHANGE,
  MAX_COMMENT_CHARS,
  MAX_NAME_CHARS,
  MAX_REVISIONS_PER_CHANGE,
  nestingProblem,
} from './bounds';
import { gerritTime } from './fetchRecords';
import type { ChangeInfo } from './types';

type Problem = string | null;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const optional = (v: unknown, ok: (x: unknown) => boolean) => v === undefined || ok(v);
const isStringList = (v: unknown) => Array.isArray(v) && v.every((l) => typeof l === 'string');
const isName = (v: unknown) => typeof v === 'string' && v.length <= MAX_NAME_CHARS;
const quoted = (s: string) => JSON.stringify(s.slice(0, 80));

/**
 * Why an account (AccountInfo) cannot be read, or null: only the fields the pseudonymizer and the bot
 * rule read are checked (AccountLoader.DETAILED_OPTIONS: id, names, e-mails, tags).
 */
export function accountProblem(a: unknown, where: string): Problem {
  if (!isObject(a)) return `${where} is not an account`;
  if (!optional(a._account_id, (x) => typeof x === 'number' && Number.isSafeInteger(x)))
    return `${where}: _account_id is not a whole number`;
  for (const k of ['name', 'display_name', 'username', 'email'])
    if (!optional(a[k], isName)) return `${where}: ${k} is not a name of at most ${MAX_NAME_CHARS} characters`;
  for (const k of ['tags', 'secondary_emails'])
    if (!optional(a[k], (x) => isStringList(x) && (x as string[]).every(isName)))
      return `${where}: ${k} is not a list of names`;
  return null;
}

function rangeProblem(r: unknown, where: string): Problem {
  if (r === undefined) return null;
  if (!isObject(r)) return `${where}: range is not an object`;
  for (const k of ['start_line', 'start_character', 'end_line', 'end_character']) {
    if (!isCount(r[k])) return `${where}: range.${k} is not a whole number`;
  }
  return null;
}

/** GET /changes/{id}/comments: path → CommentInfo[]. */
export function commentsProblem(v: unknown): Problem {
  if (!isObject(v)) return 'comments response is not a path → comments map';
  const deep = nestingProblem(v);
  if (deep) return `comments response is ${deep}`;
  let count = 0;
  for (const [path, list] of Object.entries(v)) {
    if (path.length > MAX_NAME_CHARS) return `a comment path is longer than ${MAX_NAME_CHARS} characters`;
    if (!Array.isArray(list)) return `comments of ${quoted(path)} are not a list`;
    count += list.length;
    if (count > MAX_COMMENTS_PER_CHANGE) return `more than ${MAX_COMMENTS_PER_CHANGE} comments on one change`;
    for (const [i, c] of list.entries()) {
      const where = `comment ${i} of ${quoted(path)}`;
      if (!isObject(c)) return `${where} is not an object`;
      if (!isName(c.id) && typeof c.id !== 'number') return `${where}: id is not a string`;
      if (typeof c.message !== 'string' && c.message !== undefined) return `${where}: message is not text`;
      if (typeof c.message === 'string' && c.message.length > MAX_COMMENT_CHARS)
        return `${where}: message is longer than ${MAX_COMMENT_CHARS} characters`;
      if (!optional(c.patch_set, (x) => isCount(x) && (x as number) > 0))
        return `${where}: patch_set is not a patch set number`;
      if (!optional(c.line, isCount)) return `${where}: line is not a whole number`;
      if (!optional(c.side, (x) => x === 'REVISION' || x === 'PARENT'))
        return `${where}: side is neither REVISION nor PARENT`;
      if (!optional(c.in_reply_to, isName)) return `${where}: in_reply_to is not a string`;
      if (!optional(c.updated, isName)) return `${where}: updated is not a string`;
      if (!optional(c.unresolved, (x) => typeof x === 'boolean')) return `${where}: unresolved is not true or false`;
      const author = c.author === undefined ? null : accountProblem(c.author, `${where}: author`);
      if (author) return author;
      const fixes = fixSuggestionsProblem(c.fix_suggestions, where);
      if (fixes) return fixes;
      const range = rangeProblem(c.range, where);
      if (range) return range;
    }
  }
  return null;
}

/** A comment's fix_suggestions: a list whose replacement texts (the only part stored) are texts of comment size. */
function fixSuggestionsProblem(fixes: unknown, where: string): Problem {
  if (fixes === undefined) return null;
  if (!Array.isArray(fixes)) return `${where}: fix_suggestions is not a list`;
  for (const fix of fixes) {
    const replacements = (fix as { replacements?: unknown } | null)?.replacements;
    if (!Array.isArray(replacements)) continue;
    for (const r of replacements) {
      const text = (r as { replacement?: unknown } | null)?.replacement;
      if (typeof text === 'string' && text.length > MAX_COMMENT_CHARS)
        return `${where}: a fix suggestion is longer than ${MAX_COMMENT_CHARS} characters`;
    }
  }
  return null;
}

/** GET /changes/{id}/revisions/{rev}/files: path → FileInfo. */
export function filesProblem(v: unknown): Problem {
  if (!isObject(v)) return 'files response is not a path → FileInfo map';
  const deep = nestingProblem(v);
  if (deep) return `files response is ${deep}`;
  for (const [path, f] of Object.entries(v)) {
    if (path.length > MAX_NAME_CHARS) return `a file path is longer than ${MAX_NAME_CHARS} characters`;
    const where = `file ${quoted(path)}`;
    if (!isObject(f)) return `${where} is not an object`;
    if (!optional(f.status, (x) => typeof x === 'string')) return `${where}: status is not a string`;
    if (!optional(f.old_path, isName)) return `${where}: old_path is not a path`;
  }
  return null;
}

/** GET …/files/{path}/diff: DiffInfo, its content a list of entries of lines. */
export function diffProblem(v: unknown): Problem {
  if (!isObject(v)) return 'diff response is not an object';
  const deep = nestingProblem(v);
  if (deep) return `diff response is ${deep}`;
  if (!Array.isArray(v.content)) return 'diff response has no content list';
  for (const [i, e] of v.content.entries()) {
    if (!isObject(e)) return `diff content entry ${i} is not an object`;
    for (const side of ['a', 'b', 'ab'])
      if (!optional(e[side], isStringList)) return `diff content entry ${i}: ${side} is not a list of lines`;
    if (!optional(e.skip, isCount)) return `diff content entry ${i}: skip is not a line count`;
    for (const flag of ['due_to_rebase', 'common'])
      if (!optional(e[flag], (x) => typeof x === 'boolean'))
        return `diff content entry ${i}: ${flag} is not true or false`;
  }
  return null;
}

/** Why a listed record cannot be stored as a change at all (no usable number), or null. */
export function unusableListing(c: unknown): string | null {
  if (c === null || typeof c !== 'object' || Array.isArray(c)) return 'not an object';
  const n = (c as { _number?: unknown })._number;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0)
    return `_number ${JSON.stringify(n)?.slice(0, 80) ?? 'missing'} is not a positive integer`;
  return null;
}

/** Why a listed change (with a usable number) cannot be read; it is then a fetch_error, never windowed. */
export function unreadableChange(c: ChangeInfo): string | null {
  const r = c as unknown as Record<string, unknown>;
  const deep = nestingProblem(r);
  if (deep) return `the listed change is ${deep}`;
  if (typeof r.project !== 'string') return 'project is not a string';
  for (const k of ['project', 'branch', 'change_id', 'status'])
    if (!optional(r[k], isName)) return `${k} is not a name of at most ${MAX_NAME_CHARS} characters`;
  for (const field of ['created', 'updated'] as const) {
    if (gerritTime(r[field]) === null)
      return `unreadable ${field} time ${JSON.stringify(r[field])?.slice(0, 80) ?? 'missing'}`;
  }
  if (!optional(r.total_comment_count, isCount)) return 'total_comment_count is not a count';
  const owner = r.owner === undefined ? null : accountProblem(r.owner, 'owner');
  return owner ?? revisionsProblem(r.revisions);
}

/** ChangeInfo.revisions (ALL_REVISIONS): sha → RevisionInfo, of what the fetch stores of each. */
function revisionsProblem(v: unknown): Problem {
  if (v === undefined) return null;
  if (!isObject(v)) return 'revisions is not a sha → revision map';
  const entries = Object.entries(v);
  if (entries.length > MAX_REVISIONS_PER_CHANGE) return `more than ${MAX_REVISIONS_PER_CHANGE} revisions`;
  for (const [sha, rev] of entries) {
    const where = `revision ${quoted(sha)}`;
    if (sha.length > MAX_NAME_CHARS) return `a revision id is longer than ${MAX_NAME_CHARS} characters`;
    if (!isObject(rev)) return `${where} is not an object`;
    if (!(isCount(rev._number) && (rev._number as number) > 0)) return `${where}: _number is not a patch set number`;
    if (!optional(rev.kind, isName)) return `${where}: kind is not a string`;
    if (!optional(rev.created, isName)) return `${where}: created is not a string`;
    const uploader = rev.uploader === undefined ? null : accountProblem(rev.uploader, `${where}: uploader`);
    if (uploader) return uploader;
  }
  return null;
}
