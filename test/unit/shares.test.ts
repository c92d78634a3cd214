// Seed 001's shares and registered halves on a small real corpus (sql.js, on disk), every number
// checked by hand below: the suggested-edit share per window and half on the built examples (before
// dedup), the fence-sensitivity line, target_in_comment on the built examples without a suggested
// edit, the window suffix mix, and registering halves with the CLI (dist/cli.js's bundle) and the
// pass or fail every later build reports.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBuild } from '../../src/core/build/stages/runBuild';
import type { DatasetFunnel } from '../../src/core/build/reports/funnelReport';
import { configHash, rulesVersion } from '../../src/core/build/stages/hashing';
import { looserFence } from '../../src/core/build/reports/builtShares';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { funnelTable } from '../../src/core/publish/export/funnelTable';
import { renderShares } from '../../src/core/publish/export/cardShares';
import { CorpusFixture, diffOf, numbered, testConfig } from './buildFixture';
import { bundlePrivateCli } from './support/privateCli';

const HALVES = { window: 'train', by: 'projects' as const, a: ['nova'], b: ['cinder'] };

/**
 * openstack, halves by project (a: nova, b: cinder). Each change edits line 10 of a 20-line file
 * ("<path> line 10" → "<path> line 10 (revised)", a 22-character target) under one reviewer comment.
 *   pilot 101 nova  h.py   plain                                   kept
 *   train 201 nova  a.py   ```suggestion fence                      suggested_edit
 *         202 nova  b.py   plain                                    kept
 *         203 cinder c.rst  "  ```Suggestion" (looser fence only)   kept
 *         204 cinder d.py   holds the target in prose                kept, target_in_comment
 *         205 nova  e.py   fence, N + 1 a TRIVIAL_REBASE            rebase_only (still carries a suggested edit)
 *         206 cinder b.py   the same as 202                          exact_duplicate
 *         207 nova  add.py a pure addition                          one_sided (a hunk: not built)
 *         208 cinder d.py   the same as 204                          exact_duplicate (target in prose)
 *   dev   301 nova  f.py   fence                                    suggested_edit
 *         302 cinder g.py   plain                                    kept
 */
async function shareCorpus(file: string, rules = {}) {
  const fx = await CorpusFixture.create(
    file,
    testConfig({ halves: HALVES, rules: { ...testConfig().rules, ...rules } }),
  );
  const add = (
    number: number,
    created: string,
    project: string,
    filePath: string,
    message: string,
    kinds?: (string | null)[],
  ) => {
    const id = fx.change({ number, created, kinds });
    fx.store.run('UPDATE changes SET project = ? WHERE id = ?', [project, id]);
    fx.editedFile(id, filePath, { comments: [{ gerritId: `c${number}`, line: 10, author: 'p-rev', message }] });
    return id;
  };
  const FENCE = '```suggestion\nsomething else\n```';
  // Each window's comments differ: train is protected against dev automatically (a shared comment would remove it).
  add(101, '2024-10-05T10:00:00Z', 'nova', 'h.py', 'nit: spacing');
  add(201, '2024-12-01T10:00:00Z', 'nova', 'a.py', `like this:\n${FENCE}`);
  add(202, '2024-12-02T10:00:00Z', 'nova', 'b.py', 'please revise this line');
  add(203, '2025-01-05T10:00:00Z', 'cinder', 'c.rst', 'maybe\n  ```Suggestion\nsomething else\n```');
  add(204, '2025-01-06T10:00:00Z', 'cinder', 'd.py', 'Should this be d.py line 10 (revised)?');
  add(205, '2025-02-01T10:00:00Z', 'nova', 'e.py', FENCE, [null, 'TRIVIAL_REBASE']);
  add(206, '2025-03-01T10:00:00Z', 'cinder', 'b.py', 'please revise this line');
  const pure = fx.change({ number: 207, created: '2025-03-02T10:00:00Z' });
  fx.store.run("UPDATE changes SET project = 'nova' WHERE id = ?", [pure]);
  const before = numbered(20, 'add.py line ');
  fx.diff(pure, 'add.py', 1, diffOf(before, [...before.slice(0, 10), 'an added line', ...before.slice(10)]));
  fx.comment(pure, { gerritId: 'c207', path: 'add.py', line: 10, author: 'p-rev', message: 'add a line here' });
  add(208, '2025-03-05T10:00:00Z', 'cinder', 'd.py', 'Should this be d.py line 10 (revised)?');
  add(301, '2025-09-10T10:00:00Z', 'nova', 'f.py', '```suggestion\nf.py line 10 (revised)\n```');
  add(302, '2025-09-11T10:00:00Z', 'cinder', 'g.py', 'tidy up here');
  return fx;
}

