// Builds that stand as a record: tags, what a rebuild keeps of a tagged build, and `diff`'s
// reconciliation per organization and window with every entered example explained (seed 001).
// Real sql.js files on disk; the scenario's numbers are checked by hand in versionsScenario.ts.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { UserError } from '../../src/core/ground/store/errors';
import { compareBuilds, comparisonReport } from '../../src/core/publish/verify/compareBuilds';
import { buildLabel, resolveBuild, tagBuild, tagNameProblem } from '../../src/core/publish/versions/tags';
import { requireRecordedExamples, staleRulesVersion } from '../../src/core/publish/versions/recordedBuild';
import { exportCorpus } from '../../src/core/publish/export/exportJsonl';
import { storeConfig } from '../../src/core/gerrit/fetchCorpus';
import { storedConfig } from '../../src/core/build/stages/loadCorpus';
import { applyEdit } from '../../src/core/jobs/edits';
import { KEY, twoBuilds } from './versionsScenario';

const tempFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'rc-versions-')), 'corpus.sqlite');
const count = (store: CorpusStore, sql: string, params: (string | number)[] = []) => Number(store.scalar(sql, params));

describe('builds that stand as a record', function () {
  this.timeout(60_000);

  describe('diff between two builds (seed 001, v2 → v3)', () => {
    let store: CorpusStore;
    let first: number;
    let second: number;
    before(async () => {
      const file = tempFile();
      ({ store, first, second } = await twoBuilds(file));
      store.save();
      store.close();
      store = await CorpusStore.open(file); // everything below reads the file as saved
    });
    after(() => store.close());

    it('reconciles per organization and window, a move counted out of one window and into the other', () => {
      const c = compareBuilds(store, first, second);
      const cells = c.cells.map((x) => [
        x.org,
        x.window,
        x.keptFrom,
        x.left,
        x.entered,
        x.keptTo,
        x.movedOut,
        x.movedIn,
      ]);
      assert.deepEqual(cells, [
        ['openstack', 'pilot', 1, 1, 0, 0, 1, 0],
        ['openstack', 'train', 3, 1, 3, 5, 0, 1],
        ['qt', 'dev', 1, 0, 0, 1, 0, 0],
      ]);
      assert.deepEqual(
        [c.keptFrom, c.left.length, c.entered.length, c.keptTo],
        [5, 1, 2, 6],
        'the total: the move is neither left nor entered',
      );
      assert.deepEqual(c.moved, [{ key: KEY.moved, org: 'openstack', from: 'pilot', to: 'train' }]);
      const { summary } = comparisonReport(c, { from: 'build 1', to: 'build 2' }, false);
      assert.ok(summary.includes('  openstack pilot: 1 − 1 + 0 = 0 (1 moved out)'), summary.join('\n'));
      assert.ok(summary.includes('  openstack train: 3 − 1 + 3 = 5 (1 moved in)'), summary.join('\n'));
      assert.ok(summary.includes('  qt dev: 1 − 0 + 0 = 1'), summary.join('\n'));
      assert.ok(
        summary.includes(`kept(${first}) − left + entered = kept(${second}): 5 − 1 + 2 = 6`),
        summary.join('\n'),
      );
    });

    it('explains every example that entered: its removed twin and the rule that removed it, or new input', () => {
      const c = compareBuilds(store, first, second);
      assert.deepEqual(
        c.left.map((m) => [m.key, m.rule]),
        [[KEY.twin, 'suggested_edit']],
      );
      assert.deepEqual(
        c.entered.map((m) => [m.key, m.rule, m.reason]),
        [
          [KEY.duplicate, 'exact_duplicate', { kind: 'twin_removed', twin: KEY.twin, twinRule: 'suggested_edit' }],
          [KEY.newInput, 'absent', { kind: 'new_input' }],
        ],
      );
      assert.equal(c.entered[0].explanation, `its twin ${KEY.twin}, kept before, is now removed by suggested_edit`);
    });

    it('reports the kept example whose text changed, per organization and window', () => {
      const c = compareBuilds(store, first, second);
      assert.deepEqual(c.textChanged, [{ key: KEY.textChanged, org: 'openstack', window: 'train' }]);
      assert.deepEqual(
        c.cells.map((x) => x.textChanged),
        [0, 1, 0],
      );
      const quiet = comparisonReport(c, { from: 'a', to: 'b' }, false);
      assert.ok(
        quiet.summary.includes('kept in both with changed text: 1 (openstack train 1); --verbose lists them'),
        quiet.summary.join('\n'),
      );
      assert.ok(!quiet.rows.some((r) => r[0] === 'changed'));
      const verbose = comparisonReport(c, { from: 'a', to: 'b' }, true);
      assert.deepEqual(
        verbose.rows.filter((r) => r[0] === 'changed'),
        [['changed', KEY.textChanged, 'train']],
      );
    });

    it('says every kept example is otherwise unchanged when nothing else changed', async () => {
      const again = await CorpusStore.fromBytes(store.file, store.export());
      try {
        const third = await runBuild(again);
        const c = compareBuilds(again, second, third.buildId);
        assert.deepEqual([c.left.length, c.entered.length, c.moved.length, c.textChanged?.length], [0, 0, 0, 0]);
        assert.equal(
          comparisonReport(c, { from: 'a', to: 'b' }, false).summary.at(-1),
          'kept in both with changed text: 0; every kept example is otherwise unchanged',
        );
      } finally {
        again.close();
      }
    });

    it('counts text changes against a pruned build from the stored digests, and says "not counted" when there are none', async () => {
      const copy = await CorpusStore.fromBytes(store.file, store.export());
      try {
        assert.equal(
          count(copy, 'SELECT count(*) FROM examples WHERE build_id = ?', [first]),
          0,
          'build 1 was pruned by build 2',
        );
        assert.equal(compareBuilds(copy, first, second).textChanged?.length, 1, 'from decisions.text_sha256');
        // A build written before the digests were kept, and pruned since: nothing to compare texts with.
        copy.run('UPDATE decisions SET text_sha256 = NULL WHERE build_id = ?', [first]);
        const c = compareBuilds(copy, first, second);
        assert.equal(c.textChanged, null);
        assert.deepEqual(
          c.cells.map((x) => x.textChanged),
          [null, null, null],
        );
        assert.match(
          comparisonReport(c, { from: 'a', to: 'b' }, false).summary.at(-1)!,
          /^kept in both with changed text: not counted \(build 1 was written before/,
        );
      } finally {
        copy.close();
      }
    });
  });

  describe('tags', () => {
    it('a tagged build keeps its examples through later rebuilds; an untagged one is pruned', async () => {
      const { store, first, second } = await twoBuilds(tempFile(), {
        tag: (s, id) => tagBuild(s, id, 'v1', '2026-01-01T00:00:00Z'),
      });
      try {
        assert.equal(
          count(store, 'SELECT count(*) FROM examples WHERE build_id = ? AND rule IS NULL', [first]),
          5,
          'v1 keeps its 5 kept examples',
        );
        assert.equal(count(store, 'SELECT count(*) FROM examples WHERE build_id = ?', [second]), 7);
        // Ids follow the frozen build's, and every decision still points at its own build's row.
        assert.ok(
          count(store, 'SELECT min(id) FROM examples WHERE build_id = ?', [second]) >
            count(store, 'SELECT max(id) FROM examples WHERE build_id = ?', [first]),
        );
        for (const b of [first, second]) {
          assert.equal(
            count(
              store,
              "SELECT count(*) FROM decisions d JOIN examples e ON e.id = d.unit_id AND e.build_id = d.build_id AND e.example_key = d.unit_key WHERE d.build_id = ? AND d.unit IN ('examples', 'hunks')",
              [b],
            ),
            count(store, 'SELECT count(*) FROM examples WHERE build_id = ?', [b]),
          );
        }
        const third = await runBuild(store);
        assert.equal(
          count(store, 'SELECT count(*) FROM examples WHERE build_id = ?', [second]),
          0,
          'build 2, untagged, is pruned',
        );
        assert.equal(count(store, 'SELECT count(*) FROM examples WHERE build_id = ?', [first]), 6, 'v1 still whole');
        assert.equal(
          count(
            store,
            'SELECT count(*) FROM example_comments x JOIN examples e ON e.id = x.example_id WHERE e.build_id = ?',
            [first],
          ),
          6,
        );
        assert.equal(third.corpusHash, compareHash(store, second), 'the tag changes no corpus hash');

        // Exporting v1 writes what the file recorded for it: its own texts, not build 3's.
        const out = path.join(path.dirname(store.file), 'v1.jsonl');
        const r = exportCorpus(store, out, {}, resolveBuild(store, 'v1', '--build'));
        assert.equal(r.examples, 5);
        assert.throws(
          () => requireRecordedExamples(store, second),
          (e: Error) =>
            e instanceof UserError &&
            e.message ===
              `build ${second}: its examples are no longer in ${store.file} (a later build pruned them; only the latest build and tagged builds keep theirs)`,
        );
      } finally {
        store.close();
      }
    });

    it('refuses a taken, digits-only or malformed name, and a build whose examples were pruned', async () => {
      const { store, first, second } = await twoBuilds(tempFile(), { tag: (s, id) => tagBuild(s, id, 'v1') });
      try {
        assert.throws(() => tagBuild(store, second, 'v1'), {
          message: `tag name "v1" already names build ${first}; a tag is never moved, choose another name`,
        });
        assert.equal(store.scalar("SELECT build_id FROM build_tags WHERE name = 'v1'"), first, 'the tag did not move');
        assert.throws(() => tagBuild(store, second, '3'), {
          message: 'tag name "3": a name of digits only would read as a build id; add a letter (e.g. "v3")',
        });
        assert.throws(() => tagBuild(store, second, 'v 3'), {
          message: 'tag name "v 3": use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit',
        });
        assert.match(
          tagNameProblem(store, 'x\u202ey') ?? '',
          /tag name "x\\u202ey"/,
          'host-free, but escaped all the same',
        );
        assert.throws(() => tagBuild(store, 99, 'v9'), {
          message: `build 99: no such finished build in ${store.file} (builds: ${first}, ${second})`,
        });
        tagBuild(store, second, 'v2');
        await runBuild(store);
        // Build 3 is untagged: build 4 prunes its examples, and a tag cannot bring them back.
        const fourth = await runBuild(store);
        assert.throws(() => tagBuild(store, fourth.buildId - 1, 'late'), {
          message: `build ${fourth.buildId - 1}: its examples were pruned by a later build (only the latest build and tagged builds keep them); tag a build before rebuilding`,
        });
        assert.equal(resolveBuild(store, 'v2', '--build'), second);
        assert.equal(buildLabel(store, second), `build ${second} (v2)`);
        assert.throws(() => resolveBuild(store, 'v7', '--from'), {
          message: `--from v7: no such build or tag in ${store.file} (builds: 1, 2, 3, 4; tags: v1, v2)`,
        });
      } finally {
        store.close();
      }
    });

    it("tags through the inspector's edit, as the saver applies it", async () => {
      const { store, second } = await twoBuilds(tempFile());
      try {
        assert.equal(applyEdit(store, { kind: 'tag', buildId: second, name: 'v3', at: '2026-01-02T00:00:00Z' }), 'v3');
        assert.deepEqual(store.get('SELECT name, build_id, tagged_at FROM build_tags'), {
          name: 'v3',
          build_id: second,
          tagged_at: '2026-01-02T00:00:00Z',
        });
        const b = store.get<{ rules_version: string; config_hash: string; corpus_hash: string }>(
          'SELECT rules_version, config_hash, corpus_hash FROM builds WHERE id = ?',
          [second],
        )!;
        assert.deepEqual(store.get('SELECT rules_version, config_hash, corpus_hash FROM build_tags'), b);
      } finally {
        store.close();
      }
    });

    it("knows when a build's rules version is no longer what this code builds", async () => {
      const { store, first, second } = await twoBuilds(tempFile(), { tag: (s, id) => tagBuild(s, id, 'v1') });
      try {
        assert.equal(staleRulesVersion(store, second), undefined, 'the latest build is what the stored config gives');
        // Build 1 ran with the original windows: the rules version reads only window names, so it agrees too.
        assert.equal(staleRulesVersion(store, first), undefined);
        const config = storedConfig(store);
        storeConfig(store, {
          ...config,
          rules: { ...config.rules, maxLinesPerSide: config.rules.maxLinesPerSide + 1 },
        });
        // A build rebuilds with the config it recorded: a later corpus.json does not make it stale.
        assert.equal(staleRulesVersion(store, first), undefined);
        // The rules' code changing since does (a rules version this code does not build).
        store.run("UPDATE builds SET rules_version = 'abcdef0123456789' WHERE id = ?", [first]);
        const stale = staleRulesVersion(store, first);
        assert.ok(stale);
        assert.equal(stale.recorded, 'abcdef0123456789');
        assert.equal(stale.configRecorded, true);
      } finally {
        store.close();
      }
    });
  });
});

function compareHash(store: CorpusStore, buildId: number): string {
  return String(store.scalar('SELECT corpus_hash FROM builds WHERE id = ?', [buildId]));
}
