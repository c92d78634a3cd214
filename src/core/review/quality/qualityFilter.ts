// The tree filter's "quality": the examples one of whose judged-for comments (a kept comment of a kept
// example, what the judge judges) the judge classes high, low or irrelevant, or has not judged. A
// removed example has no such comment, so it matches none of the four.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { commentKey } from '../../build/stages/decisionKeys';
import { keptCommentsSql } from '../judge/judgeItems';
import { readJudgments } from '../../build/judgments/judgmentStore';
import { judgmentsStamp } from './commentQuality';
import { DEFAULT_THRESHOLDS, qualityOf, type CommentQuality, type JudgeThresholds } from '../../build/judgments/types';

export interface QualityFilter {
  quality: CommentQuality;
  /** Whose judgments (the config's judge.model); absent: the latest of any model. */
  model?: string;
  thresholds?: JudgeThresholds;
}

/** Per store, the last answer: the tree asks once per page and once for its counts. */
const cache = new WeakMap<CorpusStore, { id: string; ids: number[] }>();

export function qualityExampleIds(store: CorpusStore, buildId: number, f: QualityFilter): number[] {
  const id = JSON.stringify([buildId, f.quality, f.model ?? null, f.thresholds ?? null, judgmentsStamp(store)]);
  const hit = cache.get(store);
  if (hit?.id === id) return hit.ids;
  const judgments = readJudgments(store, f.model === undefined ? {} : { model: f.model });
  const ids = new Set<number>();
  store.each(keptCommentsSql('e.id, h.org, c.number, cm.gerrit_id'), [buildId], (r) => {
    const j = judgments.get(commentKey(String(r.org), Number(r.number), String(r.gerrit_id)));
    if (qualityOf(j, f.thresholds ?? DEFAULT_THRESHOLDS) === f.quality) ids.add(Number(r.id));
  });
  const out = [...ids].sort((a, b) => a - b);
  cache.set(store, { id, ids: out });
  return out;
}
