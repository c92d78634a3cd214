// Loads one org's fixture and finds its changes by any change identifier Gerrit accepts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FixtureChange, OrgFixture } from './fixtureTypes';

/** The committed fixtures, bundled with the server so it works from any output folder. */
function bundledFixture(org: string): unknown {
  // require() of literal paths lets esbuild inline the JSON; tsc does not type these files.
  /* eslint-disable @typescript-eslint/no-require-imports -- an import would make tsc type the large fixtures */
  switch (org) {
    case 'openstack':
      return require('./fixtures/openstack.json');
    case 'qt':
      return require('./fixtures/qt.json');
    case 'wikimedia':
      return require('./fixtures/wikimedia.json');
    default:
      return undefined;
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
}

export function loadOrgFixture(org: string, fixturesDir?: string): OrgFixture {
  if (!/^[a-z][a-z0-9-]*$/.test(org)) throw new Error(`fake Gerrit: bad org name ${JSON.stringify(org)}`);
  const data = fixturesDir
    ? JSON.parse(readFileSync(path.join(fixturesDir, `${org}.json`), 'utf8'))
    : bundledFixture(org);
  if (!data) throw new Error(`fake Gerrit: no fixture for org ${org}`);
  const fixture = data as OrgFixture;
  if (fixture.org !== org || !Array.isArray(fixture.changes))
    throw new Error(`fake Gerrit: ${org}.json is not an org fixture`);
  return fixture;
}

export class FixtureStore {
  /**
   * `serverVersion`: what GET /config/server/version answers. `staleCommentCounts`: changes whose
   * listing reports total_comment_count 0 although they have comments, as a change index entry written
   * before its comments does (ChangeData.totalCommentCount returns the index's stored count on a query;
   * gerrit java/com/google/gerrit/server/query/change/ChangeData.java @ 9a0cab9f25b9168bb11b7c53ae905272a99140bd).
   */
  constructor(
    readonly fixture: OrgFixture,
    readonly serverVersion = '3.10.3',
    readonly staleCommentCounts: ReadonlySet<number> = new Set(),
    /** Gerrit's `index.maxPages` (0 or absent: no limit, Gerrit's default); see listing.ts pageRefusal. */
    readonly indexMaxPages = 0,
  ) {}

  get changes(): readonly FixtureChange[] {
    return this.fixture.changes;
  }

  /**
   * Resolves a decoded change identifier: `_number`, `project~branch~Change-Id` (the triplet),
   * `project~_number`, or a bare Change-Id when it names one change only (as Gerrit does).
   */
  find(identifier: string): FixtureChange | undefined {
    if (/^\d+$/.test(identifier)) return this.changes.find((c) => c.change._number === Number(identifier));
    const parts = identifier.split('~');
    if (parts.length === 3) {
      const [project, branch, changeId] = parts;
      const bare = branch.replace(/^refs\/heads\//, '');
      return this.changes.find(
        (c) => c.change.project === project && c.change.branch === bare && c.change.change_id === changeId,
      );
    }
    if (parts.length === 2 && /^\d+$/.test(parts[1])) {
      return this.changes.find((c) => c.change.project === parts[0] && c.change._number === Number(parts[1]));
    }
    if (parts.length === 1 && /^I[0-9a-f]{40}$/.test(identifier)) {
      const matches = this.changes.filter((c) => c.change.change_id === identifier);
      return matches.length === 1 ? matches[0] : undefined;
    }
    return undefined;
  }
}
