// Two builds with a known difference, as seed 001 describes v2 → v3: between them a later fetch stored a
// suggested edit on an example that was the earlier twin of a duplicate (so the twin leaves and the
// duplicate enters), one kept example's text changed, a new change arrived, and the pilot window was
// shortened so one kept example moves to train. Counts, checked by hand:
//   build 1 kept: openstack pilot #204; train #201, #203, #205 (#202 is #201's exact_duplicate); qt dev #301
//   build 2 kept: openstack train #204 (moved), #202 (twin #201 now suggested_edit), #203 (text changed),
//                 #205, #206 (new input); qt dev #301
//   openstack pilot 1 − 1 + 0 = 0; openstack train 3 − 1 + 3 = 5; qt dev 1 − 0 + 0 = 1; total 5 − 1 + 2 = 6.
import { CorpusFixture, diffOf, numbered, testConfig } from './buildFixture';
import { syncWindows } from '../../src/core/ground/config/windows';
import { storeConfig } from '../../src/core/gerrit/fetchCorpus';
import { runBuild } from '../../src/core/build/stages/runBuild';
import type { CorpusConfig } from '../../src/core/ground/config/types';
import type { CorpusStore } from '../../src/core/ground/store/corpusStore';

export const KEY = {
  twin: 'openstack/201/1/7/a.py',
  duplicate: 'openstack/202/1/7/a.py',
  textChanged: 'openstack/203/1/7/b.py',
  moved: 'openstack/204/1/7/c.py',
  unchanged: 'openstack/205/1/7/d.py',
  newInput: 'openstack/206/1/7/e.py',
  qt: 'qt/301/1/7/q.py',
};

// Comments with nothing in common: the dev window's comments protect train (protected_overlap), so
// shared phrasing would remove train examples for a reason this scenario is not about.
const COMMENTS: Record<number, string> = {
  201: 'Consider a clearer name for this counter',
  202: 'Same problem as the other copy here',
  203: 'This loop bound looks off by one',
  204: 'Prefer the helper from utils instead',
  205: 'Missing a docstring on the function',
  206: 'Guard against an empty list first',
  301: 'Qt style wants braces around that branch',
};

/** The windows of build 2: pilot ends mid-October, so #204 (created 2024-10-20) falls in train. */
export function shortPilot(config: CorpusConfig): CorpusConfig {
  return {
    ...config,
    windows: config.windows.map((w) =>
      w.name === 'pilot' ? { ...w, to: '2024-10-15' } : w.name === 'train' ? { ...w, from: '2024-10-15' } : w,
    ),
  };
}

/** The stored records build 1 reads. */
export async function firstRecords(file: string): Promise<CorpusFixture> {
  const fx = await CorpusFixture.create(file);
  const edited = (number: number, created: string, path: string, org = 'openstack') => {
    const id = fx.change({ number, created, org });
    fx.editedFile(id, path, {
      comments: [{ gerritId: `c-${number}`, line: 10, author: 'p-rev', message: COMMENTS[number] }],
    });
    return id;
  };
  edited(201, '2024-11-05T09:00:00Z', 'a.py');
  edited(202, '2024-11-20T09:00:00Z', 'a.py'); // the same hunk as #201, later: its exact duplicate
  edited(203, '2024-12-01T09:00:00Z', 'b.py');
  edited(204, '2024-10-20T09:00:00Z', 'c.py');
  edited(205, '2025-01-10T09:00:00Z', 'd.py');
  edited(301, '2025-09-10T09:00:00Z', 'q.py', 'qt');
  return fx;
}

/** What changed in the records and config between build 1 and build 2. */
export function secondRecords(fx: CorpusFixture): CorpusConfig {
  const store = fx.store;
  const changeId = (n: number) =>
    Number(
      store.scalar(
        "SELECT c.id FROM changes c JOIN hosts h ON h.id = c.host_id WHERE h.org = 'openstack' AND c.number = ?",
        [n],
      ),
    );
  // A reply on #201's line carrying Gerrit's suggested-edit fence, as a later fetch of the updated change stores it.
  fx.comment(changeId(201), {
    gerritId: 'c-suggest',
    path: 'a.py',
    line: 10,
    author: 'p-rev2',
    message: 'Like this:\n```suggestion\na.py line 10 (revised)\n```',
  });
  // #203's stored diff read again differs in its edited line: the same example, other text.
  store.run('DELETE FROM diffs WHERE change_id = ?', [changeId(203)]);
  const before = numbered(20, 'b.py line ');
  fx.diff(
    changeId(203),
    'b.py',
    1,
    diffOf(
      before,
      before.map((l, i) => (i === 9 ? `${l} (revised twice)` : l)),
    ),
  );
  const id = fx.change({ number: 206, created: '2025-02-01T09:00:00Z' });
  fx.editedFile(id, 'e.py', { comments: [{ gerritId: 'c-206', line: 10, author: 'p-rev', message: COMMENTS[206] }] });
  const config = shortPilot(testConfig());
  syncWindows(store, config);
  storeConfig(store, config);
  return config;
}

/** Both builds, the first tagged `v1` when `tagFirst` (before the second build prunes it). */
export async function twoBuilds(
  file: string,
  opts: { tag?: (store: CorpusStore, buildId: number) => void } = {},
): Promise<{ store: CorpusStore; first: number; second: number }> {
  const fx = await firstRecords(file);
  storeConfig(fx.store, fx.config);
  const first = await runBuild(fx.store);
  opts.tag?.(fx.store, first.buildId);
  secondRecords(fx);
  const second = await runBuild(fx.store);
  return { store: fx.store, first: first.buildId, second: second.buildId };
}
