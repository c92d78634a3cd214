// How the judge scored the kept comments, per organization × window: for relevance, clarity and
// conciseness, how many judged comments got each score 1..10. Null when the file holds no judgment
// (of the model asked): not counted, which is not "none scored".
import type { CorpusStore } from '../../ground/store/corpusStore';
import { commentKey } from '../../build/stages/decisionKeys';
import { keptCommentsSql } from '../judge/judgeItems';
import { readJudgments } from '../../build/judgments/judgmentStore';
import { SCORE_NAMES, type ScoreName } from './agreement';

export interface ScoreDistribution {
  org: string;
  window: string | null;
  /** Judged kept comments in the group. */
  judged: number;
  /** counts[score][s − 1]: comments scored s. */
  counts: Record<ScoreName, number[]>;
}

export function scoreDistributions(store: CorpusStore, buildId: number, model?: string): ScoreDistribution[] | null {
  const judgments = readJudgments(store, { judgedOnly: true, ...(model === undefined ? {} : { model }) });
  if (judgments.size === 0) return null;
  const groups = new Map<string, ScoreDistribution>();
  const seen = new Set<string>();
  // What the judge judges (review/judge/judgeItems.ts): each kept comment of a kept example, once.
  store.each(keptCommentsSql('h.org, e.window, c.number, cm.gerrit_id'), [buildId], (r) => {
    const org = String(r.org);
    const window = r.window === null ? null : String(r.window);
    const key = commentKey(org, Number(r.number), String(r.gerrit_id));
    if (seen.has(key)) return;
    seen.add(key);
    const id = `${org}\0${window ?? ''}`;
    let g = groups.get(id);
    if (!g) {
      const counts = Object.fromEntries(SCORE_NAMES.map((s) => [s, new Array<number>(10).fill(0)])) as Record<
        ScoreName,
        number[]
      >;
      groups.set(id, (g = { org, window, judged: 0, counts }));
    }
    const a = judgments.get(key)?.answer;
    if (!a) return;
    g.judged++;
    for (const s of SCORE_NAMES) if (Number.isInteger(a[s]) && a[s] >= 1 && a[s] <= 10) g.counts[s][a[s] - 1]++;
  });
  return [...groups.values()].sort((x, y) =>
    x.org < y.org ? -1 : x.org > y.org ? 1 : (x.window ?? '\uffff') < (y.window ?? '\uffff') ? -1 : 1,
  );
}
