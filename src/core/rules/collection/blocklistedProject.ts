import type { ChangeUnit, Rule } from '../types';

/**
 * Repository-level exclusion, as the Clean-PR paper excludes repositories: a change of a project on rules.projectBlocklist (exact Gerrit
 * project names, on every host; empty by default) goes at collection, before anything of it is read
 * by a later rule. Decided at build time from the stored project, so changing the list and rebuilding
 * fetches nothing; the fetch still reads such a change.
 */
export const blocklistedProject: Rule<ChangeUnit> = {
  id: 'blocklisted_project',
  stage: 'collection',
  unit: 'changes',
  description: 'change of a blocklisted project',
  parameters: {
    projectBlocklist: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      default: [],
      description:
        'blocklisted_project: Gerrit project names (exact, on every host) whose changes are removed at collection (empty by default; docs/decontamination.md).',
    },
  },
  decide(change, ctx) {
    if (change.project === undefined || !ctx.rules.projectBlocklist.includes(change.project)) return null;
    return { rule: this.id, evidence: { project: change.project } };
  },
};
