// irrelevant_comment at build time: reads the stored judgments (raw records: a build never calls the
// endpoint) and sets each kept comment's relevance on its unit, then decides the comment again, so the
// first rule that removes it still names the removal. Off (the default), the rule and its counter are
// "not counted": no judge decided anything, which is not the same as a judge removing none.
import type { CorpusConfig } from '../../ground/config/types';
import type { CommentRec } from '../stages/commentStage';
import { commentKey } from '../stages/decisionKeys';
import type { FunnelTally } from '../reports/funnelReport';
import { switchedOff } from '../../rules/switchedOff';
import { irrelevantComment } from '../../rules/comments/irrelevantComment';
import { COMMENT_RULES, firstRemoval } from '../../rules/funnel';
import type { RuleContext } from '../../rules/types';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { readJudgments } from './judgmentStore';
import { judgeSettings } from './settings';

export const IRRELEVANT_OFF = switchedOff('judge.irrelevantComment', 'the default');

export function applyIrrelevantComment(
  store: CorpusStore,
  config: CorpusConfig,
  comments: readonly CommentRec[],
  ctx: RuleContext,
  tally: FunnelTally,
): void {
  const s = judgeSettings(config);
  if (!s.irrelevantComment) {
    for (const org of tally.orgs) {
      tally.notCounted(org, irrelevantComment.id, IRRELEVANT_OFF);
      tally.notCounted(org, 'irrelevant_unjudged', IRRELEVANT_OFF);
    }
    return;
  }
  const judgments = readJudgments(store, { ...(s.model ? { model: s.model } : {}), judgedOnly: true });
  const position = COMMENT_RULES.indexOf(irrelevantComment);
  for (const c of comments) {
    if (c.removal !== null && COMMENT_RULES.findIndex((r) => r.id === c.removal!.rule) < position) continue;
    const j = judgments.get(commentKey(c.change.org, c.change.number, c.gerritId));
    if (!j?.answer) {
      tally.count(c.change.org, c.change.window?.name ?? null, 'irrelevant_unjudged');
      continue;
    }
    c.unit.judgeRelevance = { relevance: j.answer.relevance, below: s.thresholds.irrelevantBelow, model: j.model };
    c.removal = firstRemoval(COMMENT_RULES, c.unit, ctx);
  }
}
