// Where a published record came from on its Gerrit host: enough for a reader holding one record to
// find the change, both revisions and both files, and fetch the same bytes again
// (GET <host>/changes/<change>/revisions/<revision>/files/<file>/content, base64).
//
// Everything here is read from what the corpus file stores: the host's URL (from corpus.json), the
// change's project and number, the revision SHAs Gerrit listed (ChangeInfo.revisions is keyed by
// them), the file's path at N and at N + 1 (a rename's new path is diffs.target_path) and, from the
// files list of N + 1 against N, whether the file exists at each. The line ranges come from the
// example's first lines and texts, which the build cut from whole files (context=ALL), so each text is
// exactly lines first..last of its file, each line with its own "\n" (a CRLF line keeps its "\r"), the
// last one without where the file has no final newline.
import type { CorpusStore } from '../../ground/store/corpusStore';
import type { FilesByPath } from '../../gerrit/types';
import { textLineCount } from '../stages/diffInfo';

export interface ExampleSource {
  /** The host's base URL, as corpus.json names it (no trailing "/", no user name or password). */
  host: string;
  project: string;
  change: number;
  /** `<host>/c/<project>/+/<change>`, each segment of the project percent-encoded. */
  change_url: string;
  patchset_before: number;
  patchset_after: number;
  /** The commit SHA Gerrit listed for the patch set; null: the file holds no revision for it. */
  revision_before: string | null;
  revision_after: string | null;
  /** The file's path at that revision; null: the file does not exist there (added by N + 1, or deleted by it). */
  file_before: string | null;
  file_after: string | null;
  /** 1-based first and last line of the hunk in that file, inclusive; null: the hunk is empty on that side. */
  lines_before: [number, number] | null;
  lines_after: [number, number] | null;
  /** Present (true) only when Gerrit sent no revision kind for patch set N + 1. */
  kind_unrecorded?: true;
}

/** The example row fields a source is made of (publishedRecords reads them with the texts). */
export interface SourceRow {
  url: string;
  project: string;
  number: number;
  path: string;
  ps_before: number;
  ps_after: number;
  before_start: number;
  after_start: number;
  before_text: string;
  after_text: string;
}

/** What the corpus file stores about an example's revisions and file, beside its row. */
export interface StoredRevisions {
  revisionBefore: string | null;
  revisionAfter: string | null;
  /** Gerrit's kind of patch set N + 1; null: not sent (or no revision stored). */
  kindAfter: string | null;
  /** The file's path at N + 1 when it was renamed; null: the same path. */
  targetPath: string | null;
  /** The file's status in the files list of N + 1 against N ("A" added, "D" deleted, …); null: not listed or no list. */
  status: string | null;
}

/** The hunk's lines in its file: `[first, last]`, or null for an empty text (Gerrit's final "" is no line). */
export function hunkLines(first: number, text: string): [number, number] | null {
  return text === '' ? null : [first, first + textLineCount(text) - 1];
}

/**
 * Gerrit's web URL of a change (PolyGerrit's `/c/<project>/+/<number>`). The project comes from the
 * host: each of its segments is percent-encoded, so nothing it holds can end the path or add a query.
 * A project with an empty, "." or ".." segment (no Gerrit accepts one) would move the URL's path
 * (percent-encoded dots are dot segments too): it gets `/c/<number>`, which Gerrit redirects to the change.
 */
export function changeUrl(host: string, project: string, change: number): string {
  const base = host.replace(/\/+$/, '');
  const segments = project.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return `${base}/c/${change}`;
  return `${base}/c/${segments.map(encodeURIComponent).join('/')}/+/${change}`;
}

/**
 * The host's base URL as published: without a trailing "/", and without the user name and password a
 * URL in corpus.json could carry (an account must never reach an export). Otherwise as configured.
 */
export function publicHost(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // corpus.json's schema admits only URLs; a file edited by hand is published as it stands
  }
  if (parsed && (parsed.username || parsed.password)) {
    parsed.username = '';
    parsed.password = '';
    return parsed.href.replace(/\/+$/, '');
  }
  return url.replace(/\/+$/, '');
}

/** One example's source, from its row and what the file stores beside it. */
export function exampleSource(row: SourceRow, stored: StoredRevisions): ExampleSource {
  const host = publicHost(row.url);
  return {
    host,
    project: row.project,
    change: row.number,
    change_url: changeUrl(host, row.project, row.number),
    patchset_before: row.ps_before,
    patchset_after: row.ps_after,
    revision_before: stored.revisionBefore,
    revision_after: stored.revisionAfter,
    file_before: stored.status === 'A' ? null : row.path,
    file_after: stored.status === 'D' ? null : (stored.targetPath ?? row.path),
    lines_before: hunkLines(row.before_start, row.before_text),
    lines_after: hunkLines(row.after_start, row.after_text),
    ...(stored.kindAfter === null ? { kind_unrecorded: true as const } : {}),
  };
}

/**
 * The source of each kept example of a build, given its row (read with its texts by publishedRecords).
 * Its revisions, N + 1's kind and the rename are read here for the whole build at once; the files list
 * only for a hunk empty on one side, the only kind whose file can be missing there (a file that does not
 * exist has no lines), which a kept example never is in practice (one_sided removes those).
 */
export function sourceReader(store: CorpusStore, buildId: number): (row: SourceRow & { id: number }) => ExampleSource {
  const stored = new Map<number, Omit<StoredRevisions, 'status'> & { changeId: number }>();
  store.each(
    `SELECT e.id, e.change_id, rb.sha AS sha_before, ra.sha AS sha_after, ra.kind AS kind_after, d.target_path
     FROM examples e
     LEFT JOIN revisions rb ON rb.change_id = e.change_id AND rb.patch_set = e.ps_before
     LEFT JOIN revisions ra ON ra.change_id = e.change_id AND ra.patch_set = e.ps_after
     LEFT JOIN diffs d ON d.change_id = e.change_id AND d.path = e.path AND d.ps_base = e.ps_before
     WHERE e.build_id = ? AND e.rule IS NULL`,
    [buildId],
    (r) =>
      stored.set(Number(r.id), {
        changeId: Number(r.change_id),
        revisionBefore: r.sha_before === null ? null : String(r.sha_before),
        revisionAfter: r.sha_after === null ? null : String(r.sha_after),
        kindAfter: r.kind_after === null ? null : String(r.kind_after),
        targetPath: r.target_path === null ? null : String(r.target_path),
      }),
  );
  return (row) => {
    const s = stored.get(row.id);
    if (!s) throw new Error(`example ${row.id} is not a kept example of build ${buildId}`);
    const oneSided = row.before_text === '' || row.after_text === '';
    const status = oneSided ? fileStatus(store, s.changeId, row.ps_before, s.targetPath ?? row.path) : null;
    return exampleSource(row, { ...s, status });
  };
}

/**
 * The file's status in the files list of N + 1 against N (`path` its path at N + 1): "A", "D", "R", …;
 * null when the list leaves it out, failed, or was never fetched (a corpus from before files lists).
 */
function fileStatus(store: CorpusStore, changeId: number, base: number, path: string): string | null {
  const content = store.scalar('SELECT content FROM file_lists WHERE change_id = ? AND ps_base = ?', [changeId, base]);
  if (typeof content !== 'string') return null;
  try {
    const info = (JSON.parse(content) as FilesByPath | null)?.[path];
    return typeof info?.status === 'string' ? info.status : null;
  } catch {
    return null; // stored as received only when it parsed (fetchHost's filesProblem): cannot happen
  }
}
