// The published record of each kept example of a build: what an export writes, one JSON line each.
// In the build layer, so a build can hash (and store) exactly what it publishes.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { commentKeySql } from '../stages/decisionKeys';
import { readRewrites } from '../judgments/judgmentStore';
import type { RewriteMode } from '../judgments/types';
import { sourceReader, type ExampleSource, type SourceRow } from './source';

export interface ExportedComment {
  author: string | null;
  message: string;
  line: number | null;
  range: { start_line: number; start_character: number; end_line: number; end_character: number } | null;
  /** CuREV / CuREV+ rewrites of the comment, by mode (judge --reformulate), beside the original; absent: none. */
  rewritten_comment?: Partial<Record<RewriteMode, string>>;
}

export interface ExportedExample {
  id: string;
  org: string;
  project: string;
  change: number;
  created: string;
  window: string | null;
  half: string | null;
  path: string;
  language: string | null;
  psBefore: number;
  psAfter: number;
  before: string;
  after: string;
  /** Edited lines (both sides) Gerrit marked due_to_rebase: upstream code in `after`, not the author's answer. */
  rebaseEditedLines: number;
  comments: ExportedComment[];
  flags: { reason: string; status: string }[];
  /** Where it came from on its host: change, revisions, files and line ranges (source.ts). */
  source: ExampleSource;
}

/** `withRewrites`: each comment carries its stored rewrites (the JSONL export; Search/Replace leaves them out). */
export function exportedExamples(store: CorpusStore, buildId: number, withRewrites = false): ExportedExample[] {
  const out: ExportedExample[] = [];
  eachExportedExample(store, buildId, withRewrites, (e) => out.push(e));
  return out;
}

/** Each published record of build `buildId`, in export order, one at a time (a build holds none of them whole). */
export function eachExportedExample(
  store: CorpusStore,
  buildId: number,
  withRewrites: boolean,
  onExample: (e: ExportedExample) => void,
): void {
  const comments = keptComments(store, buildId, withRewrites);
  const flags = flagsAsRead(store, buildId);
  const sourceOf = sourceReader(store, buildId);
  store.each(
    `SELECT e.*, c.number, c.project, c.created, h.org, h.url FROM examples e JOIN changes c ON c.id = e.change_id JOIN hosts h ON h.id = c.host_id
     WHERE e.build_id = ? AND e.rule IS NULL ORDER BY h.org, c.created, c.number, e.path, e.before_start`,
    [buildId],
    (r) => {
      const key = String(r.example_key);
      onExample({
        id: key,
        org: String(r.org),
        project: String(r.project),
        change: Number(r.number),
        created: String(r.created),
        window: r.window === null ? null : String(r.window),
        half: r.half === null ? null : String(r.half),
        path: String(r.path),
        language: r.language === null ? null : String(r.language),
        psBefore: Number(r.ps_before),
        psAfter: Number(r.ps_after),
        before: String(r.before_text),
        after: String(r.after_text),
        rebaseEditedLines: Number(r.rebase_edited_lines ?? 0),
        comments: comments.get(Number(r.id)) ?? [],
        flags: flags.get(key) ?? [],
        source: sourceOf(r as unknown as SourceRow & { id: number }),
      });
    },
  );
}

/** Each kept example's kept comments, by example id, with their stored rewrites when asked. */
function keptComments(store: CorpusStore, buildId: number, withRewrites: boolean): Map<number, ExportedComment[]> {
  const comments = new Map<number, ExportedComment[]>();
  const rewrites = withRewrites
    ? (['curev', 'curev+'] as const).map((mode) => [mode, readRewrites(store, { mode })] as const)
    : [];
  store.each(
    `SELECT x.example_id, cm.author, cm.message, cm.line, cm.start_line, cm.start_character, cm.end_line, cm.end_character, ${commentKeySql('h', 'c', 'cm')} AS comment_key
     FROM example_comments x JOIN examples e ON e.id = x.example_id JOIN comments cm ON cm.id = x.comment_id
     JOIN changes c ON c.id = cm.change_id JOIN hosts h ON h.id = c.host_id
     JOIN decisions d ON d.build_id = e.build_id AND d.unit = 'comments' AND d.unit_key = ${commentKeySql('h', 'c', 'cm')}
     WHERE e.build_id = ? AND e.rule IS NULL AND d.rule = 'kept' ORDER BY x.example_id, cm.updated, cm.id`,
    [buildId],
    (r) => {
      const list = comments.get(Number(r.example_id)) ?? [];
      list.push({
        author: r.author === null ? null : String(r.author),
        message: String(r.message),
        line: r.line === null ? null : Number(r.line),
        range:
          r.start_line === null
            ? null
            : {
                start_line: Number(r.start_line),
                start_character: Number(r.start_character),
                end_line: Number(r.end_line),
                end_character: Number(r.end_character),
              },
      });
      const rewritten = Object.fromEntries(
        rewrites.flatMap(([mode, m]) => {
          const rw = m.get(String(r.comment_key));
          return rw ? [[mode, rw.text]] : [];
        }),
      );
      if (Object.keys(rewritten).length) list[list.length - 1].rewritten_comment = rewritten;
      comments.set(Number(r.example_id), list);
    },
  );
  return comments;
}

/** Each example's flags, by example key, with their status as the build read it. */
function flagsAsRead(store: CorpusStore, buildId: number): Map<string, { reason: string; status: string }[]> {
  const flags = new Map<string, { reason: string; status: string }[]>();
  for (const f of store.all<{ example_key: string; reason: string; status: string }>(
    // A flag's status as the build read it (build_flag_decisions; undecided then: open), so a decision
    // made later is an input of the next build, not a change to this one's records. Builds written
    // before decisions were recorded read today's status.
    `SELECT f.example_key, f.reason,
       CASE WHEN (SELECT flag_decisions_sha256 FROM builds WHERE id = ?) IS NULL THEN f.status ELSE coalesce(b.status, 'open') END AS status
     FROM flags f LEFT JOIN build_flag_decisions b ON b.build_id = ? AND b.example_key = f.example_key AND b.reason = f.reason
     ORDER BY f.example_key, f.reason`,
    [buildId, buildId],
  )) {
    flags.set(f.example_key, [...(flags.get(f.example_key) ?? []), { reason: f.reason, status: f.status }]);
  }
  return flags;
}
