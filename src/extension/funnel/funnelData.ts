// What the funnel report webview shows, gathered from the open corpus.
import type { CorpusStore } from '../../core/store/corpusStore';
import type { DatasetFunnel } from '../../core/corpusBuild/funnelReport';
import { treeGroups } from '../../core/inspect/groups';
import { labelReport } from '../../core/labels/labels';
import { countRows, decisionTotals, type CountRow } from '../../core/export/counts';
import { funnelPictureData, layoutFunnelPicture, type SvgNode } from '../../core/export/funnelPicture';

export interface FunnelReportData {
  /** The open corpus's name (its corpus.json), which the panel's title shows too. */
  corpus: string;
  funnel: DatasetFunnel;
  /** counts.csv's rows: what the table and the picture both show. */
  counts: CountRow[];
  /** The funnel picture, as data the page turns into SVG elements. */
  picture: SvgNode;
  windows: { org: string; window: string | null; sealed: boolean; kept: number; rules: { stage: string; rule: string; unit: string; count: number }[] }[];
  labels: ReturnType<typeof labelReport>;
  /** Open flags awaiting a decision: the example, the reason, and what matched (untrusted text). */
  openFlags: { exampleKey: string; reason: string; detail: string }[];
}

/** A build's decisions never change, so its counts are read once per open file and build. */
const countsOf = new WeakMap<CorpusStore, { buildId: number; rows: CountRow[] }>();

export function funnelReportData(store: CorpusStore, buildId: number, corpus: string): FunnelReportData {
  const funnel = JSON.parse(String(store.scalar('SELECT funnel FROM builds WHERE id = ?', [buildId]))) as DatasetFunnel;
  let cached = countsOf.get(store);
  if (cached?.buildId !== buildId) countsOf.set(store, (cached = { buildId, rows: countRows(funnel, decisionTotals(store, buildId)) }));
  const windows = treeGroups(store, buildId).flatMap((o) => o.windows);
  const openFlags = store.all<{ example_key: string; reason: string; detail: string | null }>("SELECT example_key, reason, detail FROM flags WHERE status = 'open' ORDER BY example_key, reason")
    .map((f) => ({ exampleKey: f.example_key, reason: f.reason, detail: describeFlag(f.detail) }));
  return {
    corpus, funnel, counts: cached.rows, picture: layoutFunnelPicture(corpus, funnelPictureData(funnel, cached.rows)),
    windows, labels: labelReport(store), openFlags,
  };
}

function describeFlag(detail: string | null): string {
  try {
    return String((JSON.parse(detail ?? '{}') as { detail?: unknown }).detail ?? '');
  } catch {
    return '';
  }
}
