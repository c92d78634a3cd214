// Each comment's judge line for the hover and the read-only thread, from the open corpus's judgments,
// and under it the judge's rewrites of the comment (CuREV, CuREV+), which never replace the original.
import type { OpenCorpus } from '../session';
import type { ExampleComment, ExampleRecord } from '../../core/review/inspect/example';
import { commentKey } from '../../core/build/stages/decisionKeys';
import { CommentQualityIndex, NOT_JUDGED } from '../../core/review/quality/commentQuality';

export function commentJudge(
  corpus: OpenCorpus | undefined,
  example: Pick<ExampleRecord, 'org' | 'changeNumber'>,
): (c: ExampleComment) => string {
  if (!corpus) return () => NOT_JUDGED;
  const index = CommentQualityIndex.of(corpus.store, corpus.config);
  return (c) => {
    const key = commentKey(example.org, example.changeNumber, c.gerritId);
    return [index.line(key), ...index.rewriteLines(key)].join('\n\n');
  };
}
