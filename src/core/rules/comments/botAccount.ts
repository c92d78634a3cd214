import type { CommentUnit, Evidence, Rule } from '../types';

/**
 * Why the author is a bot, as the fetch decided it, in the order the fetch applies: the host's
 * SERVICE_USER tag, then the config's bot list, then a bot-name pattern (the pattern, never the name).
 * 'unrecorded': an account stored before the tag was kept apart from the list (schema 1).
 */
export function botEvidence(c: Pick<CommentUnit, 'authorServiceUser' | 'authorBotPattern'>): Evidence {
  if (c.authorServiceUser === true) return { source: 'service_user' };
  if (c.authorBotPattern !== null) return { source: 'name_pattern', pattern: c.authorBotPattern };
  return { source: c.authorServiceUser === false ? 'bot_list' : 'unrecorded' };
}

/** Written by a bot: an account tagged SERVICE_USER, on the host's bot list, or named like a bot (decided at fetch). */
export const botAccount: Rule<CommentUnit> = {
  id: 'bot_account',
  stage: 'comments',
  unit: 'comments',
  description: 'written by a bot account',
  decide(comment) {
    return comment.authorIsBot ? { rule: this.id, evidence: botEvidence(comment) } : null;
  },
};
