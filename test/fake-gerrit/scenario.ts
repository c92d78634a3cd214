// The test set-up that makes the fixtures' disallowed and fetch_error rows fire (fixtures/README.md,
// "Setting up the rules that need a test's help"), ready to pass to startSampleHosts().
import type { Fault } from './faults';
import { loadOrgFixture } from './fixtureStore';
import { SCENARIO } from './fixtures/expectations';

export { SCENARIO };

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function changeIdOf(org: string, number: number): string {
  const found = loadOrgFixture(org).changes.find((c) => c.change._number === number);
  if (!found) throw new Error(`no fixture change ${org} ${number}`);
  return found.change.id;
}

/** A regex over a change's routes that matches both URL forms: its number and its `id`. */
export function changeRoute(org: string, number: number, rest: string): RegExp {
  return new RegExp(`^(?:/a)?/changes/(?:${number}|${escapeRegex(changeIdOf(org, number))})/${rest}`, 'i');
}

/** robots.txt per org: Crawl-delay 0, and the disallowed change under both URL forms. */
export function scenarioRobotsTxt(): Record<string, string> {
  const { org, change } = SCENARIO.disallowed;
  return {
    [org]: `User-agent: *\nCrawl-delay: 0\nDisallow: /changes/${change}/\nDisallow: /changes/${changeIdOf(org, change)}/\n`,
  };
}

/** Faults per org that fail, `times` times, the comments route and the diff the scenario names. */
export function scenarioFaults(times = 100): Record<string, Fault[]> {
  const out: Record<string, Fault[]> = {};
  const { org: cOrg, change: cChange } = SCENARIO.commentsFetchError;
  (out[cOrg] ??= []).push({ route: changeRoute(cOrg, cChange, 'comments'), kind: '500', times });
  const { org: dOrg, change: dChange, path, base } = SCENARIO.diffFetchError;
  const file = escapeRegex(encodeURIComponent(path));
  (out[dOrg] ??= []).push({
    route: changeRoute(dOrg, dChange, `revisions/${base + 1}/files/${file}/diff`),
    kind: '500',
    times,
  });
  return out;
}
