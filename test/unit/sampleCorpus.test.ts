// The sample corpus end to end: fetched from the fake Gerrit and built by the real code, its funnel
// equals the checked-in golden dataset-funnel.json, every rule removes something, verify --reproduce
// is clean, and diff reconciles across a rules change.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSampleCorpus } from '../../scripts/sample-corpus';
import { runCli } from '../../src/cli/main';
import { FUNNEL } from '../../src/core/rules/funnel';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { countGroups, keptCount, latestBuildId, treeGroups } from '../../src/core/review/inspect/groups';
import { listItems, type GroupRef } from '../../src/core/review/inspect/items';
import { getExample } from '../../src/core/review/inspect/example';
import { exportedExamples } from '../../src/core/build/records/publishedRecords';

const GOLDEN = path.resolve('test/fixtures/golden/dataset-funnel.json');

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The funnel without what changes with time or code version. */
function stable(funnel: Record<string, unknown>) {
  const { createdAt: _c, rulesVersion: _r, corpus_hash: _h, ...rest } = funnel;
  // A probe's time is when the fetch ran.
  for (const o of Object.values((rest.organizations ?? {}) as Record<string, { probe?: { probed_at?: string } }>))
    if (o.probe) o.probe.probed_at = '(fetch time)';
  return rest;
}

