// `export --format search-replace`: each kept example of the latest build as verified Search/Replace
// blocks (searchReplace/exampleBlocks.ts), one JSONL line each, with search-replace-report.json (what
// was exported and why the rest was not) and dataset-funnel.json beside it.
import path from 'node:path';
import { saveAtomically, saveStreamAtomically } from '../../ground/store/atomicSave';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { diffContentById } from '../../ground/store/diffText';
import { requireBuild } from '../../review/inspect/groups';
import { requireRecordedExamples } from '../versions/recordedBuild';
import { parseDiffInfo, type ParsedDiff } from '../../build/stages/diffInfo';
import type { SearchReplaceConfig } from '../../ground/config/types';
import { exportedExamples, type ExportedExample } from '../../build/records/publishedRecords';
import { writeFunnel } from './exportJsonl';
import { visibleEscapes } from '../../ground/text/visibleEscapes';
import {
  SEARCH_REPLACE_REASONS,
  exampleSearchReplace,
  renderBlocks,
  type SearchReplaceOutcome,
  type SearchReplaceReason,
} from './searchReplace/exampleBlocks';

export const SEARCH_REPLACE_REPORT = 'search-replace-report.json';

export interface SearchReplaceReport {
  build: number;
  mergeGapLines: number;
  /** Kept examples of the build. */
  examples: number;
  /** Lines written: examples whose blocks passed all three checks. */
  exported: number;
  /** Kept examples not exported, by reason. */
  sr_not_unique: number;
  sr_overlap: number;
  sr_mismatch: number;
  sr_no_diff: number;
  /** Exported examples whose target is patch set N + 1's whole file (no edit of the file outside the hunk). */
  whole_file_targets: number;
  /** Every example not exported: its id, reason and what failed. */
  not_exported: { id: string; reason: SearchReplaceReason; detail: string }[];
}

/**
 * Every kept example's stored diff id (patch set N → N + 1 of its file; null: none), in export order.
 * The contents are read by id apart: sorting rows that carry whole diffs made SQLite spill them.
 */
function eachKeptDiff(
  store: CorpusStore,
  buildId: number,
  onRow: (key: string, starts: { beforeStart: number; afterStart: number }, diffId: number | null) => void,
): void {
  store.each(
    `SELECT e.example_key, e.before_start, e.after_start, d.id AS diff_id FROM examples e JOIN changes c ON c.id = e.change_id JOIN hosts h ON h.id = c.host_id
     LEFT JOIN diffs d ON d.change_id = e.change_id AND d.path = e.path AND d.ps_base = e.ps_before
     WHERE e.build_id = ? AND e.rule IS NULL ORDER BY h.org, c.created, c.number, e.path, e.before_start`,
    [buildId],
    (r) =>
      onRow(
        String(r.example_key),
        { beforeStart: Number(r.before_start), afterStart: Number(r.after_start) },
        r.diff_id === null ? null : Number(r.diff_id),
      ),
  );
}

/** The JSONL record of an exported example. */
export function searchReplaceRecord(e: ExportedExample, sr: Extract<SearchReplaceOutcome, { ok: true }>) {
  return {
    id: e.id,
    org: e.org,
    project: e.project,
    change: e.change,
    created: e.created,
    window: e.window,
    half: e.half,
    path: e.path,
    language: e.language,
    psBefore: e.psBefore,
    psAfter: e.psAfter,
    base_sha256: sr.base_sha256,
    target_sha256: sr.target_sha256,
    after_sha256: sr.after_sha256,
    edits_outside_hunk: sr.edits_outside_hunk,
    blocks: sr.blocks,
    rendered: renderBlocks(e.path, sr.blocks),
    base: sr.base,
    rebaseEditedLines: e.rebaseEditedLines,
    comments: e.comments,
    flags: e.flags,
    source: e.source,
  };
}