const tempDb = () => path.join(mkdtempSync(path.join(tmpdir(), 'rc-shares-')), 'corpus.sqlite');

describe('suggested-edit shares, fence sensitivity and target_in_comment on the built examples', () => {
  let funnel: DatasetFunnel;

  before(async () => {
    const fx = await shareCorpus(tempDb());
    funnel = (await runBuild(fx.store)).funnel;
    fx.store.close();
  });

  it('counts the suggested-edit share per window and half, with denominators, before dedup', () => {
    const s = funnel.organizations.openstack.shares!;
    assert.match(s.population, /before the example rules and the duplicate rules/);
    // train: 7 built (201–206, 208; 207 is a hunk), 201 and 205 carry a fence (205 removed by rebase_only first).
    assert.deepEqual(s.windows.train.all, {
      built: 7,
      suggested_edit: 2,
      share: 0.2857,
      looser_fence: 3,
      without_suggested_edit: 5,
      target_in_comment: 2,
    });
    assert.deepEqual(s.windows.train.a, {
      built: 3,
      suggested_edit: 2,
      share: 0.6667,
      looser_fence: 2,
      without_suggested_edit: 1,
      target_in_comment: 0,
    });
    assert.deepEqual(s.windows.train.b, {
      built: 4,
      suggested_edit: 0,
      share: 0,
      looser_fence: 1,
      without_suggested_edit: 4,
      target_in_comment: 2,
    });
    assert.deepEqual(s.windows.dev.all, {
      built: 2,
      suggested_edit: 1,
      share: 0.5,
      looser_fence: 1,
      without_suggested_edit: 1,
      target_in_comment: 0,
    });
    assert.equal(s.windows.dev.a!.share, 1);
    assert.equal(s.windows.pilot.b!.built, 0);
    assert.equal(s.windows.pilot.b!.share, null, 'nothing built: no share, not 0');
    assert.deepEqual(s.windows.test, { sealed: true, all: null, a: null, b: null });
    assert.deepEqual(s.all, {
      built: 10,
      suggested_edit: 3,
      share: 0.3,
      looser_fence: 4,
      without_suggested_edit: 7,
      target_in_comment: 2,
    });
  });

  it('says how the share moves between windows', () => {
    const s = funnel.organizations.openstack.shares!;
    // pilot's share is 0, so pilot→train is undefined; dev 0.5 over train 2/7 = 1.75, half a 1 over 2/3 = 1.5.
    assert.deepEqual(s.trend, [
      { from: 'pilot', to: 'train', all: null, a: null, b: null },
      { from: 'train', to: 'dev', all: 1.75, a: 1.5, b: null },
    ]);
  });

  it('writes the fence-sensitivity line with its counts', () => {
    const f = funnel.organizations.openstack.shares!.fence;
    assert.deepEqual(
      { ...f, line: undefined },
      { built: 10, rule: 3, looser: 4, looser_only: 1, rule_only: 0, line: undefined },
    );
    assert.equal(
      f.line,
      "on 10 built examples a looser case-insensitive fence pattern selects 4 against the rule's 3: 1 the rule does not select",
    );
    assert.equal(funnel.fenceSensitivity!.line, f.line, 'qt built nothing');
    assert.match(funnel.organizations.qt.shares!.fence.line, /^on all 0 built examples .* exactly the same ones/);
  });

  it('keeps the kept-only target_in_comment counter beside the built count', () => {
    // 204 is kept; 208, its duplicate, holds the target too but only the built count sees it.
    assert.equal(funnel.organizations.openstack.windows.train.counters.target_in_comment, 1);
    assert.equal(funnel.organizations.openstack.shares!.windows.train.all!.target_in_comment, 2);
  });

  it("reports each window's file-suffix mix of kept examples, most first", () => {
    const w = funnel.organizations.openstack.windows;
    assert.deepEqual(w.pilot.suffixes, { '.py': 1 });
    assert.deepEqual(Object.entries(w.train.suffixes!), [
      ['.py', 2],
      ['.rst', 1],
    ]);
    assert.deepEqual(w.dev.suffixes, { '.py': 1 });
    assert.equal(w.test.suffixes, undefined, 'a sealed window has none');
    const h = funnel.organizations.openstack.halves!;
    assert.deepEqual(h.matchedSuffix, { suffix: '.py', a: 1, b: 1 });
    assert.equal(h.suffixTvd, 0.5); // a {.py 1}, b {.py 1/2, .rst 1/2}
  });

  it('prints a short section in the funnel table', () => {
    const text = funnelTable(funnel);
    assert.ok(text.includes('  suffix mix (kept, top 3): pilot .py 1; train .py 2, .rst 1; dev .py 1'), text);
    assert.ok(
      text.includes(
        '  suggested edits (built examples, before dedup): all 3 of 10 (30.0%); pilot 0 of 1 (0.0%) [a 0 of 1 (0.0%), b 0 of 0, no share]; ' +
          'train 2 of 7 (28.6%) [a 2 of 3 (66.7%), b 0 of 4 (0.0%)]; dev 1 of 2 (50.0%) [a 1 of 1 (100.0%), b 0 of 1 (0.0%)]; test sealed, not counted',
      ),
      text,
    );
    assert.ok(
      text.includes(
        '  suggested-edit share over the window before: pilot→train undefined [a undefined, b undefined], train→dev ×1.75 [a ×1.5, b undefined]',
      ),
      text,
    );
    assert.ok(text.includes('  target_in_comment on built examples without a suggested edit: all 2 of 7;'), text);
    assert.ok(text.includes('  registered halves: not registered'), text);
  });

  it('puts the same numbers on the dataset card', () => {
    const lines: string[] = [];
    renderShares(funnel, (...l) => lines.push(...l));
    const card = lines.join('\n');
    assert.ok(card.includes('| `train` | 2 of 7 (28.6%) | 2 of 3 (66.7%) | 0 of 4 (0.0%) | 2 of 5 |'), card);
    assert.ok(
      card.includes('| `test` | sealed, not counted | not counted | not counted | sealed, not counted |'),
      card,
    );
    assert.ok(card.includes('| all | 3 of 10 (30.0%) |  |  | 2 of 7 |'), card);
    assert.ok(card.includes('- `train`: `.py` 2, `.rst` 1'), card);
    assert.ok(card.includes('`openstack`: not registered.'), card);
  });

  it("tells the looser pattern from the rule: case, indentation, and Gerrit's substring", () => {
    assert.ok(looserFence('  ```Suggestion\nx'));
    assert.ok(looserFence('``` suggestion\nx'));
    assert.ok(looserFence('see ```suggestion\nx\n```'), "Gerrit's includes('```suggestion\\n') anywhere");
    assert.ok(!looserFence('a suggestion: use x'));
  });
});

