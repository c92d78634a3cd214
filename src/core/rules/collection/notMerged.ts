import type { ChangeUnit, Rule } from '../types';

/**
 * Only merged changes: a change whose stored `status` is not MERGED goes, whatever the query said (a
 * preset query can be edited, and a host may list more than it was asked for). A status stored before
 * the fetch kept it (null) cannot be checked; the build counts those as `status_unrecorded`.
 */
export const notMerged: Rule<ChangeUnit> = {
  id: 'not_merged',
  stage: 'collection',
  unit: 'changes',
  description: 'change not merged',
  notSwitchable: 'the fetch applies it and stores nothing more of the changes it removes',
  decide(change) {
    if (change.collectionRule === this.id || (change.status !== null && change.status !== 'MERGED')) {
      return { rule: this.id, evidence: { status: change.status } };
    }
    return null;
  },
};
