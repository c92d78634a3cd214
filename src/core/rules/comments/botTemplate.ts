import type { CommentUnit, Rule } from '../types';
import { matchBotTemplate } from './botTemplates';

/** Its text is a bot's templated output (built-in templates and the host's `botTemplates`). */
export const botTemplate: Rule<CommentUnit> = {
  id: 'bot_template',
  stage: 'comments',
  unit: 'comments',
  description: "its text matches a bot's message template",
  decide(comment, ctx) {
    const match = matchBotTemplate(comment.message, ctx.hostBotTemplates.get(comment.org) ?? []);
    return match ? { rule: this.id, evidence: { bot: match.bot, template: match.template } } : null;
  },
};