describe('targetInCommentMinChars', () => {
  it('is a rule parameter: a longer minimum drops the 22-character targets, and changes both hashes', async () => {
    const fx = await shareCorpus(tempDb(), { targetInCommentMinChars: 30 });
    const f = (await runBuild(fx.store)).funnel;
    fx.store.close();
    assert.equal(f.organizations.openstack.windows.train.counters.target_in_comment, 0);
    assert.equal(f.organizations.openstack.shares!.windows.train.all!.target_in_comment, 0);
    const base = testConfig();
    const changed = testConfig({ rules: { ...base.rules, targetInCommentMinChars: 30 } });
    assert.notEqual(configHash(changed), configHash(base));
    assert.notEqual(rulesVersion(changed), rulesVersion(base));
  });

  it('at its default hashes as a config from before it existed', () => {
    const base = testConfig();
    const { targetInCommentMinChars: _, ...older } = base.rules;
    const before = { ...base, rules: older as typeof base.rules };
    assert.equal(configHash(base), configHash(before));
    assert.equal(rulesVersion(base), rulesVersion(before));
  });
});

/** Kept train examples of qt, one per project given (nova: half a, cinder: half b), each its own text. */
function qtExamples(fx: CorpusFixture, projects: string[]) {
  projects.forEach((project, i) => {
    const number = 401 + i;
    const id = fx.change({ org: 'qt', number, created: `2025-02-1${i}T10:00:00Z` });
    fx.store.run('UPDATE changes SET project = ? WHERE id = ?', [project, id]);
    fx.editedFile(id, `qt${number}.cpp`, {
      comments: [{ gerritId: `q${number}`, line: 10, author: 'p-rev', message: `rename this, qt ${number}` }],
    });
  });
}

