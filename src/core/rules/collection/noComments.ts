import type { ChangeUnit, Rule } from '../types';

/** The listing reported total_comment_count 0, so the fetch asked nothing more (it recorded the rule). */
export const noComments: Rule<ChangeUnit> = {
  id: 'no_comments',
  stage: 'collection',
  unit: 'changes',
  description: 'listing reports no comments',
  notSwitchable:
    'the fetch applies it (after its comment-count probe held) and stores nothing more of the changes it removes',
  decide(change) {
    return change.collectionRule === this.id ? { rule: this.id } : null;
  },
};
