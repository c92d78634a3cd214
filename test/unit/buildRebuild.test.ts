import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { UserError } from '../../src/core/ground/store/errors';
import { testConfig } from './buildFixture';
import { populate } from './buildScenario';

const tempFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'rc-rebuild-')), 'corpus.sqlite');
const count = (store: CorpusStore, sql: string, params: (string | number)[] = []) => Number(store.scalar(sql, params));

describe('rebuilds, versions and cancellation', () => {
  it('rebuilds to the same corpus hash, keeps older decisions and only the latest examples', async () => {
    const { store } = await populate(tempFile());
    const first = await runBuild(store);
    const second = await runBuild(store);
    assert.equal(second.buildId, first.buildId + 1);
    assert.equal(second.corpusHash, first.corpusHash);
    assert.equal(second.rulesVersion, first.rulesVersion);
    assert.equal(second.configHash, first.configHash);
    assert.equal(count(store, 'SELECT count(*) FROM examples WHERE build_id = ?', [first.buildId]), 0);
    assert.ok(count(store, 'SELECT count(*) FROM examples WHERE build_id = ?', [second.buildId]) > 0);
    assert.equal(
      count(store, 'SELECT count(*) FROM decisions WHERE build_id = ?', [first.buildId]),
      count(store, 'SELECT count(*) FROM decisions WHERE build_id = ?', [second.buildId]),
    );
    store.close();
  });

  it('gives the same corpus hash whatever order the records were stored in', async () => {
    const a = await populate(tempFile());
    const b = await populate(tempFile(), { reverse: true });
    const [ra, rb] = [await runBuild(a.store), await runBuild(b.store)];
    assert.equal(rb.corpusHash, ra.corpusHash);
    assert.deepEqual(rb.funnel.organizations, ra.funnel.organizations);
    a.store.close();
    b.store.close();
  });

  it('re-refines with changed rules from disk: a lower maxLinesPerSide changes decisions and versions', async () => {
    const { store } = await populate(tempFile());
    const base = await runBuild(store);
    const config = testConfig();
    const stricter = await runBuild(store, { config: { ...config, rules: { ...config.rules, maxLinesPerSide: 7 } } });
    assert.notEqual(stricter.rulesVersion, base.rulesVersion);
    assert.notEqual(stricter.configHash, base.configHash);
    assert.notEqual(stricter.corpusHash, base.corpusHash);
    const rule = (buildId: number) =>
      store.scalar("SELECT rule FROM decisions WHERE build_id = ? AND unit_key = 'openstack/110/1/7/nova/api.py'", [
        buildId,
      ]);
    assert.equal(rule(base.buildId), 'kept');
    assert.equal(rule(stricter.buildId), 'size', 'its 8-line hunk is now too long; the 7-line ones stay');
    assert.equal(
      store.scalar("SELECT unit FROM decisions WHERE build_id = ? AND unit_key = 'openstack/110/1/7/nova/api.py'", [
        stricter.buildId,
      ]),
      'hunks',
    );
    assert.equal(stricter.kept, base.kept - 1);
    store.close();
  });

  it('saves to disk and reopens with the build, its examples and its funnel', async () => {
    const file = tempFile();
    const { store } = await populate(file);
    const result = await runBuild(store);
    store.save();
    store.close();
    const reopened = await CorpusStore.open(file);
    const row = reopened.get<{ corpus_hash: string; funnel: string }>(
      'SELECT corpus_hash, funnel FROM builds WHERE id = ?',
      [result.buildId],
    );
    assert.equal(row?.corpus_hash, result.corpusHash);
    assert.deepEqual(JSON.parse(String(row?.funnel)), result.funnel);
    assert.equal(
      count(reopened, 'SELECT count(*) FROM examples WHERE build_id = ? AND rule IS NULL', [result.buildId]),
      result.kept,
    );
    const rebuilt = await runBuild(reopened);
    assert.equal(rebuilt.corpusHash, result.corpusHash, 'verify --reproduce on the reopened file');
    reopened.close();
  });

  it('stops with an AbortError when cancelled mid-build and writes nothing', async () => {
    const { store } = await populate(tempFile());
    const done = await runBuild(store);
    const before = count(store, 'SELECT count(*) FROM decisions');
    const controller = new AbortController();
    await assert.rejects(
      runBuild(store, {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.stage === 'examples') controller.abort();
        },
      }),
      { name: 'AbortError' },
    );
    assert.equal(count(store, 'SELECT count(*) FROM builds'), 1);
    assert.equal(count(store, 'SELECT count(*) FROM decisions'), before);
    assert.equal(
      count(store, 'SELECT count(*) FROM examples WHERE build_id = ?', [done.buildId]) > 0,
      true,
      'the last build is untouched',
    );
    store.close();
  });

  it('refuses, in one line naming the file, a corpus with no stored config', async () => {
    const file = tempFile();
    const store = await CorpusStore.create(file);
    await assert.rejects(
      runBuild(store),
      (e: Error) => e instanceof UserError && e.message.startsWith(file) && !e.message.includes('\n'),
    );
    store.close();
  });
});
