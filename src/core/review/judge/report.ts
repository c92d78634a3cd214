// Quality counts per organization, window and half: how many kept comments the judge found high,
// low or irrelevant, and how many it has not judged. Without any judgment in the file every count is
// null ("not counted", never 0): no judge ran, which is not the same as a judge finding none.
import type { CorpusConfig } from '../../ground/config/types';
import { latestBuildId } from '../inspect/groups';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { judgeItems } from './judgeItems';
import { readJudgments } from '../../build/judgments/judgmentStore';
import { thresholdsOf } from '../../build/judgments/settings';
import { COMMENT_QUALITIES, qualityOf, type CommentQuality, type JudgeThresholds } from '../../build/judgments/types';

export interface QualityRow {
  org: string;
  window: string | null;
  half: string | null;
  /** Kept comments in this group. */
  comments: number;
  /** Per class; null: not counted (no judgment of this model in the file). */
  counts: Record<CommentQuality, number | null>;
}

export interface QualityReport {
  buildId: number | null;
  /** Whose judgments are counted; null: the latest of any model. */
  model: string | null;
  thresholds: JudgeThresholds;
  /** Whether the file holds any judgment counted here; false: every count is null. */
  judged: boolean;
  rows: QualityRow[];
}

export function qualityReport(
  store: CorpusStore,
  config?: CorpusConfig,
  opts: { buildId?: number; model?: string } = {},
): QualityReport {
  const thresholds = thresholdsOf(config);
  const model = opts.model ?? config?.judge?.model ?? null;
  const buildId = opts.buildId ?? latestBuildId(store) ?? null;
  if (buildId === null) return { buildId, model, thresholds, judged: false, rows: [] };
  const judgments = readJudgments(store, model === null ? {} : { model });
  const judged = judgments.size > 0;
  const rows = new Map<string, QualityRow>();
  for (const item of judgeItems(store, buildId)) {
    const key = `${item.org}\0${item.window ?? ''}\0${item.half ?? ''}`;
    let row = rows.get(key);
    if (!row) {
      const counts = Object.fromEntries(COMMENT_QUALITIES.map((q) => [q, judged ? 0 : null])) as Record<
        CommentQuality,
        number | null
      >;
      rows.set(key, (row = { org: item.org, window: item.window, half: item.half, comments: 0, counts }));
    }
    row.comments++;
    if (judged) {
      const q = qualityOf(judgments.get(item.commentKey), thresholds);
      row.counts[q] = (row.counts[q] ?? 0) + 1;
    }
  }
  const sorted = [...rows.values()].sort(
    (a, b) =>
      a.org.localeCompare(b.org) ||
      (a.window ?? '').localeCompare(b.window ?? '') ||
      (a.half ?? '').localeCompare(b.half ?? ''),
  );
  return { buildId, model, thresholds, judged, rows: sorted };
}

const show = (n: number | null) => (n === null ? 'not counted' : n.toLocaleString('en-US'));

/** The report as the CLI prints it: one tab-separated line per group, under a header. */
export function qualityTable(r: QualityReport): string[] {
  const lines = ['org\twindow\thalf\tcomments\thigh\tlow\tirrelevant\tunjudged'];
  for (const row of r.rows) {
    lines.push(
      [
        row.org,
        row.window ?? '-',
        row.half ?? '-',
        show(row.comments),
        ...COMMENT_QUALITIES.map((q) => show(row.counts[q])),
      ].join('\t'),
    );
  }
  if (!r.judged)
    lines.push('no judgments in this file: quality not counted (configure judge.endpoint and run review-corpus judge)');
  return lines;
}
