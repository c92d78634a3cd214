// One example with everything the diff view needs: both sides, where they start, and its comments.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { commentKeySql } from '../../build/stages/decisionKeys';
import type { Evidence } from '../../rules/types';
import { readEvidence } from './evidence';

export interface ExampleComment {
  id: number;
  gerritId: string;
  author: string | null;
  message: string;
  line: number | null;
  range: { startLine: number; startCharacter: number; endLine: number; endCharacter: number } | null;
  inReplyTo: string | null;
  updated: string | null;
  /** The comment rule that removed it in this build, or null when it was kept. */
  removedBy: string | null;
}

export interface ExampleRecord {
  id: number;
  key: string;
  buildId: number;
  org: string;
  project: string;
  changeNumber: number;
  path: string;
  language: string | null;
  psBefore: number;
  psAfter: number;
  beforeStart: number;
  afterStart: number;
  before: string;
  after: string;
  window: string | null;
  rule: string | null;
  unit: string;
  /** What its removal rests on (decisions.evidence); null: kept, or the rule records none. */
  evidence: Evidence | null;
  comments: ExampleComment[];
}

export function getExample(store: CorpusStore, id: number): ExampleRecord | undefined {
  const e = store.get<Record<string, string | number | null>>(
    `SELECT e.*, c.number, c.project, h.org,
       (SELECT d.evidence FROM decisions d WHERE d.build_id = e.build_id AND d.unit = e.unit AND d.unit_key = e.example_key) AS evidence
     FROM examples e JOIN changes c ON c.id = e.change_id JOIN hosts h ON h.id = c.host_id WHERE e.id = ?`,
    [id],
  );
  if (!e) return undefined;
  const comments = store.all<Record<string, string | number | null>>(
    `SELECT cm.*, (SELECT d.rule FROM decisions d WHERE d.build_id = ? AND d.unit = 'comments' AND d.unit_key = ${commentKeySql('h', 'c', 'cm')}) AS decided
     FROM example_comments x JOIN comments cm ON cm.id = x.comment_id JOIN changes c ON c.id = cm.change_id JOIN hosts h ON h.id = c.host_id
     WHERE x.example_id = ? ORDER BY cm.updated, cm.id`,
    [e.build_id, id],
  );
  return {
    id,
    key: String(e.example_key),
    buildId: Number(e.build_id),
    org: String(e.org),
    project: String(e.project),
    changeNumber: Number(e.number),
    path: String(e.path),
    language: e.language === null ? null : String(e.language),
    psBefore: Number(e.ps_before),
    psAfter: Number(e.ps_after),
    beforeStart: Number(e.before_start),
    afterStart: Number(e.after_start),
    before: String(e.before_text),
    after: String(e.after_text),
    window: e.window === null ? null : String(e.window),
    rule: e.rule === null ? null : String(e.rule),
    unit: String(e.unit),
    evidence: readEvidence(e.evidence),
    comments: comments.map((c) => ({
      id: Number(c.id),
      gerritId: String(c.gerrit_id),
      author: c.author === null ? null : String(c.author),
      message: String(c.message),
      line: c.line === null ? null : Number(c.line),
      range:
        c.start_line === null
          ? null
          : {
              startLine: Number(c.start_line),
              startCharacter: Number(c.start_character),
              endLine: Number(c.end_line),
              endCharacter: Number(c.end_character),
            },
      inReplyTo: c.in_reply_to === null ? null : String(c.in_reply_to),
      updated: c.updated === null ? null : String(c.updated),
      removedBy: c.decided === null || c.decided === 'kept' ? null : String(c.decided),
    })),
  };
}

export interface CommentRecord {
  id: number;
  org: string;
  project: string;
  changeNumber: number;
  path: string;
  patchSet: number | null;
  side: string | null;
  line: number | null;
  author: string | null;
  message: string;
  removedBy: string | null;
  exampleId: number | null;
}

export function getComment(store: CorpusStore, id: number, buildId: number): CommentRecord | undefined {
  const c = store.get<Record<string, string | number | null>>(
    `SELECT cm.*, ch.number, ch.project, h.org,
       (SELECT d.rule FROM decisions d WHERE d.build_id = ? AND d.unit = 'comments' AND d.unit_key = ${commentKeySql('h', 'ch', 'cm')}) AS decided,
       (SELECT x.example_id FROM example_comments x JOIN examples e ON e.id = x.example_id WHERE x.comment_id = cm.id AND e.build_id = ? LIMIT 1) AS example_id
     FROM comments cm JOIN changes ch ON ch.id = cm.change_id JOIN hosts h ON h.id = ch.host_id WHERE cm.id = ?`,
    [buildId, buildId, id],
  );
  if (!c) return undefined;
  return {
    id,
    org: String(c.org),
    project: String(c.project),
    changeNumber: Number(c.number),
    path: String(c.path),
    patchSet: c.patch_set === null ? null : Number(c.patch_set),
    side: c.side === null ? null : String(c.side),
    line: c.line === null ? null : Number(c.line),
    author: c.author === null ? null : String(c.author),
    message: String(c.message),
    removedBy: c.decided === null || c.decided === 'kept' ? null : String(c.decided),
    exampleId: c.example_id === null ? null : Number(c.example_id),
  };
}