describe('review-corpus halves register (dist/cli.js)', function () {
  this.timeout(120_000);
  let cli: string;
  let db: string;
  const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  const latestFunnel = async () => {
    const store = await CorpusStore.open(db);
    try {
      return JSON.parse(String(store.scalar('SELECT funnel FROM builds ORDER BY id DESC LIMIT 1'))) as DatasetFunnel;
    } finally {
      store.close();
    }
  };

  before(async () => {
    cli = bundlePrivateCli(mkdtempSync(path.join(tmpdir(), 'rc-shares-cli-')));
    db = tempDb();
    const fx = await shareCorpus(db);
    qtExamples(fx, ['nova', 'cinder']); // two organizations with halves: openstack and qt
    fx.store.save();
    fx.store.close();
    assert.equal(run('build', '--db', db).status, 0);
  });

  it("registers one organization's halves of two, and refuses without --org, an unknown one or the wrong window", async () => {
    const f = await latestFunnel();
    assert.deepEqual(
      Object.keys(f.organizations).filter((o) => f.organizations[o].halves),
      ['openstack', 'qt'],
    );
    const none = run('halves', 'register', '--db', db);
    assert.equal(none.status, 2);
    assert.equal(none.stderr.trim(), 'review-corpus: halves register: missing required option --org');
    const unknown = run('halves', 'register', '--db', db, '--org', 'gerrit');
    assert.equal(unknown.status, 2);
    assert.equal(
      unknown.stderr.trim(),
      'review-corpus: halves register: --org gerrit: build 1 has no organization "gerrit" (organizations with halves: openstack, qt)',
    );
    const wrong = run('halves', 'register', '--db', db, '--org', 'openstack', '--window', 'dev');
    assert.equal(wrong.status, 2);
    assert.equal(wrong.stderr.trim(), 'review-corpus: halves register: --window dev: build 1 splits window "train"');
    const r = run('halves', 'register', '--db', db, '--org', 'openstack', '--window', 'train');
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /^registered openstack's halves of train from build 1: size floor 1, suffix TVD ceiling 0\.5, matched suffix \.py, definition sha256 [0-9a-f]{64}, /,
    );
    const store = await CorpusStore.open(db);
    const events = store.all<{ org: string; action: string; size_floor: number }>(
      'SELECT org, action, size_floor FROM halves_events ORDER BY id',
    );
    const registered = store.all<{ org: string }>('SELECT org FROM halves_registrations');
    store.close();
    assert.deepEqual(events, [{ org: 'openstack', action: 'registered', size_floor: 1 }]);
    assert.deepEqual(registered, [{ org: 'openstack' }], 'qt is left unregistered');
  });

  it('checks the next build: pass when nothing moved; the organization not registered is not checked', async () => {
    assert.equal(run('build', '--db', db).status, 0);
    const f = await latestFunnel();
    assert.equal(f.organizations.qt.halvesCheck, undefined);
    const c = f.organizations.openstack.halvesCheck!;
    assert.equal(c.pass, true, c.failures.join('; '));
    assert.deepEqual(
      { ...c.registered, registeredAt: '', definitionSha256: '' },
      {
        window: 'train',
        build: 1,
        sizeFloor: 1,
        suffixTvdCeiling: 0.5,
        matchedSuffix: '.py',
        registeredAt: '',
        definitionSha256: '',
      },
    );
    const table = run('funnel', '--db', db);
    assert.match(
      table.stdout,
      /registered halves: pass \(registered .* from build 1: size floor 1, suffix TVD ceiling 0\.5, matched suffix \.py\)/,
    );
    assert.match(
      table.stdout,
      /\nqt\n[\s\S]*registered halves: not registered \(review-corpus halves register --org <org>\)/,
    );
  });

  it('fails a later build whose halves drift past the ceiling, and re-registering needs --replace', async () => {
    // One more kept .rst example in half b: b {.py 1, .rst 2} against a {.py 1}, a total variation of 2/3.
    const fx = await CorpusStore.open(db);
    const host = Number(fx.scalar("SELECT id FROM hosts WHERE org = 'openstack'"));
    const id = fx.insert(
      `INSERT INTO changes(host_id, number, change_key, project, branch, created, updated, owner, total_comment_count, fetch_state, status)
      VALUES (?, 209, 'I209', 'cinder', 'master', '2025-04-01T10:00:00Z', '2025-04-01T10:00:00Z', 'p-owner', 1, 'done', 'MERGED')`,
      [host],
    );
    for (const ps of [1, 2])
      fx.run(
        "INSERT INTO revisions(change_id, patch_set, sha, kind, uploader, created) VALUES (?, ?, ?, 'REWORK', 'p-owner', '2025-04-01T10:00:00Z')",
        [id, ps, `s209-${ps}`],
      );
    const lines = numbered(20, 'k.rst line ');
    fx.run('INSERT INTO diffs(change_id, path, ps_base, ps_target, content) VALUES (?, ?, 1, 2, ?)', [
      id,
      'k.rst',
      JSON.stringify(
        diffOf(
          lines,
          lines.map((l, i) => (i === 9 ? `${l} (revised)` : l)),
        ),
      ),
    ]);
    fx.run(
      `INSERT INTO comments(change_id, gerrit_id, path, patch_set, side, line, author, message, updated, unresolved)
      VALUES (?, 'c209', 'k.rst', 1, 'REVISION', 10, 'p-rev', 'please revise this line', '2025-04-01 10:00:00.000000000', 1)`,
      [id],
    );
    fx.save();
    fx.close();
    assert.equal(run('build', '--db', db).status, 0);
    const c = (await latestFunnel()).organizations.openstack.halvesCheck!;
    assert.equal(c.pass, false);
    assert.deepEqual(c.failures, ['the suffix mixes differ by a total variation of 0.6667, above the ceiling 0.5']);
    assert.match(
      run('funnel', '--db', db).stdout,
      /registered halves: FAIL: the suffix mixes differ by a total variation of 0\.6667, above the ceiling 0\.5 \(registered/,
    );

    const again = run('halves', 'register', '--db', db, '--org', 'openstack');
    assert.equal(again.status, 2);
    assert.match(
      again.stderr,
      /openstack's halves are registered already .*; --replace replaces them, and the replacement is recorded/,
    );
    assert.equal(run('halves', 'register', '--db', db, '--org', 'openstack', '--replace').status, 0);
    const store = await CorpusStore.open(db);
    const events = store.all<{ action: string; suffix_tvd_ceiling: number; build_id: number }>(
      'SELECT action, suffix_tvd_ceiling, build_id FROM halves_events ORDER BY id',
    );
    store.close();
    assert.deepEqual(events, [
      { action: 'registered', suffix_tvd_ceiling: 0.5, build_id: 1 },
      { action: 'replaced', suffix_tvd_ceiling: 0.6667, build_id: 3 },
    ]);
  });
});

