import type { ChangeUnit, Rule } from '../types';

/**
 * The change is gone from the host: deleted, made private, or in a project now hidden. Such a change
 * leaves the listing, so a later fetch re-lists the range and asks each stored change missing from it
 * once; a 404 marks it (src/core/gerrit/followHost.ts, docs/crawling.md). Its earlier records stay in
 * the file, and a tagged build keeps its examples, but a new build publishes nothing a reader could no
 * longer fetch from the host, nor what its owner or an administrator withdrew.
 */
export const goneFromHost: Rule<ChangeUnit> = {
  id: 'gone_from_host',
  stage: 'collection',
  unit: 'changes',
  description: 'the change is gone from the host (deleted, private or hidden: a request of its own answered 404)',
  decide(change) {
    const gone = change.goneFromHost;
    return gone ? { rule: this.id, evidence: { gone_since: gone.at, answered: gone.status } } : null;
  },
};
