// What the funnel report webview shows, gathered from the open corpus.
import type { CorpusStore } from '../../core/ground/store/corpusStore';
import type { DatasetFunnel } from '../../core/build/reports/funnelReport';
import { storedFunnel } from '../../core/build/reports/storedFunnel';
import { treeGroups } from '../../core/review/inspect/groups';
import { labelReport } from '../../core/review/labels/labels';
import { labelAudit, type LabelAuditReport } from '../../core/review/labels/labelAudit';
import { countRows, decisionTotals, type CountRow } from '../../core/publish/export/counts';
import { funnelPictureData, layoutFunnelPicture, type SvgNode } from '../../core/publish/export/funnelPicture';
import { qualityReport, type QualityReport } from '../../core/review/judge/report';
import { qualityAgreement, type AnswerAgreement } from '../../core/review/quality/agreement';
import { scoreDistributions, type ScoreDistribution } from '../../core/review/quality/scoreDistribution';
import type { CorpusConfig } from '../../core/ground/config/types';
import { judgmentsStamp } from '../../core/review/quality/commentQuality';

export interface FunnelReportData {
  /** The open corpus's name (its corpus.json), which the panel's title shows too. */
  corpus: string;
  funnel: DatasetFunnel;
  /** counts.csv's rows: what the table and the picture both show. */
  counts: CountRow[];
  /** The funnel picture, as data the page turns into SVG elements. */
  picture: SvgNode;
  windows: {
    org: string;
    window: string | null;
    sealed: boolean;
    kept: number;
    rules: { stage: string; rule: string; unit: string; count: number; notCounted?: string }[];
  }[];
  labels: ReturnType<typeof labelReport>;
  /** Open flags awaiting a decision: the example, the reason, and what matched (untrusted text). */
  openFlags: { exampleKey: string; reason: string; detail: string }[];
  /** The label audit on the current sample, compared with this build; null: no sample drawn. */
  labelAudit: LabelAuditReport | null;
  /** The judge's quality classes per organization, window and half (every count null: not counted). */
  quality: QualityReport;
  /** Score histograms per organization × window; null: no judgment in the file (not counted). */
  scores: ScoreDistribution[] | null;
  /** Judge against human and judge against judge. */
  agreement: AnswerAgreement[];
}

/** A build's decisions never change, so its counts are read once per open file and build. */
const countsOf = new WeakMap<CorpusStore, { buildId: number; rows: CountRow[] }>();

export function funnelReportData(
  store: CorpusStore,
  buildId: number,
  corpus: string,
  config?: CorpusConfig,
): FunnelReportData {
  const funnel = storedFunnel(store, buildId);
  let cached = countsOf.get(store);
  if (cached?.buildId !== buildId)
    countsOf.set(store, (cached = { buildId, rows: countRows(funnel, decisionTotals(store, buildId)) }));
  const windows = treeGroups(store, buildId).flatMap((o) => o.windows);
  const openFlags = store
    .all<{ example_key: string; reason: string; detail: string | null }>(
      "SELECT example_key, reason, detail FROM flags WHERE status = 'open' ORDER BY example_key, reason",
    )
    .map((f) => ({ exampleKey: f.example_key, reason: f.reason, detail: describeFlag(f.detail) }));
  return {
    corpus,
    funnel,
    counts: cached.rows,
    picture: layoutFunnelPicture(corpus, funnelPictureData(funnel, cached.rows)),
    windows,
    labels: labelReport(store),
    openFlags,
    // Its agreement among all raters comes later, from a worker process (ratingsStamp).
    labelAudit: labelAudit(store, buildId, { agreement: false }) ?? null,
    ...qualityParts(store, buildId, config),
  };
}

function describeFlag(detail: string | null): string {
  try {
    return String((JSON.parse(detail ?? '{}') as { detail?: unknown }).detail ?? '');
  } catch {
    return '';
  }
}

/** What the diversity report depends on besides the build: the rewrites the judge stored. */
export function rewritesStamp(store: CorpusStore): string {
  const r = store.get<{ n: number; last: number | null }>(
    'SELECT count(*) AS n, max(rowid) AS last FROM comment_rewrites',
  );
  return `${r?.n ?? 0}/${r?.last ?? 0}`;
}

/** What the agreement among all raters depends on: the labels, the audit sample, the raters' kinds, the judgments and hand quality labels. */
export function ratingsStamp(store: CorpusStore): string {
  const r = store.get<Record<string, number | string | null>>(
    `SELECT (SELECT count(*) FROM labels) AS n, (SELECT max(labelled_at) FROM labels) AS at,
       (SELECT total(unicode(label)) FROM labels) AS sum, (SELECT max(id) FROM audit_samples) AS sample,
       (SELECT count(*) FROM label_raters) AS raters, (SELECT count(*) FROM quality_labels) AS qn,
       (SELECT max(labelled_at) FROM quality_labels) AS qat`,
  );
  return JSON.stringify([r, judgmentsStamp(store)]);
}

type QualityParts = Pick<FunnelReportData, 'quality' | 'scores' | 'agreement'>;
/** The report posts again on every edit (a label, a flag): the quality parts are read again only when judgments or hand labels change. */
const qualityOf = new WeakMap<CorpusStore, { id: string; parts: QualityParts }>();

function qualityParts(store: CorpusStore, buildId: number, config: CorpusConfig | undefined): QualityParts {
  const labels = store.get<{ n: number; at: string | null }>(
    'SELECT count(*) AS n, max(labelled_at) AS at FROM quality_labels',
  );
  const id = JSON.stringify([
    buildId,
    config?.judge ?? null,
    judgmentsStamp(store),
    labels?.n ?? 0,
    labels?.at ?? null,
  ]);
  const hit = qualityOf.get(store);
  if (hit?.id === id) return hit.parts;
  const parts = {
    quality: qualityReport(store, config, { buildId }),
    scores: scoreDistributions(store, buildId, config?.judge?.model),
    agreement: qualityAgreement(store),
  };
  qualityOf.set(store, { id, parts });
  return parts;
}
