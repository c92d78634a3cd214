import type { CommentUnit, Rule } from '../types';

/** Written by a bot: an account tagged SERVICE_USER or on the host's bot list (decided at fetch). */
export const botAccount: Rule<CommentUnit> = {
  id: 'bot_account',
  stage: 'comments',
  unit: 'comments',
  description: 'written by a bot account',
  decide(comment) {
    return comment.authorIsBot ? { rule: this.id } : null;
  },
};
