import type { ChangeUnit, Rule } from '../types';

/** The host would not return the change's comments: recorded by the fetch, as the rule or as an error. */
export const changeFetchError: Rule<ChangeUnit> = {
  id: 'fetch_error',
  stage: 'collection',
  unit: 'changes',
  description: "the host would not return the change's comments",
  notSwitchable: 'the host returned nothing to build from',
  decide(change) {
    if (change.collectionRule === this.id || change.fetchError !== null) {
      return change.fetchError ? { rule: this.id, evidence: { error: change.fetchError } } : { rule: this.id };
    }
    return null;
  },
};
