// The tree's counts under a filter equal what the groups list, on the sample corpus built by the real
// fetch and build; change-level groups list their changes, and a removed change's note says why.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSampleCorpus } from '../../scripts/sample-corpus';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { latestBuildId, treeGroups } from '../../src/core/review/inspect/groups';
import {
  filteredCounts,
  groupKey,
  listItems,
  type GroupRef,
  type ItemFilter,
} from '../../src/core/review/inspect/items';
import { changeNoteText, getRemovedChange } from '../../src/core/review/inspect/changeNote';

function listAll(store: CorpusStore, ref: GroupRef, filter: ItemFilter) {
  const all = [];
  for (;;) {
    const page = listItems(store, ref, all.length, 4, filter);
    all.push(...page);
    if (page.length < 4) return all;
  }
}

describe('tree counts under a filter', function () {
  this.timeout(60_000);
  let store: CorpusStore;
  let buildId: number;

  before(async () => {
    const { dbFile } = await buildSampleCorpus(mkdtempSync(path.join(tmpdir(), 'rc-tree-counts-')));
    store = await CorpusStore.open(dbFile);
    buildId = latestBuildId(store)!;
    const key = String(
      store.scalar('SELECT example_key FROM examples WHERE build_id = ? AND rule IS NULL ORDER BY id LIMIT 1', [
        buildId,
      ]),
    );
    store.run(
      "INSERT INTO labels(example_key, rater, label, labelled_at) VALUES (?, 'r_0000000000000000', 'answers', '2026-01-01T00:00:00Z')",
      [key],
    );
  });
  after(() => store.close());

  for (const filter of [
    { flagged: true },
    { label: 'answers' },
    { text: 'the' },
    { text: 'zq-nothing-says-this' },
  ] as ItemFilter[]) {
    it(`counts what each group lists: ${JSON.stringify(filter)}`, () => {
      const counts = filteredCounts(store, buildId, filter);
      let matched = 0;
      for (const org of treeGroups(store, buildId)) {
        for (const w of org.windows) {
          const refs: GroupRef[] = [
            { buildId, org: org.org, window: w.window, rule: 'kept', unit: 'examples' },
            ...w.rules
              .filter((r) => r.unit !== 'changes')
              .map((r) => ({
                buildId,
                org: org.org,
                window: w.window,
                rule: r.rule,
                unit: r.unit as GroupRef['unit'],
              })),
          ];
          for (const ref of refs) {
            const listed = listAll(store, ref, filter).length;
            assert.equal(
              counts.get(groupKey(ref.org, ref.window, ref.rule)) ?? 0,
              listed,
              `${ref.org}/${ref.window}/${ref.rule}`,
            );
            matched += listed;
          }
        }
      }
      if (filter.text === 'zq-nothing-says-this') assert.equal(matched, 0);
      else assert.ok(matched > 0, 'the filter matches something in the sample');
    });
  }

  it('counts only open flags as flagged', () => {
    const confirmed = store.scalar(
      "SELECT example_key FROM flags WHERE status = 'confirmed' AND example_key NOT IN (SELECT example_key FROM flags WHERE status = 'open') LIMIT 1",
    );
    assert.ok(typeof confirmed === 'string', 'the sample has an example whose only flag is confirmed');
    const ref = store.get<{ org: string; window: string | null; rule: string | null }>(
      'SELECT d.org, d.window, e.rule FROM examples e JOIN decisions d ON d.build_id = e.build_id AND d.unit = e.unit AND d.unit_key = e.example_key WHERE e.build_id = ? AND e.example_key = ?',
      [buildId, confirmed],
    )!;
    const items = listAll(
      store,
      { buildId, org: ref.org, window: ref.window, rule: ref.rule ?? 'kept', unit: 'examples' },
      { flagged: true },
    );
    assert.ok(items.every((i) => i.kind === 'example' && i.key !== confirmed));
  });

  it("lists a change-level group's changes, and its note says what the rule saw", () => {
    const groups = treeGroups(store, buildId).flatMap((o) =>
      o.windows.flatMap((w) => w.rules.filter((r) => r.unit === 'changes').map((r) => ({ w, r }))),
    );
    assert.ok(groups.length >= 4);
    for (const { w, r } of groups) {
      const items = listAll(store, { buildId, org: w.org, window: w.window, rule: r.rule, unit: 'changes' }, {});
      assert.equal(items.length, r.count, `${w.org}/${w.window}/${r.rule}`);
      for (const it of items) {
        assert.equal(it.kind, 'change');
        const note = changeNoteText(getRemovedChange(store, buildId, it.id)!);
        assert.match(note, new RegExp(`^${w.org} change #${it.changeNumber}\\n`));
        assert.match(note, new RegExp(`\\nremoved by: ${r.rule}\\nwhy: .+`));
      }
    }
    assert.equal(
      listAll(
        store,
        { buildId, org: 'openstack', window: 'pilot', rule: 'no_comments', unit: 'changes' },
        { flagged: true },
      ).length,
      0,
      'no change is flagged',
    );
  });
});