describe('halves register refuses an empty half (dist/cli.js)', function () {
  this.timeout(120_000);
  let cli: string;
  let db: string;
  const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

  before(async () => {
    cli = bundlePrivateCli(mkdtempSync(path.join(tmpdir(), 'rc-halves-empty-cli-')));
    db = tempDb();
    const fx = await shareCorpus(db);
    qtExamples(fx, ['nova', 'nova']); // qt's half b (cinder) holds nothing
    fx.store.save();
    fx.store.close();
    assert.equal(run('build', '--db', db).status, 0);
  });

  it('names the organization and the empty half, and writes nothing', async () => {
    const before = readFileSync(db);
    const r = run('halves', 'register', '--db', db, '--org', 'qt');
    assert.equal(r.status, 2);
    assert.equal(
      r.stderr.trim(),
      "review-corpus: halves register: qt's half b of train is empty in build 1 (0 examples), so its size floor would be 0; nothing was registered",
    );
    assert.ok(readFileSync(db).equals(before), 'the file is untouched');
  });

  it('fails every build checked against a stored registration with a size floor of 0', async () => {
    // As a version that accepted an empty half stored it.
    const store = await CorpusStore.open(db);
    const f = JSON.parse(String(store.scalar('SELECT funnel FROM builds WHERE id = 1'))) as DatasetFunnel;
    const h = f.organizations.qt.halves!;
    store.run(
      `INSERT INTO halves_registrations(org, window, definition_sha256, registered_at, build_id, size_floor, suffix_tvd_ceiling, matched_suffix)
      VALUES ('qt', 'train', ?, '2026-01-01T00:00:00.000Z', 1, 0, ?, NULL)`,
      [h.definitionSha256, h.suffixTvd],
    );
    store.save();
    store.close();
    assert.equal(run('build', '--db', db).status, 0);
    const after = await CorpusStore.open(db);
    const c = (JSON.parse(String(after.scalar('SELECT funnel FROM builds WHERE id = 2'))) as DatasetFunnel)
      .organizations.qt.halvesCheck!;
    after.close();
    assert.equal(c.pass, false);
    assert.deepEqual(c.failures, [
      'the registered size floor is 0 (a half was empty when registered), so it checks nothing; register again with --replace',
    ]);
  });
});
