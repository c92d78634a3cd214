import type { ChangeUnit, Rule } from '../types';

/**
 * Changes of a sealed window are listed and counted, nothing more. Also applies when a window is
 * sealed now but its changes were fetched earlier: a sealed window is never built.
 */
export const sealedWindow: Rule<ChangeUnit> = {
  id: 'sealed_window',
  stage: 'collection',
  unit: 'changes',
  description: 'change created in a sealed window',
  notSwitchable: 'a sealed window is never fetched or built; unseal the window in `windows` instead',
  decide(change) {
    return change.collectionRule === this.id || change.inSealedWindow ? { rule: this.id } : null;
  },
};
