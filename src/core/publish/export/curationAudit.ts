// curation_audit.jsonl: one line per unit the build removed, from its decisions, in funnel order:
// {unit, key, org, window, stage, rule, evidence}. `evidence` is the removing rule's evidence as the
// build stored it (decisions.evidence), or null where the rule gives none.
//
// Listing records a host sent without a usable change number are counted under collection/fetch_error
// in the funnel but were never a unit with a key, so they have no line here (the card says how many).
import type { CorpusStore } from '../../ground/store/corpusStore';
import { STAGES } from '../../rules/types';

export interface AuditLine {
  unit: string;
  key: string;
  org: string;
  window: string | null;
  stage: string;
  rule: string;
  evidence: unknown;
  /** Present only when the stored evidence is not valid JSON: its text, as stored. */
  evidence_text?: string;
}

const STAGE_ORDER = `CASE stage ${STAGES.map((s, i) => `WHEN '${s}' THEN ${i}`).join(' ')} ELSE ${STAGES.length} END`;

/** Every removal of `buildId`, as JSONL text (one line each), and how many lines. */
export function curationAudit(store: CorpusStore, buildId: number): { text: string; lines: number } {
  const out: string[] = [];
  store.each(
    `SELECT unit, unit_key, org, window, stage, rule, evidence FROM decisions
     WHERE build_id = ? AND rule != 'kept' ORDER BY org, ${STAGE_ORDER}, unit, rule, unit_key`,
    [buildId],
    (r) => {
      const line: AuditLine = {
        unit: String(r.unit),
        key: String(r.unit_key),
        org: String(r.org),
        window: r.window === null ? null : String(r.window),
        stage: String(r.stage),
        rule: String(r.rule),
        evidence: null,
      };
      if (r.evidence !== null) {
        try {
          line.evidence = JSON.parse(String(r.evidence));
        } catch {
          line.evidence_text = String(r.evidence);
        }
      }
      out.push(JSON.stringify(line));
    },
  );
  return { text: out.length ? out.join('\n') + '\n' : '', lines: out.length };
}
