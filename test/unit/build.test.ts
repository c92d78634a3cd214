import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBuild, type BuildResult } from '../../src/core/build/stages/runBuild';
import { FUNNEL } from '../../src/core/rules/funnel';
import type { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { EXPECTED_EXAMPLES, EXPECTED_OPENSTACK_FUNNEL, populate } from './buildScenario';

const tempFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'rc-build-')), 'corpus.sqlite');

function decision(store: CorpusStore, buildId: number, unit: string, key: string): string | undefined {
  return store.get<{ rule: string }>('SELECT rule FROM decisions WHERE build_id = ? AND unit = ? AND unit_key = ?', [
    buildId,
    unit,
    key,
  ])?.rule;
}

describe('runBuild on a corpus with one unit per rule', () => {
  let store: CorpusStore;
  let result: BuildResult;

  before(async () => {
    store = (await populate(tempFile())).store;
    result = await runBuild(store);
  });
  after(() => store.close());

  it('decides every listed change by the collection rules', () => {
    const rules = Object.fromEntries(
      store
        .all<{ unit_key: string; rule: string }>(
          "SELECT unit_key, rule FROM decisions WHERE build_id = ? AND unit = 'changes'",
          [result.buildId],
        )
        .map((d) => [d.unit_key, d.rule]),
    );
    assert.equal(rules['openstack/100'], 'created_before_start');
    assert.equal(rules['openstack/105'], 'not_merged');
    assert.equal(rules['openstack/101'], 'no_comments');
    assert.equal(rules['openstack/102'], 'sealed_window');
    assert.equal(rules['openstack/103'], 'disallowed');
    assert.equal(rules['openstack/104'], 'fetch_error');
    assert.equal(rules['openstack/106'], 'gone_from_host');
    assert.equal(rules['openstack/110'], 'kept');
    assert.equal(Object.keys(rules).length, 32, 'every listed change of both organizations');
  });

  it('decides each comment by the first comment rule that removes it', () => {
    const expected: Record<string, string> = {
      'c-kept': 'kept',
      'c-msg': 'pseudo_file',
      'c-own': 'own_author',
      'c-bot': 'bot_account',
      'c-ack': 'acknowledgement',
      'c-file': 'no_line',
      'c-parent': 'parent_side',
      'c-last': 'no_successor',
      'c-far': 'unchanged_around',
      'c-tmpl': 'bot_template',
      'c-missing': 'fetch_error',
      'c-refused': 'fetch_error',
    };
    for (const [id, rule] of Object.entries(expected))
      assert.equal(decision(store, result.buildId, 'comments', `openstack/110/${id}`), rule, id);
    assert.equal(
      decision(store, result.buildId, 'comments', 'openstack/100/c-old.py'),
      undefined,
      "a removed change's comments are not counted again",
    );
  });

  it('stores every hunk that reached stage 3 with the rule that removed it, and keeps the rest', () => {
    const rows = store.all<{ example_key: string; rule: string | null; unit: string }>(
      "SELECT example_key, rule, unit FROM examples e JOIN changes c ON c.id = e.change_id JOIN hosts h ON h.id = c.host_id WHERE h.org = 'openstack'",
    );
    assert.deepEqual(Object.fromEntries(rows.map((r) => [r.example_key, r.rule])), EXPECTED_EXAMPLES);
    const units = Object.fromEntries(rows.map((r) => [r.example_key, r.unit]));
    assert.equal(units['openstack/111/1/8/add.py'], 'hunks');
    assert.equal(units['openstack/111/1/2/big.py'], 'hunks');
    assert.equal(units['openstack/112/1/7/r.py'], 'examples');
    for (const [key, rule] of Object.entries(EXPECTED_EXAMPLES)) {
      assert.equal(decision(store, result.buildId, units[key], key), rule ?? 'kept', key);
    }
  });

  it('attaches every anchorable comment to its example, removed ones included', () => {
    const linked = store
      .all<{ gerrit_id: string }>(
        "SELECT c.gerrit_id FROM example_comments x JOIN examples e ON e.id = x.example_id JOIN comments c ON c.id = x.comment_id WHERE e.example_key = 'openstack/110/1/7/nova/api.py' ORDER BY c.gerrit_id",
      )
      .map((r) => r.gerrit_id);
    assert.deepEqual(linked, ['c-ack', 'c-bot', 'c-kept', 'c-own', 'c-tmpl']);
    const e = store.get<{
      before_start: number;
      after_start: number;
      before_text: string;
      window: string;
      language: string;
    }>("SELECT * FROM examples WHERE example_key = 'openstack/110/1/7/nova/api.py'");
    assert.equal(e?.before_start, 7);
    assert.equal(e?.after_start, 7);
    assert.equal(e?.window, 'pilot');
    assert.equal(e?.language, 'python');
    assert.equal(e?.before_text.split('\n')[3], 'nova/api.py line 10');
  });

  it('keeps texts byte-exact: CRLF, no final newline, non-ASCII', () => {
    const e = store.get<{ before_text: string; after_text: string }>(
      "SELECT before_text, after_text FROM examples WHERE example_key = 'openstack/160/1/7/win.txt'",
    );
    assert.equal(e?.before_text, 'α 7\r\nα 8\r\nα 9\r\nα 10\r\n');
    assert.equal(e?.after_text, 'α 7\r\nα 8\r\nα 9\r\nω 10');
  });

  it('reports every rule of the funnel in order, in its own unit, with what it removed', () => {
    const org = result.funnel.organizations.openstack;
    assert.deepEqual(
      org.funnel.map((r) => [`${r.stage}/${r.rule}`, r.removed]),
      EXPECTED_OPENSTACK_FUNNEL,
    );
    assert.deepEqual(
      org.funnel.map((r) => r.unit),
      FUNNEL.map((s) => s.unit),
    );
    assert.deepEqual(
      result.funnel.organizations.qt.funnel.map((r) => r.removed),
      FUNNEL.map((s) => (s.rule === 'irrelevant_comment' || s.rule === 'protected_comment' ? null : 0)),
      'every rule listed, even at 0 (irrelevant_comment and protected_comment, off, not counted)',
    );
  });

  it('counts the overlap, unrecorded kinds, targets in comments and examples outside the windows', () => {
    const { counters, windows } = result.funnel.organizations.openstack;
    assert.deepEqual(counters, {
      kind_unrecorded: 1,
      nothing_left_overlap: 2,
      target_in_comment: 1,
      outside_windows: 1,
      diff_unreadable: 0,
      rebase_edited_examples: 0,
      status_unrecorded: 0,
      bot_account_service_user: null,
      listing_cut_short: 0,
      bot_account_name_pattern: null, // the fixture's accounts were never matched by name (no fetch)
      irrelevant_unjudged: null, // irrelevant_comment is off
    });
    assert.equal(windows.train.counters.nothing_left_overlap, 2);
    assert.equal(windows.dev.counters.target_in_comment, 1);
    assert.equal(windows.pilot.counters.target_in_comment, 0);
  });

  it('reports examples per window, a sealed window as sealed with no count, and its listed changes', () => {
    const { windows } = result.funnel.organizations.openstack;
    assert.deepEqual([windows.pilot.examples, windows.train.examples, windows.dev.examples], [1, 5, 1]);
    assert.equal(windows.test.sealed, true);
    assert.equal(windows.test.examples, null);
    assert.equal(windows.test.counters.target_in_comment, null, 'not counted, not 0');
    assert.equal(windows.test.funnel.find((r) => r.rule === 'sealed_window')?.removed, 1);
    assert.equal(
      result.funnel.organizations.qt.windows.train.examples,
      1,
      'the pair removed as a duplicate in openstack is kept in qt',
    );
    assert.equal(result.kept, 9);
  });

  it('writes a versioned builds row whose funnel is the one returned', () => {
    const row = store.get<Record<string, string>>('SELECT * FROM builds WHERE id = ?', [result.buildId]);
    assert.equal(row?.corpus_hash, result.corpusHash);
    assert.equal(row?.rules_version, result.rulesVersion);
    assert.equal(row?.config_hash, result.configHash);
    assert.match(String(row?.finished_at), /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(JSON.parse(String(row?.funnel)), result.funnel);
    assert.equal(result.funnel.corpus, 'fixture-corpus');
    assert.equal(result.funnel.build, result.buildId);
    assert.equal(result.funnel.rulesVersion, result.rulesVersion);
  });

  it('reconciles decisions with the funnel', () => {
    const removed = store.all<{ stage: string; rule: string; n: number }>(
      "SELECT stage, rule, count(*) AS n FROM decisions WHERE build_id = ? AND org = 'openstack' AND rule != 'kept' GROUP BY stage, rule",
      [result.buildId],
    );
    const byRule = Object.fromEntries(removed.map((r) => [`${r.stage}/${r.rule}`, r.n]));
    for (const row of result.funnel.organizations.openstack.funnel)
      assert.equal(byRule[`${row.stage}/${row.rule}`] ?? 0, row.removed ?? 0, row.rule);
  });
});
