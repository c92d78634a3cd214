// The judge's verdict on one comment as one line of plain text, for the hover, the tree tooltip and the
// read-only thread (which escape it: the model name and labels come from the file). "not judged"
// when the file holds no judged answer for the comment.
import type { CorpusStore } from '../../ground/store/corpusStore';
import type { CorpusConfig } from '../../ground/config/types';
import {
  readJudgments,
  readRewrites,
  type StoredJudgment,
  type StoredRewrite,
} from '../../build/judgments/judgmentStore';
import { thresholdsOf } from '../../build/judgments/settings';
import { REWRITE_MODES, qualityOf, type CommentQuality, type JudgeThresholds } from '../../build/judgments/types';

export const NOT_JUDGED = 'Judge: not judged';

export function judgmentLine(j: StoredJudgment | undefined, thresholds: JudgeThresholds): string {
  if (!j || j.status !== 'judged' || !j.answer)
    return j ? `Judge (${j.model}): not judged (unjudged${j.error ? `: ${j.error}` : ''})` : NOT_JUDGED;
  const a = j.answer;
  return (
    `Judge (${j.model}): ${qualityOf(j, thresholds)} · type ${a.type.join(', ') || '-'} · nature ${a.nature.join(', ') || '-'} · ${a.civility}` +
    ` · relevance ${a.relevance}, clarity ${a.clarity}, conciseness ${a.conciseness}`
  );
}

/** Changes whenever a judgment is written to the store (judgments only grow or are replaced by a newer row). */
export function judgmentsStamp(store: CorpusStore): string {
  const r = store.get<{ n: number; last: number | null; at: string | null }>(
    'SELECT count(*) AS n, max(rowid) AS last, max(judged_at) AS at FROM judgments',
  );
  return `${r?.n ?? 0}/${r?.last ?? 0}/${r?.at ?? ''}`;
}

/** The same for the rewrites (CuREV, CuREV+), which the hover and the thread show beside the original. */
function rewritesStamp(store: CorpusStore): string {
  const r = store.get<{ n: number; last: number | null; at: string | null }>(
    'SELECT count(*) AS n, max(rowid) AS last, max(rewritten_at) AS at FROM comment_rewrites',
  );
  return `${r?.n ?? 0}/${r?.last ?? 0}/${r?.at ?? ''}`;
}

/** A rewrite as the inspector shows it under the original comment, which it never replaces. */
export function rewriteLine(r: Pick<StoredRewrite, 'mode' | 'model' | 'text'>): string {
  return `Rewritten (${r.mode}, ${r.model}): ${r.text}`;
}

/** The open file's judgments, read again only when they change (judgmentsStamp) or another model or thresholds are asked. */
export class CommentQualityIndex {
  private static readonly cache = new WeakMap<CorpusStore, { id: string; index: CommentQualityIndex }>();
  private constructor(
    private readonly judgments: Map<string, StoredJudgment>,
    private readonly thresholds: JudgeThresholds,
    private readonly rewrites: readonly Map<string, StoredRewrite>[],
  ) {}

  static of(store: CorpusStore, config: CorpusConfig | undefined): CommentQualityIndex {
    const model = config?.judge?.model;
    const thresholds = thresholdsOf(config);
    const id = JSON.stringify([model ?? null, thresholds, judgmentsStamp(store), rewritesStamp(store)]);
    const hit = CommentQualityIndex.cache.get(store);
    if (hit?.id === id) return hit.index;
    const index = new CommentQualityIndex(
      readJudgments(store, model === undefined ? {} : { model }),
      thresholds,
      REWRITE_MODES.map((mode) => readRewrites(store, { mode })),
    );
    CommentQualityIndex.cache.set(store, { id, index });
    return index;
  }

  line(commentKey: string): string {
    return judgmentLine(this.judgments.get(commentKey), this.thresholds);
  }

  /** The comment's rewrites, one line each (none: the judge rewrote nothing of it). */
  rewriteLines(commentKey: string): string[] {
    return this.rewrites.flatMap((byKey) => {
      const r = byKey.get(commentKey);
      return r ? [rewriteLine(r)] : [];
    });
  }

  quality(commentKey: string): CommentQuality {
    return qualityOf(this.judgments.get(commentKey), this.thresholds);
  }
}
