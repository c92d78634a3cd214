// The audit sample's items as JSONL, in the sample's order: what a rater (a person or a model) needs
// to judge whether the rewrite answers its comment. Each item is read from the build the sample was
// drawn from, or, once a rebuild pruned that build's rows, from the latest build holding its key (an
// example's key, and so its text, is stable across builds). Its comments are those that build kept.
// No author pseudonym and no flag: a rater judges the text, not who wrote it or what a rule suspected.
import { commentKeySql } from '../../build/stages/decisionKeys';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';
import type { AuditSample } from './auditSample';

/** SQL: the examples row an audit item `a` is read from, preferring build `?`. */
export const AUDIT_ROW_SQL = `(SELECT x.id FROM examples x WHERE x.example_key = a.example_key ORDER BY x.build_id = ? DESC, x.build_id DESC LIMIT 1)`;

export function auditExportLines(store: CorpusStore, sample: AuditSample): string[] {
  const comments = new Map<number, { message: string; line: number | null; range: object | null }[]>();
  store.each(
    `SELECT e.id, cm.message, cm.line, cm.start_line, cm.start_character, cm.end_line, cm.end_character
     FROM audit_items a JOIN examples e ON e.id = ${AUDIT_ROW_SQL}
     JOIN example_comments x ON x.example_id = e.id JOIN comments cm ON cm.id = x.comment_id
     JOIN changes c ON c.id = cm.change_id JOIN hosts h ON h.id = c.host_id
     JOIN decisions d ON d.build_id = e.build_id AND d.unit = 'comments' AND d.unit_key = ${commentKeySql('h', 'c', 'cm')}
     WHERE a.sample_id = ? AND d.rule = 'kept' ORDER BY e.id, cm.updated, cm.id`,
    [sample.buildId, sample.id],
    (r) => {
      const list = comments.get(Number(r.id)) ?? [];
      list.push({
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
      comments.set(Number(r.id), list);
    },
  );
  const lines: string[] = [];
  store.each(
    `SELECT a.position, a.example_key, a.org, a.window, e.id, e.path, e.language, e.ps_before, e.ps_after, e.before_text, e.after_text, c.project, c.number
     FROM audit_items a LEFT JOIN examples e ON e.id = ${AUDIT_ROW_SQL} LEFT JOIN changes c ON c.id = e.change_id
     WHERE a.sample_id = ? ORDER BY a.position`,
    [sample.buildId, sample.id],
    (r) => {
      if (r.id === null)
        throw new UserError(
          `audit item ${String(r.example_key)}: no build in ${store.file} holds it any more; draw a new sample (audit sample --redraw)`,
        );
      lines.push(
        JSON.stringify({
          position: Number(r.position),
          example_key: String(r.example_key),
          org: String(r.org),
          window: r.window === null ? null : String(r.window),
          project: String(r.project),
          change: Number(r.number),
          path: String(r.path),
          language: r.language === null ? null : String(r.language),
          ps_before: Number(r.ps_before),
          ps_after: Number(r.ps_after),
          before: String(r.before_text),
          after: String(r.after_text),
          comments: comments.get(Number(r.id)) ?? [],
        }),
      );
    },
  );
  return lines;
}
