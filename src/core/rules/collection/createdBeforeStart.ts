import type { ChangeUnit, Rule } from '../types';

/**
 * Only changes created on or after the corpus start. Gerrit's `after:` filters on update time, so the
 * fetch lists older changes too; the created date is checked here (again, so a later start applies
 * on a rebuild without refetching).
 */
export const createdBeforeStart: Rule<ChangeUnit> = {
  id: 'created_before_start',
  stage: 'collection',
  unit: 'changes',
  description: 'change created before the corpus start date',
  notSwitchable: 'the fetch applies it and stores nothing more of the changes it removes; move `start` instead',
  decide(change, ctx) {
    // An unreadable created time ('') is no date at all: fetch_error removes that change.
    if (change.collectionRule === this.id || (change.created !== '' && change.created.slice(0, 10) < ctx.start)) {
      return {
        rule: this.id,
        evidence: { created: change.created === '' ? null : change.created.slice(0, 10), start: ctx.start },
      };
    }
    return null;
  },
};