describe('the sample corpus', function () {
  this.timeout(60_000);
  let dir: string;
  let db: string;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-sample-'));
    ({ dbFile: db } = await buildSampleCorpus(dir));
  });

  it('has the golden funnel (test/fixtures/golden/dataset-funnel.json)', async () => {
    const r = await cli('funnel', '--db', db, '--json');
    assert.equal(r.code, 0, r.err);
    const actual = stable(JSON.parse(r.out));
    if (process.env.UPDATE_GOLDEN) writeFileSync(GOLDEN, JSON.stringify(actual, null, 2) + '\n');
    assert.ok(existsSync(GOLDEN), 'golden file present (UPDATE_GOLDEN=1 writes it)');
    assert.deepEqual(actual, JSON.parse(readFileSync(GOLDEN, 'utf8')));
  });

  it("finds each example comment's decision by its key, as the build recorded it for that comment", async () => {
    const store = await CorpusStore.open(db);
    try {
      const build = latestBuildId(store)!;
      const recorded = new Map(
        store
          .all<{ unit_id: number; rule: string }>(
            "SELECT unit_id, rule FROM decisions WHERE build_id = ? AND unit = 'comments'",
            [build],
          )
          .map((d) => [Number(d.unit_id), String(d.rule)]),
      );
      const ids = store
        .all<{ id: number }>('SELECT id FROM examples WHERE build_id = ?', [build])
        .map((e) => Number(e.id));
      let comments = 0;
      let removed = 0;
      for (const id of ids) {
        for (const c of getExample(store, id)!.comments) {
          comments++;
          const rule = recorded.get(c.id);
          assert.ok(rule, `comment ${c.gerritId} has a decision`);
          assert.equal(c.removedBy, rule === 'kept' ? null : rule, `comment ${c.gerritId}`);
          if (c.removedBy) removed++;
        }
      }
      assert.ok(comments > 20 && removed > 0, `${comments} comments, ${removed} removed by a rule`);
      const exported = exportedExamples(store, build);
      // The same count through the comments' ids, the way the export found them before schema 2.
      const keptAttached = Number(
        store.scalar(
          `SELECT count(*) FROM example_comments x JOIN examples e ON e.id = x.example_id
        JOIN decisions d ON d.build_id = e.build_id AND d.unit = 'comments' AND d.unit_id = x.comment_id
        WHERE e.build_id = ? AND e.rule IS NULL AND d.rule = 'kept'`,
          [build],
        ),
      );
      assert.ok(keptAttached > 0);
      assert.equal(
        exported.reduce((n, e) => n + e.comments.length, 0),
        keptAttached,
        'the export holds every kept comment of every kept example',
      );
    } finally {
      store.close();
    }
  });

  it('lists every rule in funnel order for each organization, and each removes at least one unit somewhere', async () => {
    const funnel = JSON.parse((await cli('funnel', '--db', db, '--json')).out);
    const orgs = Object.values(funnel.organizations) as {
      funnel: { rule: string; stage: string; removed: number }[];
    }[];
    assert.equal(orgs.length, 3);
    for (const o of orgs)
      assert.deepEqual(
        o.funnel.map((r) => `${r.stage}/${r.rule}`),
        FUNNEL.map((r) => `${r.stage}/${r.rule}`),
      );
    for (const step of FUNNEL) {
      // Off by default and off in the sample (irrelevant_comment's judgments are there, the rule is not on;
      // protected_comment's reference comments remove their examples): not counted, never 0.
      if (step.rule === 'irrelevant_comment' || step.rule === 'protected_comment') {
        for (const o of orgs) assert.equal(o.funnel.find((r) => r.rule === step.rule)?.removed, null);
        continue;
      }
      // The sample is one fetch of hosts that never changed: nothing is gone, deleted or written after a
      // merge. test/unit/followHost.test.ts fetches a host again after it changed, and buildScenario plants them.
      if (['gone_from_host', 'deleted_on_host', 'post_merge_comment'].includes(step.rule)) continue;
      const removed = orgs.reduce(
        (n, o) => n + (o.funnel.find((r) => r.stage === step.stage && r.rule === step.rule)?.removed ?? 0),
        0,
      );
      assert.ok(removed > 0, `${step.stage}/${step.rule} removes something in the sample`);
    }
  });

  it('prints the funnel as an aligned table without --json', async () => {
    const r = await cli('funnel', '--db', db);
    assert.match(r.out, /^openstack$/m);
    assert.match(r.out, /^ {2}comments {9}own_author +comments +\d+$/m); // the stage column fits "decontamination"
  });

  it('verify --reproduce prints clean', async () => {
    const r = await cli('verify', '--db', db, '--reproduce');
    assert.equal(r.err, '');
    assert.equal(r.out, 'clean');
    assert.equal(r.code, 0);
  });

  it('diff reconciles across a rules change (a lower maxLinesPerSide)', async () => {
    const config = JSON.parse(readFileSync(path.join(dir, 'corpus.json'), 'utf8'));
    config.rules = { ...config.rules, maxLinesPerSide: 12 };
    const stricter = path.join(dir, 'stricter.json');
    writeFileSync(stricter, JSON.stringify(config));
    const before = Number(/build (\d+)/.exec((await cli('funnel', '--db', db)).out)![1]);
    const built = await cli('build', '--db', db, '--config', stricter);
    assert.equal(built.code, 0, built.err);
    const after = before + 1;
    const r = await cli('diff', '--db', db, '--from', String(before), '--to', String(after));
    assert.equal(r.code, 0, r.err);
    const left = r.out.split('\n').filter((l) => l.startsWith('left\t'));
    assert.ok(left.length > 0, 'some examples left');
    for (const l of left) assert.equal(l.split('\t')[2], 'size', `left under size: ${l}`);
    const m = /^kept\((\d+)\) − left \+ entered = kept\((\d+)\): (\d+) − (\d+) \+ (\d+) = (\d+)$/m.exec(r.out);
    assert.ok(m, r.out);
    const [keptA, nLeft, nEntered, keptB] = [m[3], m[4], m[5], m[6]].map(Number);
    assert.equal(keptA - nLeft + nEntered, keptB);
    assert.equal(nLeft, left.length);
    // verify now reproduces the stricter build, whose config it stored
    assert.equal((await cli('verify', '--db', db, '--reproduce')).out, 'clean');
  });

  it('exports the kept examples as JSONL with the funnel beside them', async () => {
    const out = path.join(dir, 'export', 'examples.jsonl');
    const missing = await cli('export', '--db', db, '--out', out);
    assert.notEqual(missing.code, 0);
    assert.match(missing.err, /--out .*the folder .* does not exist/);
    const flat = path.join(dir, 'examples.jsonl');
    const r = await cli('export', '--db', db, '--out', flat);
    assert.equal(r.code, 0, r.err);
    const lines = readFileSync(flat, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const funnel = JSON.parse(readFileSync(path.join(dir, 'dataset-funnel.json'), 'utf8'));
    const keptTotal = Object.values(
      funnel.organizations as Record<string, { windows: Record<string, { examples: number | null }> }>,
    ).reduce((n, o) => n + Object.values(o.windows).reduce((m, w) => m + (w.examples ?? 0), 0), 0);
    assert.equal(lines.length, keptTotal);
    for (const e of lines) {
      for (const k of [
        'id',
        'org',
        'project',
        'change',
        'created',
        'window',
        'half',
        'path',
        'language',
        'psBefore',
        'psAfter',
        'before',
        'after',
        'comments',
        'flags',
      ])
        assert.ok(k in e, `${k} in export`);
      assert.ok(e.comments.length > 0);
      for (const c of e.comments) assert.match(c.author, /^u_[0-9a-f]{16}$/);
    }
    const crlf = lines.find((e) => e.change === 930017);
    assert.ok(crlf && crlf.before.includes('\r\n'), 'CRLF comes through byte-exact');
  });

  it("reads the tree's group counts from the funnel, equal to counting the decisions", async () => {
    const store = await CorpusStore.open(db);
    try {
      const builds = store.all<{ id: number }>('SELECT id FROM builds ORDER BY id');
      assert.ok(builds.length >= 2);
      for (const b of builds) {
        // The funnel also says what it could not count (a node per not-counted rule) and the probe; the decisions cannot.
        const fromFunnel = treeGroups(store, b.id);
        const counted = fromFunnel.map(({ probe: _probe, ...o }) => ({
          ...o,
          windows: o.windows.map((w) => ({
            ...w,
            rules: w.rules.filter((r) => !r.notCounted).map(({ partly: _partly, ...r }) => r),
          })),
        }));
        assert.deepEqual(counted, countGroups(store, b.id), `build ${b.id}`);
        const qt = fromFunnel.find((o) => o.org === 'qt')!;
        assert.match(qt.probe ?? '', /^probe failed: 1 of 2 had comments; fetched without the shortcut$/);
        for (const w of qt.windows.filter((x) => x.window !== null))
          assert.match(
            w.rules.find((r) => r.rule === 'no_comments')?.notCounted ?? '',
            /^probe failed/,
            `qt ${w.window}: no_comments not counted`,
          );
        const kept = store.scalar(
          "SELECT count(*) FROM decisions WHERE build_id = ? AND unit = 'examples' AND rule = 'kept'",
          [b.id],
        );
        assert.equal(keptCount(store, b.id), Number(kept), `build ${b.id}: the status bar's kept count`);
      }
    } finally {
      store.close();
    }
  });

  it('lists every example group in full, page by page (by offset and after the last id), in tree order', async () => {
    const store = await CorpusStore.open(db);
    try {
      const buildId = latestBuildId(store)!;
      let groups = 0;
      for (const org of treeGroups(store, buildId)) {
        for (const w of org.windows) {
          const refs: GroupRef[] = [{ buildId, org: org.org, window: w.window, rule: 'kept', unit: 'examples' }];
          for (const r of w.rules)
            if (r.unit === 'examples' || r.unit === 'hunks')
              refs.push({
                buildId,
                org: org.org,
                window: w.window,
                rule: r.rule,
                unit: r.unit as 'examples' | 'hunks',
              });
          for (const ref of refs) {
            const expected = store
              .all<{ id: number }>(
                `SELECT e.id FROM examples e JOIN changes c ON c.id = e.change_id JOIN hosts h ON h.id = c.host_id
               WHERE e.build_id = ? AND h.org = ? AND e.window IS ? AND ${ref.rule === 'kept' ? 'e.rule IS NULL' : 'e.rule = ?'}
               ORDER BY c.created, c.number, e.path, e.before_start`,
                [buildId, ref.org, ref.window, ...(ref.rule === 'kept' ? [] : [ref.rule])],
              )
              .map((r) => r.id);
            const paged: number[] = [];
            for (let offset = 0; ; offset += 3) {
              const page = listItems(store, ref, offset, 3);
              paged.push(...page.map((it) => it.id));
              if (page.length < 3) break;
            }
            assert.deepEqual(paged, expected, `${ref.org}/${ref.window}/${ref.rule} by offset`);
            const keyset: number[] = [];
            for (;;) {
              const page = listItems(store, ref, keyset.length, 3, {}, keyset.at(-1));
              keyset.push(...page.map((it) => it.id));
              if (page.length < 3) break;
            }
            assert.deepEqual(keyset, expected, `${ref.org}/${ref.window}/${ref.rule} after the last id`);
            groups++;
          }
        }
      }
      assert.ok(groups >= 10, `${groups} groups checked`);
    } finally {
      store.close();
    }
  });

  it('stores the flags its builds detect on kept examples, each on a comment of that example, and keeps decisions', async () => {
    const store = await CorpusStore.open(db);
    try {
      const flags = store.all<{ example_key: string; reason: string; status: string; detail: string }>(
        'SELECT example_key, reason, status, detail FROM flags ORDER BY example_key, reason',
      );
      assert.deepEqual(
        flags.map((f) => `${f.example_key} ${f.reason} ${f.status}`),
        [
          'openstack/930018/1/1/nova/objects/flavor_specs.py manual confirmed',
          'openstack/930019/1/5/nova/api/retry_budget.py fenced_after_side open',
          'openstack/930019/1/5/nova/api/retry_budget.py suggestion_fence_variant open',
          'openstack/930019/1/5/nova/api/retry_budget.py target_in_comment open',
          'qt/600114/1/5/src/corelib/fx/qfxtimer.cpp target_in_comment open',
          'qt/600115/1/5/src/gui/fx/qfxcolor.cpp fenced_after_side open',
          'qt/600115/1/5/src/gui/fx/qfxcolor.cpp suggestion_fence_variant open',
          'qt/600115/1/5/src/gui/fx/qfxcolor.cpp target_in_comment open',
          'wikimedia/1090009/1/7/includes/fx/FxCacheKey.php target_in_comment open',
        ],
      );
      for (const f of flags.filter((x) => x.reason !== 'manual')) {
        const { commentId, commentSpan } = JSON.parse(f.detail) as {
          commentId: number;
          commentSpan: { start: number; end: number };
        };
        const message = store.scalar(
          `SELECT cm.message FROM example_comments x JOIN examples e ON e.id = x.example_id JOIN comments cm ON cm.id = x.comment_id
           WHERE e.example_key = ? AND cm.id = ?`,
          [f.example_key, commentId],
        );
        assert.equal(
          typeof message,
          'string',
          `${f.example_key} ${f.reason}: comment ${commentId} is one of the example's`,
        );
        assert.ok(
          commentSpan.end <= String(message).length && commentSpan.start < commentSpan.end,
          `${f.reason}: the span lies in the comment`,
        );
      }
    } finally {
      store.close();
    }
  });

  it('gives one-line errors for unknown build ids', async () => {
    const r = await cli('diff', '--db', db, '--from', '1', '--to', '99');
    assert.notEqual(r.code, 0);
    assert.match(r.err, /^review-corpus: --to 99: no such build or tag in .* \(builds: 1, 2(, 3)?; tags: none\)$/);
    const f = await cli('funnel', '--db', db, '--build', '42');
    assert.match(f.err, /--build 42: no such build/);
  });

  it('has every table it holds documented in docs/storage.md, and each documented query runs on it', async () => {
    const doc = readFileSync(path.resolve('docs/storage.md'), 'utf8');
    const documented = new Map(
      [...doc.matchAll(/^\| `(\w+)` \| [^|]+ \| `(SELECT [^`]+)` \|$/gm)].map((m) => [m[1], m[2]] as const),
    );
    const store = await CorpusStore.open(db);
    try {
      const tables = store
        .all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .map((r) => String(r.name));
      assert.deepEqual(
        tables.filter((t) => !documented.has(t)),
        [],
        'tables without a row in docs/storage.md "Tables"',
      );
      for (const [table, query] of documented) {
        assert.ok(tables.includes(table), `docs/storage.md documents ${table}, which the file does not hold`);
        assert.doesNotThrow(() => store.all(query), `the example query of ${table}`);
      }
    } finally {
      store.close();
    }
  });
});
