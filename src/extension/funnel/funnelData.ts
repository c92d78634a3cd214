// What the funnel report webview shows, gathered from the open corpus.
import type { CorpusStore } from '../../core/store/corpusStore';
import type { DatasetFunnel } from '../../core/build/funnelReport';
import { treeGroups, funnelRuleOrder } from '../../core/inspect/groups';
import { labelReport } from '../../core/labels/labels';

export interface FunnelReportData {
  funnel: DatasetFunnel;
  windows: { org: string; window: string | null; sealed: boolean; kept: number; rules: { stage: string; rule: string; unit: string; count: number }[] }[];
  labels: ReturnType<typeof labelReport>;
}

export function funnelReportData(store: CorpusStore, buildId: number): FunnelReportData {
  const funnel = JSON.parse(String(store.scalar('SELECT funnel FROM builds WHERE id = ?', [buildId]))) as DatasetFunnel;
  const windows = treeGroups(store, buildId, funnelRuleOrder(store, buildId)).flatMap((o) => o.windows);
  return { funnel, windows, labels: labelReport(store) };
}
