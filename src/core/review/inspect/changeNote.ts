// A change a collection rule removed (no_comments, not_merged, created_before_start, …): what the corpus
// knows of it and why it left, for the tree's tooltip and the read-only note the tree opens. Plain text:
// the sinks escape it.
import type { CorpusStore } from '../../ground/store/corpusStore';
import type { Evidence } from '../../rules/types';
import { FUNNEL } from '../../rules/funnel';
import { evidenceLines, readEvidence } from './evidence';

export interface RemovedChange {
  org: string;
  number: number;
  project: string;
  branch: string | null;
  created: string;
  updated: string;
  /** As the host listed it; null when the change was stored before the status was kept. */
  status: string | null;
  window: string | null;
  /** 'kept' when this build kept the change. */
  rule: string;
  evidence: Evidence | null;
}

/** The change (by changes.id) and its decision in one build; undefined when the corpus has no such change. */
export function getRemovedChange(store: CorpusStore, buildId: number, changeId: number): RemovedChange | undefined {
  const r = store.get<Record<string, string | number | null>>(
    `SELECT h.org, c.number, c.project, c.branch, c.created, c.updated, c.status, d.window, d.rule, d.evidence
     FROM changes c JOIN hosts h ON h.id = c.host_id
     LEFT JOIN decisions d ON d.build_id = ? AND d.unit = 'changes' AND d.unit_key = h.org || '/' || c.number
     WHERE c.id = ?`,
    [buildId, changeId],
  );
  if (!r) return undefined;
  const text = (v: string | number | null) => (v === null ? null : String(v));
  return {
    org: String(r.org),
    number: Number(r.number),
    project: String(r.project),
    branch: text(r.branch),
    created: String(r.created),
    updated: String(r.updated),
    status: text(r.status),
    window: text(r.window),
    rule: r.rule === null ? 'not in this build' : String(r.rule),
    evidence: readEvidence(r.evidence),
  };
}

/** Why the rule removed the change: its evidence, one line per field, else the rule's own description. */
export function whyLines(rule: string, evidence: Evidence | null): string[] {
  const lines = evidenceLines(evidence);
  if (lines.length > 0) return lines;
  const step = FUNNEL.find((s) => s.rule === rule);
  return step ? [step.description] : [];
}

/** The note's text: one "name: value" line per fact, then why. */
export function changeNoteText(c: RemovedChange): string {
  return [
    `${c.org} change #${c.number}`,
    `project: ${c.project}`,
    `branch: ${c.branch ?? 'unknown'}`,
    `created: ${c.created}`,
    `updated: ${c.updated}`,
    `status: ${c.status ?? 'not recorded'}`,
    `window: ${c.window ?? 'none'}`,
    `removed by: ${c.rule}`,
    ...whyLines(c.rule, c.evidence).map((l) => `why: ${l}`),
    '',
  ].join('\n');
}