/** Writes `out` (JSONL), search-replace-report.json and dataset-funnel.json beside it, each atomically. */
export function exportSearchReplace(
  store: CorpusStore,
  out: string,
  params: SearchReplaceConfig,
  build?: number,
): { report: SearchReplaceReport; reportFile: string; funnelFile: string } {
  const buildId = build === undefined ? requireBuild(store) : requireRecordedExamples(store, build);
  const examples = new Map(exportedExamples(store, buildId).map((e) => [e.id, e]));
  const counts = Object.fromEntries(SEARCH_REPLACE_REASONS.map((r) => [r, 0])) as Record<SearchReplaceReason, number>;
  const report: SearchReplaceReport = {
    build: buildId,
    mergeGapLines: params.mergeGapLines,
    examples: examples.size,
    exported: 0,
    ...counts,
    whole_file_targets: 0,
    not_exported: [],
  };
  // Lines go to the file as they are made, a few MB at a time: at 100k examples the JSONL is 600 MB.
  saveStreamAtomically(out, (put) => {
    let pending: string[] = [];
    let pendingChars = 0;
    const flush = () => {
      put(Buffer.from(pending.join(''), 'utf8'));
      pending = [];
      pendingChars = 0;
    };
    // A file's examples come one after another: its diff is parsed once for all of them.
    let cached: { id: number; diff: ParsedDiff | string | null } | undefined;
    eachKeptDiff(store, buildId, (key, starts, diffId) => {
      const e = examples.get(key);
      if (!e) return; // not in this build's export (cannot happen: the same rows)
      let diff: ParsedDiff | string | null = null;
      if (diffId !== null) {
        if (cached?.id !== diffId) {
          const content = diffContentById(store, diffId);
          if (content === null || content === undefined) cached = { id: diffId, diff: null };
          else
            try {
              cached = { id: diffId, diff: parseDiffInfo(String(content)) };
            } catch {
              cached = { id: diffId, diff: String(content) }; // exampleSearchReplace reports why it does not parse
            }
        }
        diff = cached.diff;
      }
      const sr = exampleSearchReplace(
        diff,
        { ...starts, beforeText: e.before, afterText: e.after },
        params.mergeGapLines,
      );
      if (!sr.ok) {
        report[sr.reason]++;
        report.not_exported.push({ id: key, reason: sr.reason, detail: sr.detail });
        return;
      }
      report.exported++;
      if (sr.edits_outside_hunk === 0) report.whole_file_targets++;
      const line = JSON.stringify(searchReplaceRecord(e, sr)) + '\n';
      pending.push(line);
      pendingChars += line.length;
      if (pendingChars > 4 << 20) flush();
    });
    flush();
  });
  const dir = path.dirname(path.resolve(out));
  const reportFile = path.join(dir, SEARCH_REPLACE_REPORT);
  saveAtomically(reportFile, Buffer.from(JSON.stringify(report, null, 2) + '\n', 'utf8'));
  const funnelFile = writeFunnel(store, buildId, dir);
  return { report, reportFile, funnelFile };
}

/** The counts line the CLI and the palette show. */
export function searchReplaceSummary(r: SearchReplaceReport): string {
  return (
    `${r.exported} of ${r.examples} examples exported; not exported: sr_not_unique ${r.sr_not_unique}, sr_overlap ${r.sr_overlap}, sr_mismatch ${r.sr_mismatch}` +
    (r.sr_no_diff ? `, sr_no_diff ${r.sr_no_diff}` : '')
  );
}

/** One example of the current build (kept or not) as Search/Replace, for the inspector; undefined when it has no such id. */
export function exampleSearchReplaceById(store: CorpusStore, exampleId: number, params: SearchReplaceConfig) {
  const e = store.get<Record<string, string | number | null>>(
    `SELECT e.example_key, e.path, e.ps_before, e.ps_after, e.before_start, e.after_start, e.before_text, e.after_text, e.rule, d.id AS diff_id
     FROM examples e LEFT JOIN diffs d ON d.change_id = e.change_id AND d.path = e.path AND d.ps_base = e.ps_before WHERE e.id = ?`,
    [exampleId],
  );
  if (!e) return undefined;
  const content = e.diff_id === null ? null : diffContentById(store, Number(e.diff_id));
  const outcome = exampleSearchReplace(
    content,
    {
      beforeStart: Number(e.before_start),
      afterStart: Number(e.after_start),
      beforeText: String(e.before_text),
      afterText: String(e.after_text),
    },
    params.mergeGapLines,
  );
  return {
    key: String(e.example_key),
    path: String(e.path),
    psBefore: Number(e.ps_before),
    psAfter: Number(e.ps_after),
    rule: e.rule === null ? null : String(e.rule),
    mergeGapLines: params.mergeGapLines,
    outcome,
  };
}

/**
 * The inspector's plain-text view of one example's blocks: what the export decides for it and why,
 * the hashes, then the rendered blocks. Host text (the key and path) has its controls escaped.
 */
export function searchReplaceDocument(x: NonNullable<ReturnType<typeof exampleSearchReplaceById>>): string {
  const o = x.outcome;
  const lines = [
    `Search/Replace of example ${visibleEscapes(x.key)}`,
    `patch set ${x.psBefore} → ${x.psAfter} of ${visibleEscapes(x.path)}; mergeGapLines ${x.mergeGapLines}`,
    x.rule === null ? 'kept in this build' : `removed by ${x.rule} in this build: the export writes kept examples only`,
    o.ok
      ? `verified: every SEARCH occurs once in patch set ${x.psBefore}'s file, no two overlap, and the result's SHA-256 is the target's`
      : `not exported: ${o.reason} (${o.detail})`,
  ];
  if ('blocks' in o) {
    lines.push(
      `base_sha256   ${o.base_sha256}`,
      `target_sha256 ${o.target_sha256}`,
      `after_sha256  ${o.after_sha256}`,
      o.edits_outside_hunk === 0
        ? `the target is patch set ${x.psAfter}'s whole file`
        : `${o.edits_outside_hunk} edit(s) of the file lie outside this example's hunk: the target is patch set ${x.psBefore}'s file with this hunk's edits only`,
      '',
      renderBlocks(x.path, o.blocks),
    );
  }
  return lines.join('\n') + (lines[lines.length - 1].endsWith('\n') ? '' : '\n');
}
