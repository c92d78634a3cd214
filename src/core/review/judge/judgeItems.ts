// What the judge judges: each comment the build KEPT on a kept example, with the hunk it sits in (the
// code at patch set N, which is what the reviewer was looking at). A comment anchored in two examples
// is judged once, on the first.
import { createHash } from 'node:crypto';
import { commentKey, commentKeySql } from '../../build/stages/decisionKeys';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { renderHunk } from './prompt';

export interface JudgeItem {
  commentKey: string;
  org: string;
  window: string | null;
  half: string | null;
  comment: string;
  /** The rendered hunk the prompt carries (prompt.ts renderHunk). */
  hunk: string;
}

/**
 * The one query for what the judge judges, shared with quality/qualityFilter.ts and
 * quality/scoreDistribution.ts so the three select the same rows: a row per (kept example, kept
 * comment) of build `?`. Aliases: e examples, x example_comments, cm comments, c changes, h hosts,
 * d decisions. A comment in two examples gives two rows (the judge counts it once, by commentKey).
 */
export function keptCommentsSql(columns: string, orderBy?: string): string {
  const order = orderBy === undefined ? '' : ` ORDER BY ${orderBy}`;
  return `SELECT ${columns} FROM examples e JOIN example_comments x ON x.example_id = e.id
     JOIN comments cm ON cm.id = x.comment_id JOIN changes c ON c.id = cm.change_id JOIN hosts h ON h.id = c.host_id
     JOIN decisions d ON d.build_id = e.build_id AND d.unit = 'comments' AND d.unit_key = ${commentKeySql('h', 'c', 'cm')}
     WHERE e.build_id = ? AND e.rule IS NULL AND d.rule = 'kept'${order}`;
}

/** Every kept comment of build `buildId`, in (org, change created, number, path, line, id) order. */
export function judgeItems(store: CorpusStore, buildId: number): JudgeItem[] {
  const seen = new Set<string>();
  const out: JudgeItem[] = [];
  store.each(
    keptCommentsSql(
      'h.org, c.number, cm.gerrit_id, cm.message, cm.line, cm.start_line, cm.end_line, e.path, e.before_text, e.before_start, e.window, e.half',
      'h.org, c.created, c.number, e.path, e.before_start, cm.line, cm.id',
    ),
    [buildId],
    (r) => {
      const key = commentKey(String(r.org), Number(r.number), String(r.gerrit_id));
      if (seen.has(key)) return;
      seen.add(key);
      const to = r.end_line ?? r.line;
      const from = r.start_line ?? r.line;
      const lines = to === null || from === null ? null : { from: Number(from), to: Number(to) };
      out.push({
        commentKey: key,
        org: String(r.org),
        window: r.window === null ? null : String(r.window),
        half: r.half === null ? null : String(r.half),
        comment: String(r.message),
        hunk: renderHunk(String(r.path), String(r.before_text), Number(r.before_start), lines),
      });
    },
  );
  return out;
}

/**
 * A seeded sample of `n` items: those whose SHA-256 of (seed, comment key) is smallest. The same seed
 * picks the same comments on every run, and a comment stays picked when others are added.
 */
export function seededSample<T extends { commentKey: string }>(items: readonly T[], n: number, seed: string): T[] {
  if (n >= items.length) return [...items];
  const rank = (k: string) => createHash('sha256').update(`${seed}\0${k}`).digest('hex');
  const ranked = items
    .map((it) => ({ it, r: rank(it.commentKey) }))
    .sort((a, b) => (a.r < b.r ? -1 : a.r > b.r ? 1 : 0));
  const picked = new Set(ranked.slice(0, n).map((x) => x.it));
  return items.filter((it) => picked.has(it)); // in corpus order, so progress reads in the order of the file
}
