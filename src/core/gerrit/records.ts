// The boundary: each record type a host sends is checked before anything reads it, so the rest of
// the code can trust its types. A record that fails is a counted fetch_error with the reason here;
// it never stops the host. The checks walk a fixed depth, so a 10k-deep nesting costs nothing more.
// Only what the fetch and the build read is checked; fields they do not read may be anything.

import { gerritTime } from './fetchRecords';
import type { ChangeInfo } from './types';

type Problem = string | null;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const optional = (v: unknown, ok: (x: unknown) => boolean) => v === undefined || ok(v);
const isStringList = (v: unknown) => Array.isArray(v) && v.every((l) => typeof l === 'string');

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
  for (const [path, list] of Object.entries(v)) {
    if (!Array.isArray(list)) return `comments of ${JSON.stringify(path.slice(0, 80))} are not a list`;
    for (const [i, c] of list.entries()) {
      const where = `comment ${i} of ${JSON.stringify(path.slice(0, 80))}`;
      if (!isObject(c)) return `${where} is not an object`;
      if (typeof c.id !== 'string' && typeof c.id !== 'number') return `${where}: id is not a string`;
      if (typeof c.message !== 'string' && c.message !== undefined) return `${where}: message is not text`;
      if (!optional(c.patch_set, (x) => isCount(x) && (x as number) > 0))
        return `${where}: patch_set is not a patch set number`;
      if (!optional(c.line, isCount)) return `${where}: line is not a whole number`;
      if (!optional(c.side, (x) => x === 'REVISION' || x === 'PARENT'))
        return `${where}: side is neither REVISION nor PARENT`;
      if (!optional(c.in_reply_to, (x) => typeof x === 'string')) return `${where}: in_reply_to is not a string`;
      if (!optional(c.updated, (x) => typeof x === 'string')) return `${where}: updated is not a string`;
      if (!optional(c.unresolved, (x) => typeof x === 'boolean')) return `${where}: unresolved is not true or false`;
      if (!optional(c.author, isObject)) return `${where}: author is not an account`;
      if (!optional(c.fix_suggestions, Array.isArray)) return `${where}: fix_suggestions is not a list`;
      const range = rangeProblem(c.range, where);
      if (range) return range;
    }
  }
  return null;
}

/** GET /changes/{id}/revisions/{rev}/files: path → FileInfo. */
export function filesProblem(v: unknown): Problem {
  if (!isObject(v)) return 'files response is not a path → FileInfo map';
  for (const [path, f] of Object.entries(v)) {
    const where = `file ${JSON.stringify(path.slice(0, 80))}`;
    if (!isObject(f)) return `${where} is not an object`;
    if (!optional(f.status, (x) => typeof x === 'string')) return `${where}: status is not a string`;
    if (!optional(f.old_path, (x) => typeof x === 'string')) return `${where}: old_path is not a string`;
  }
  return null;
}

/** GET …/files/{path}/diff: DiffInfo, its content a list of entries of lines. */
export function diffProblem(v: unknown): Problem {
  if (!isObject(v)) return 'diff response is not an object';
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
  if (typeof r.project !== 'string') return 'project is not a string';
  for (const field of ['created', 'updated'] as const) {
    if (gerritTime(r[field]) === null)
      return `unreadable ${field} time ${JSON.stringify(r[field])?.slice(0, 80) ?? 'missing'}`;
  }
  return null;
}
