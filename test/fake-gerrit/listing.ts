// GET /changes/?q=…&o=…&n=…&S=… : a loose reading of Gerrit's query language, Gerrit's sort order
// (most recently updated first) and paging with `_more_changes` on the last item.
import type { AccountJson, ChangeJson, FixtureChange } from './fixtureTypes';

const DEFAULT_LIMIT = 500;

/** Gerrit timestamps ("2024-10-03 09:12:44.000000000", UTC) compare as strings once cut to seconds. */
function stamp(gerritTime: string): string {
  return gerritTime.slice(0, 19);
}

/** `after:2024-10-01`, `after:"2024-10-01 12:00:00"`: Gerrit reads a bare date as its midnight. */
function timeBound(value: string): string | undefined {
  const v = value.replace(/^["']|["']$/g, '').trim();
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?/.exec(v);
  if (!m) return undefined;
  const time = m[2] ? (m[2].length === 5 ? `${m[2]}:00` : m[2]) : '00:00:00';
  return `${m[1]} ${time}`;
}

type Predicate = (c: ChangeJson) => boolean;

/** Splits q on spaces (keeping quoted values together) and keeps the terms it knows; others are ignored. */
export function parseQuery(q: string): Predicate[] {
  const terms = q.match(/\S+?:"[^"]*"|\S+/g) ?? [];
  const predicates: Predicate[] = [];
  for (const term of terms) {
    const colon = term.indexOf(':');
    if (colon < 0) continue;
    const op = term.slice(0, colon).toLowerCase();
    const value = term.slice(colon + 1);
    if (op === 'status') {
      // Gerrit's status:open is NEW; status:closed is MERGED or ABANDONED.
      const wanted =
        value.toLowerCase() === 'open'
          ? ['new']
          : value.toLowerCase() === 'closed'
            ? ['merged', 'abandoned']
            : [value.toLowerCase()];
      predicates.push((c) => wanted.includes(c.status.toLowerCase()));
    } else if (op === 'after' || op === 'since') {
      const bound = timeBound(value);
      if (bound) predicates.push((c) => stamp(c.updated) >= bound); // Gerrit: updated time, inclusive
    } else if (op === 'before' || op === 'until') {
      const bound = timeBound(value);
      if (bound) predicates.push((c) => stamp(c.updated) <= bound);
    } else if (op === 'project') {
      const project = value.replace(/^"|"$/g, '');
      predicates.push((c) => c.project === project);
    }
  }
  return predicates;
}

function briefAccount(a: AccountJson, detailed: boolean): AccountJson {
  return detailed ? a : { _account_id: a._account_id };
}

/** Shapes a stored ChangeInfo (stored with every option on) to the options asked for. */
export function shapeChange(stored: ChangeJson, options: Set<string>): Record<string, unknown> {
  const detailed = options.has('DETAILED_ACCOUNTS');
  const { revisions, current_revision, owner, ...rest } = stored;
  const out: Record<string, unknown> = { ...rest, owner: briefAccount(owner, detailed) };
  if (typeof rest.submitter === 'object' && rest.submitter)
    out.submitter = briefAccount(rest.submitter as AccountJson, detailed);
  const wanted = options.has('ALL_REVISIONS')
    ? Object.keys(revisions)
    : options.has('CURRENT_REVISION')
      ? [current_revision]
      : [];
  if (wanted.length > 0) {
    out.current_revision = current_revision;
    out.revisions = Object.fromEntries(
      wanted.map((sha) => [sha, { ...revisions[sha], uploader: briefAccount(revisions[sha].uploader, detailed) }]),
    );
  }
  return out;
}

export function byUpdatedDesc(x: FixtureChange, y: FixtureChange): number {
  const a = stamp(x.change.updated);
  const b = stamp(y.change.updated);
  return a === b ? y.change._number - x.change._number : a < b ? 1 : -1;
}

/**
 * Gerrit's refusal of an offset too far: with `index.maxPages` set, a query whose page, start / limit + 1,
 * is beyond it fails with a QueryParseException, which QueryChanges answers as 400 with its message
 * (java/com/google/gerrit/index/query/QueryProcessor.java @ 9bb949c9ca01e8540739ff36c2fb7524019681d7;
 * java/com/google/gerrit/server/restapi/change/QueryChanges.java). Undefined when the page is allowed.
 */
export function pageRefusal(params: URLSearchParams, maxPages: number): string | undefined {
  if (!(maxPages > 0)) return undefined;
  const limit = Math.max(1, Number.parseInt(params.get('n') ?? params.get('limit') ?? '', 10) || DEFAULT_LIMIT);
  const start = Math.max(0, Number.parseInt(params.get('S') ?? params.get('start') ?? '', 10) || 0);
  return Math.floor(start / limit) + 1 > maxPages ? `Cannot go beyond page ${maxPages} of results` : undefined;
}

export function listChanges(changes: readonly FixtureChange[], params: URLSearchParams): Record<string, unknown>[] {
  const predicates = parseQuery(params.get('q') ?? '');
  const options = new Set(params.getAll('o').map((o) => o.toUpperCase()));
  const limit = Math.max(1, Number.parseInt(params.get('n') ?? params.get('limit') ?? '', 10) || DEFAULT_LIMIT);
  const start = Math.max(0, Number.parseInt(params.get('S') ?? params.get('start') ?? '', 10) || 0);
  const matching = changes.filter((c) => predicates.every((p) => p(c.change))).sort(byUpdatedDesc);
  const page = matching.slice(start, start + limit).map((c) => shapeChange(c.change, options));
  if (page.length > 0 && start + limit < matching.length) page[page.length - 1]._more_changes = true;
  return page;
}
