// The judge's line for each kept comment of an example, for its tree tooltip ("not judged" when absent).
import type { CorpusStore } from '../../core/ground/store/corpusStore';
import type { CorpusConfig } from '../../core/ground/config/types';
import type { ExampleItem, GroupRef } from '../../core/review/inspect/items';
import { commentKey } from '../../core/build/stages/decisionKeys';
import { CommentQualityIndex } from '../../core/review/quality/commentQuality';

export function exampleJudgeLines(
  store: CorpusStore,
  ref: GroupRef,
  it: ExampleItem,
  config: CorpusConfig | undefined,
): string[] {
  const ids = store.all<{ gerrit_id: string }>(
    `SELECT cm.gerrit_id FROM examples e JOIN example_comments x ON x.example_id = e.id JOIN comments cm ON cm.id = x.comment_id
     WHERE e.build_id = ? AND e.example_key = ? ORDER BY cm.updated, cm.id`,
    [ref.buildId, it.key],
  );
  const index = CommentQualityIndex.of(store, config);
  return ids.map((r) => index.line(commentKey(ref.org, it.changeNumber, r.gerrit_id)));
}
