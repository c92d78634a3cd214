// What the funnel report webview shows, gathered from the open corpus.
import type { CorpusStore } from '../../core/store/corpusStore';
import type { DatasetFunnel } from '../../core/build/funnelReport';
import { treeGroups } from '../../core/inspect/groups';
import { labelReport } from '../../core/labels/labels';

export interface FunnelReportData {
  funnel: DatasetFunnel;
  windows: { org: string; window: string | null; sealed: boolean; kept: number; rules: { stage: string; rule: string; unit: string; count: number }[] }[];
  labels: ReturnType<typeof labelReport>;
  /** Open flags awaiting a decision: the example, the reason, and what matched (untrusted text). */
  openFlags: { exampleKey: string; reason: string; detail: string }[];
}

export function funnelReportData(store: CorpusStore, buildId: number): FunnelReportData {
  const funnel = JSON.parse(String(store.scalar('SELECT funnel FROM builds WHERE id = ?', [buildId]))) as DatasetFunnel;
  const windows = treeGroups(store, buildId).flatMap((o) => o.windows);
  const openFlags = store.all<{ example_key: string; reason: string; detail: string | null }>("SELECT example_key, reason, detail FROM flags WHERE status = 'open' ORDER BY example_key, reason")
    .map((f) => ({ exampleKey: f.example_key, reason: f.reason, detail: describeFlag(f.detail) }));
  return { funnel, windows, labels: labelReport(store), openFlags };
}

function describeFlag(detail: string | null): string {
  try {
    return String((JSON.parse(detail ?? '{}') as { detail?: unknown }).detail ?? '');
  } catch {
    return '';
  }
}
