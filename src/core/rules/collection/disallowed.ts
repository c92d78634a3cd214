import type { ChangeUnit, Rule } from '../types';

/** robots.txt disallowed the change's endpoints, so the fetch never read it (it recorded the rule). */
export const disallowed: Rule<ChangeUnit> = {
  id: 'disallowed',
  stage: 'collection',
  unit: 'changes',
  description: "robots.txt disallows the change's endpoints",
  notSwitchable: 'robots.txt forbade the fetch, so nothing of those changes is stored',
  decide(change) {
    return change.collectionRule === this.id ? { rule: this.id } : null;
  },
};
