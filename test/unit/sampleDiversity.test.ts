// The diversity of the sample corpus's kept comments, per organization × window, equals the checked-in
// golden test/fixtures/golden/diversity.json (UPDATE_GOLDEN=1 rewrites it), through the real CLI;
// and rewrites stored through the judge's store add a set of their own.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSampleCorpus } from '../../scripts/sample-corpus';
import { runCli } from '../../src/cli/main';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { latestBuildId } from '../../src/core/review/inspect/groups';
import { diversityReport } from '../../src/core/review/diversity/report';
import { writeRewrite } from '../../src/core/build/judgments/judgmentStore';

const GOLDEN = path.resolve('test/fixtures/golden/diversity.json');

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('diversity of the sample corpus', function () {
  this.timeout(60_000);
  let db: string;

  before(async () => {
    ({ dbFile: db } = await buildSampleCorpus(mkdtempSync(path.join(tmpdir(), 'rc-diversity-'))));
  });

  it('has the golden values (test/fixtures/golden/diversity.json)', async () => {
    const r = await cli('diversity', '--db', db, '--json');
    assert.equal(r.code, 0, r.err);
    const { build: _b, ...actual } = JSON.parse(r.out);
    if (process.env.UPDATE_GOLDEN) writeFileSync(GOLDEN, JSON.stringify(actual, null, 2) + '\n');
    assert.ok(existsSync(GOLDEN), 'golden file present (UPDATE_GOLDEN=1 writes it)');
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8'));
    assert.deepEqual(actual, golden);
    // The sample's judge rewrote its comments both ways (scripts/sample-corpus.ts): a set per mode beside the originals.
    assert.deepEqual([...new Set(actual.sets.map((s: { source: string }) => s.source))].sort(), [
      'curev',
      'curev+',
      'original',
    ]);
  });

  it('prints a table with every set, and rejects a bad option in one line', async () => {
    const r = await cli('diversity', '--db', db, '--sample', '50', '--seed', '3');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /entropy log base 2/);
    assert.match(r.out, /distinct-1 +distinct-2/);
    const bad = await cli('diversity', '--db', db, '--sample', '1');
    assert.notEqual(bad.code, 0);
    assert.match(bad.err, /--sample 1: a whole number of at least 2/);
    const help = await cli('diversity', '-h');
    assert.equal(help.code, 0);
    assert.match(help.out, /--build <id\|tag>/);
  });

  it('adds a set per rewrite mode, from the rewrites the judge stored', async () => {
    const store = await CorpusStore.open(db);
    try {
      const build = latestBuildId(store)!;
      store.run('DELETE FROM comment_rewrites'); // this copy without the sample's own rewrites
      const before = diversityReport(store, build);
      const first = before.sets[0];
      const key = String(
        store.scalar(
          `SELECT h.org || '/' || c.number || '/' || cm.gerrit_id FROM example_comments x
        JOIN examples e ON e.id = x.example_id JOIN comments cm ON cm.id = x.comment_id JOIN changes c ON c.id = cm.change_id
        JOIN hosts h ON h.id = c.host_id JOIN decisions d ON d.build_id = e.build_id AND d.unit = 'comments'
          AND d.unit_key = h.org || '/' || c.number || '/' || cm.gerrit_id
        WHERE e.build_id = ? AND e.rule IS NULL AND d.rule = 'kept' AND h.org = ? AND e.window IS ? ORDER BY c.number, cm.gerrit_id LIMIT 1`,
          [build, first.org, first.window],
        ),
      );
      writeRewrite(store, {
        cacheKey: 'test-rewrite',
        commentKey: key,
        mode: 'curev',
        model: 'fake',
        promptVersion: 'p1',
        text: 'Consider adding a test.',
        exemplarKeys: [],
        rewrittenAt: '2026-01-01T00:00:00Z',
      });
      const after = diversityReport(store, build);
      const rewrites = after.sets.filter((s) => s.source === 'curev');
      assert.equal(rewrites.length, 1);
      assert.deepEqual(
        [rewrites[0].org, rewrites[0].window, rewrites[0].metrics.comments, rewrites[0].metrics.tokens],
        [first.org, first.window, 1, 4],
      );
      assert.deepEqual(
        after.sets.filter((s) => s.source === 'original'),
        before.sets,
      );
    } finally {
      store.close();
    }
  });
});
