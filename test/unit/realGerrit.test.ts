// What real Gerrit 3.x sends, over loopback HTTP: the fake Gerrit answers in Gerrit's own shapes
// (test/fake-gerrit/README.md cites each), and the fetch and build must read them right. Each case
// is one change of a fabricated org; each would build a wrong corpus if read the way our own
// earlier fixtures were written.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ChangeSpec, code, crlf, edit, noFinalNewline } from '../fake-gerrit/fixtures/dsl';
import { buildOrgFixture } from '../fake-gerrit/fixtures/buildFixture';
import { startFakeGerrit, type FakeGerrit } from '../fake-gerrit/server';
import type { OrgFixture } from '../fake-gerrit/fixtureTypes';
import { SAMPLE_SALT } from '../../scripts/sample-corpus';
import { validateCorpusConfig } from '../../src/core/rules/corpusJson/loadConfig';
import { PRODUCT_WINDOWS } from '../../src/core/ground/config/types';
import { fetchCorpus } from '../../src/core/gerrit/fetchCorpus';
import { runBuild, type BuildResult } from '../../src/core/build/stages/runBuild';
import { exportedExamples } from '../../src/core/build/records/publishedRecords';
import { funnelTable } from '../../src/core/publish/export/funnelTable';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';

/** `n` lines of fabricated Python, each distinct. */
const module = (name: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${name}_value_${i + 1} = compute_${name}(${i + 1})`).join('\n') + '\n';
const base = { project: 'openstack/nova', owner: 'alice_fx', patchSets: [{}, {}] };
const reviewer = 'bruno_fx';

const eof = module('eof', 12);
const crlfFile = crlf(noFinalNewline(module('bat', 8)));
const indented = code`
  def configure(options):
    if options.verbose:
      return True
    return False
`;
const renamed = module('moved', 20);
const same = module('same', 20);
const rebaseParent = module('upstream', 40);
const rebaseNear = module('near', 20);
const ranged = module('ranged', 20);
const fixable = module('fix', 12);

const SPECS: ChangeSpec[] = [
  // 1. End of file: the last line edited. Gerrit sends "" after the final newline.
  {
    ...base,
    number: 950001,
    subject: 'eof',
    created: '2025-01-06 10:00:00',
    files: { 'eof.py': [null, eof, edit(eof, ['eof_value_12 =', ['eof_value_12 = compute_eof(120)']])] },
    comments: [{ id: 'rg_eof', path: 'eof.py', ps: 1, line: 12, author: reviewer, message: 'This should be 120.' }],
  },
  // 1. CRLF without a final newline, the last line edited.
  {
    ...base,
    number: 950002,
    subject: 'crlf',
    created: '2025-01-06 11:00:00',
    files: { 'tools/w.bat': [null, crlfFile, edit(crlfFile, ['bat_value_8 =', ['bat_value_8 = compute_bat(80)']])] },
    comments: [{ id: 'rg_crlf', path: 'tools/w.bat', ps: 1, line: 8, author: reviewer, message: 'Use 80 here.' }],
  },
  // 2. A whitespace-only answer: re-indented to four spaces.
  {
    ...base,
    number: 950003,
    subject: 'indent',
    created: '2025-01-07 10:00:00',
    files: {
      'conf.py': [
        null,
        indented,
        indented.replace(/^ {2}(?=\S)/gm, '    ').replace(/^ {4}(?=return True)/m, '        '),
      ],
    },
    comments: [
      {
        id: 'rg_ws',
        path: 'conf.py',
        ps: 1,
        line: 2,
        author: reviewer,
        message: 'Please use four spaces per indentation level.',
      },
    ],
  },
  // 3. A rename with an edit near the comment: the comment sits on the old path.
  {
    ...base,
    number: 950004,
    subject: 'rename',
    created: '2025-01-08 10:00:00',
    files: {
      'old/moved.py': [null, renamed, null],
      'new/moved.py': [null, null, edit(renamed, ['moved_value_10 =', ['moved_value_10 = compute_moved(100)']])],
    },
    renames: [{ ps: 2, from: 'old/moved.py', to: 'new/moved.py' }],
    comments: [
      {
        id: 'rg_rename',
        path: 'old/moved.py',
        ps: 1,
        line: 10,
        author: reviewer,
        message: 'Wrong factor here; and move this module.',
      },
    ],
  },
  // 3. A file the next patch set did not touch: no diff needed.
  {
    ...base,
    number: 950005,
    subject: 'untouched',
    created: '2025-01-09 10:00:00',
    files: { 'same.py': [null, same, same], 'other.py': [null, module('other', 5), module('another', 5)] },
    comments: [
      { id: 'rg_same', path: 'same.py', ps: 1, line: 10, author: reviewer, message: 'Is this value still used?' },
    ],
  },
  // 3. A file deleted by the next patch set: a one-sided hunk.
  {
    ...base,
    number: 950011,
    subject: 'delete',
    created: '2025-01-09 12:00:00',
    files: { 'gone.py': [null, same, null] },
    comments: [
      { id: 'rg_gone', path: 'gone.py', ps: 1, line: 10, author: reviewer, message: 'Is this module still needed?' },
    ],
  },
  // 4. A rebase brought an upstream edit next to the comment; the author changed nothing near it.
  {
    ...base,
    number: 950006,
    subject: 'rebase',
    created: '2025-01-10 10:00:00',
    files: {
      'up.py': [
        rebaseParent,
        rebaseParent,
        edit(
          rebaseParent,
          ['upstream_value_5 =', ['upstream_value_5 = compute_upstream(5) + 1']],
          ['upstream_value_35 =', ['upstream_value_35 = 35']],
        ),
      ],
    },
    rebases: [
      {
        ps: 2,
        parent: { 'up.py': edit(rebaseParent, ['upstream_value_5 =', ['upstream_value_5 = compute_upstream(5) + 1']]) },
      },
    ],
    comments: [
      {
        id: 'rg_rebase',
        path: 'up.py',
        ps: 1,
        line: 6,
        author: reviewer,
        message: 'Explain why value 6 is computed this way.',
      },
    ],
  },
  // 4. An upstream edit inside the author's answer: kept in the after side, and counted.
  {
    ...base,
    number: 950007,
    subject: 'rebase inside',
    created: '2025-01-11 10:00:00',
    files: {
      'near.py': [
        rebaseNear,
        rebaseNear,
        edit(
          rebaseNear,
          ['near_value_8 =', ['near_value_8 = 8']],
          ['near_value_10 =', ['near_value_10 = compute_near(10) + 1']],
          ['near_value_12 =', ['near_value_12 = 12']],
        ),
      ],
    },
    rebases: [
      { ps: 2, parent: { 'near.py': edit(rebaseNear, ['near_value_10 =', ['near_value_10 = compute_near(10) + 1']]) } },
    ],
    comments: [
      {
        id: 'rg_inside',
        path: 'near.py',
        ps: 1,
        line: 12,
        range: [8, 0, 12, 30],
        author: reviewer,
        message: 'Lines 8 and 12 are constants; write them out.',
      },
    ],
  },
  // 5. A whole-line range (end_character 0): lines 5–7, not 8; the only edit is line 11.
  {
    ...base,
    number: 950008,
    subject: 'range',
    created: '2025-01-12 10:00:00',
    files: { 'ranged.py': [null, ranged, edit(ranged, ['ranged_value_11 =', ['ranged_value_11 = 11']])] },
    comments: [
      {
        id: 'rg_range',
        path: 'ranged.py',
        ps: 1,
        line: 8,
        range: [5, 0, 8, 0],
        author: reviewer,
        message: 'These three lines repeat each other.',
      },
    ],
  },
  // 6. A structured suggested edit, without any fence in the text.
  {
    ...base,
    number: 950009,
    subject: 'fix',
    created: '2025-01-13 10:00:00',
    files: { 'fix.py': [null, fixable, edit(fixable, ['fix_value_6 =', ['fix_value_6 = FIX_SIX']])] },
    comments: [
      {
        id: 'rg_fix',
        path: 'fix.py',
        ps: 1,
        line: 6,
        author: reviewer,
        message: 'Use the constant.',
        fix: {
          description: 'Suggested edit',
          replacement: 'fix_value_6 = FIX_SIX  # ask chiara.fixture@example.invalid\n',
          range: [6, 0, 7, 0],
        },
      },
    ],
  },
  // 7. Listed by a status:closed query, but abandoned.
  {
    ...base,
    number: 950010,
    subject: 'abandoned',
    created: '2025-01-14 10:00:00',
    status: 'ABANDONED',
    files: { 'gone.py': [null, fixable, edit(fixable, ['fix_value_3 =', ['fix_value_3 = 3']])] },
    comments: [{ id: 'rg_abandoned', path: 'gone.py', ps: 1, line: 3, author: reviewer, message: 'Write the 3 out.' }],
  },
];

/** A corpus file fetched over loopback from a fake host serving `fixture`; the host stays up until `close`. */
async function fetched(
  fixture: OrgFixture,
  opts: { query?: string; serverVersion?: string; host?: Record<string, unknown> } = {},
) {
  const host = await startFakeGerrit({ org: 'openstack', fixture, serverVersion: opts.serverVersion });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'rc-real-')), 'corpus.sqlite');
  const store = await CorpusStore.create(file);
  const config = validateCorpusConfig(
    {
      name: 'real-shapes',
      db: 'corpus.sqlite',
      start: '2024-10-01',
      salt: { env: 'REVIEW_CORPUS_SALT' },
      windows: PRODUCT_WINDOWS.map((w) => ({ ...w })),
      hosts: [
        { org: 'openstack', url: host.url, query: opts.query ?? 'status:merged', minIntervalMs: 0, ...opts.host },
      ],
      rules: {},
    },
    'real-shapes corpus.json',
  );
  const summary = await fetchCorpus(store, config, {
    salt: SAMPLE_SALT,
    clientOptions: { baseBackoffMs: 5, maxBackoffMs: 20, maxRetries: 1 },
  });
  return {
    host,
    store,
    file,
    config,
    summary,
    close: async () => {
      store.close();
      await host.close();
    },
  };
}

describe('real Gerrit shapes over loopback HTTP', function () {
  this.timeout(60_000);
  let host: FakeGerrit;
  let store: CorpusStore;
  let build: BuildResult;

  const example = (n: number) =>
    store.get<{
      before_text: string;
      after_text: string;
      rule: string | null;
      unit: string;
      path: string;
      rebase_edited_lines: number;
    }>('SELECT e.* FROM examples e JOIN changes c ON c.id = e.change_id WHERE c.number = ? AND e.build_id = ?', [
      n,
      build.buildId,
    ]);
  const decision = (unit: string, key: string) =>
    store.scalar('SELECT rule FROM decisions WHERE build_id = ? AND unit = ? AND unit_key = ?', [
      build.buildId,
      unit,
      key,
    ]);
  const requests = (pattern: RegExp) => host.requests.filter((r) => pattern.test(r.path)).map((r) => r.path);

  before(async () => {
    ({ host, store } = await fetched(buildOrgFixture('openstack', SPECS), { query: 'status:closed' }));
    build = await runBuild(store, { hunkFactsWorker: false });
  });
  after(async () => {
    store?.close();
    await host?.close();
  });

  it('1. rebuilds both sides byte for byte at the end of a file: LF, and CRLF without a final newline', () => {
    const lf = example(950001);
    assert.equal(
      lf?.before_text,
      'eof_value_9 = compute_eof(9)\neof_value_10 = compute_eof(10)\neof_value_11 = compute_eof(11)\neof_value_12 = compute_eof(12)\n',
    );
    assert.equal(
      lf?.after_text,
      'eof_value_9 = compute_eof(9)\neof_value_10 = compute_eof(10)\neof_value_11 = compute_eof(11)\neof_value_12 = compute_eof(120)\n',
    );
    const w = example(950002);
    assert.equal(
      w?.before_text,
      'bat_value_5 = compute_bat(5)\r\nbat_value_6 = compute_bat(6)\r\nbat_value_7 = compute_bat(7)\r\nbat_value_8 = compute_bat(8)',
    );
    assert.equal(
      w?.after_text,
      'bat_value_5 = compute_bat(5)\r\nbat_value_6 = compute_bat(6)\r\nbat_value_7 = compute_bat(7)\r\nbat_value_8 = compute_bat(80)',
    );
    const exported = exportedExamples(store, build.buildId).find((e) => e.change === 950001);
    assert.equal(exported?.after, lf?.after_text, 'the export carries the same bytes');
  });

  it('2. asks for diffs with whitespace kept, so a re-indent is an answer', () => {
    const diffs = requests(/\/diff\?/);
    assert.ok(diffs.length > 0 && diffs.every((p) => p.includes('whitespace=IGNORE_NONE')), diffs.join('\n'));
    const e = example(950003);
    assert.equal(e?.rule, null, 'kept');
    assert.match(e?.after_text ?? '', /^ {4}if options\.verbose:\n {8}return True\n/m);
    assert.equal(decision('comments', 'openstack/950003/rg_ws'), 'kept');
  });

  it('3. follows a rename through the files list, reads a deleted file as one-sided, and asks no diff for a file left alone', () => {
    assert.deepEqual(requests(/^\/changes\/950004\/revisions\/2\/files\?/), [
      '/changes/950004/revisions/2/files?base=1',
    ]);
    assert.deepEqual(
      requests(/^\/changes\/950004\/.*\/diff/).map((p) => p.split('/diff')[0]),
      ['/changes/950004/revisions/2/files/new%2Fmoved.py'],
    );
    const e = example(950004);
    assert.equal(e?.rule, null);
    assert.equal(e?.path, 'old/moved.py');
    assert.match(e?.after_text ?? '', /moved_value_10 = compute_moved\(100\)/);
    assert.equal(
      store.scalar('SELECT target_path FROM diffs d JOIN changes c ON c.id = d.change_id WHERE c.number = 950004'),
      'new/moved.py',
    );

    const gone = example(950011);
    assert.deepEqual(
      [gone?.unit, gone?.rule, gone?.after_text],
      ['hunks', 'one_sided', ''],
      'a deleted file: a one-sided hunk',
    );
    assert.deepEqual(requests(/^\/changes\/950005\/.*\/diff/), [], 'no diff request for same.py');
    assert.equal(decision('comments', 'openstack/950005/rg_same'), 'unchanged_around');
  });

  it('4. never counts an edit due to a rebase as the answer, keeps it in the after side, and counts it', () => {
    assert.equal(decision('comments', 'openstack/950006/rg_rebase'), 'unchanged_around');
    assert.equal(example(950006), undefined);
    const inside = example(950007);
    assert.equal(inside?.rule, null, 'kept: the author answered on lines 8 and 12');
    assert.match(inside?.after_text ?? '', /near_value_10 = compute_near\(10\) \+ 1/);
    assert.equal(inside?.rebase_edited_lines, 2);
    assert.equal(build.funnel.organizations.openstack.counters.rebase_edited_examples, 1);
    assert.equal(exportedExamples(store, build.buildId).find((x) => x.change === 950007)?.rebaseEditedLines, 2);
  });

  it('5. reads a range ending at character 0 as ending on the line before', () => {
    assert.equal(
      decision('comments', 'openstack/950008/rg_range'),
      'unchanged_around',
      'lines 5–7, whose window ends at 10, before the edit at 11',
    );
  });

  it('6. removes an example whose comment carries fix_suggestions, storing only its scrubbed text', () => {
    assert.equal(example(950009)?.rule, 'suggested_edit');
    const stored = JSON.parse(String(store.scalar("SELECT fix_suggestions FROM comments WHERE gerrit_id = 'rg_fix'")));
    assert.deepEqual(stored, ['fix_value_6 = FIX_SIX  # ask <email>\n']);
  });

  it('7. removes a change that is not merged, whatever the query listed', () => {
    assert.equal(decision('changes', 'openstack/950010'), 'not_merged');
    assert.deepEqual(requests(/^\/changes\/950010\//), [], 'nothing fetched for it');
    assert.equal(store.scalar('SELECT status FROM changes WHERE number = 950010'), 'ABANDONED');
  });
});

describe('what a host did not record, over loopback HTTP', function () {
  this.timeout(60_000);

  async function fetchAndBuild(opts: { serverVersion: string; dropCommentCounts: boolean }) {
    const fixture = buildOrgFixture(
      'openstack',
      SPECS.slice(0, 2).concat([
        {
          ...base,
          number: 950020,
          subject: 'gate',
          created: '2025-01-20 10:00:00',
          files: { 'gate.py': [null, fixable, edit(fixable, ['fix_value_2 =', ['fix_value_2 = 2']])] },
          comments: [
            { id: 'rg_human', path: 'gate.py', ps: 1, line: 2, author: reviewer, message: 'Write the 2 out.' },
            {
              id: 'rg_gate',
              path: 'gate.py',
              ps: 1,
              line: 2,
              author: 'zuul_gate_fx',
              message: 'Build succeeded (gate pipeline).',
            },
          ],
        },
      ]),
    );
    for (const c of fixture.changes) {
      // A Gerrit 2.x listing has unresolved_comment_count but no total_comment_count (monocle's recording of one).
      if (opts.dropCommentCounts) delete (c.change as { total_comment_count?: number }).total_comment_count;
    }
    const { host, store, close } = await fetched(fixture, { serverVersion: opts.serverVersion });
    try {
      const result = await runBuild(store, { hunkFactsWorker: false });
      return {
        result,
        requests: host.requests.map((r) => r.path),
        hostRow: store.get<{ server_version: string; account_tags: string | null }>(
          'SELECT server_version, account_tags FROM hosts',
        ),
      };
    } finally {
      await close();
    }
  }

  it('8. reads no_comments and the SERVICE_USER part of bot_account as not counted where the host could not tell', async () => {
    const old = await fetchAndBuild({ serverVersion: '3.2.14', dropCommentCounts: true });
    const org = old.result.funnel.organizations.openstack;
    assert.equal(org.funnel.find((r) => r.rule === 'no_comments')?.removed, null, 'no_comments: not counted, not 0');
    assert.equal(org.counters.bot_account_service_user, null, 'tags came in Gerrit 3.3: not counted on 3.2');
    // Each says why, in the funnel itself; bot_account's own count stands but says what it leaves out.
    // No change had a count, so no_comments could not run at all: not counted, not "partly".
    assert.match(
      org.funnel.find((r) => r.rule === 'no_comments')?.notCounted ?? '',
      /^the listing reported no total_comment_count for any of the 3 changes that reached it \(all fetched instead\)$/,
    );
    assert.equal(
      org.notCounted?.bot_account_service_user,
      'Gerrit 3.2.14 sends no account tags (SERVICE_USER came in 3.3), so no account could be tagged a bot',
    );
    const bot = org.funnel.find((r) => r.rule === 'bot_account')!;
    assert.equal(typeof bot.removed, 'number');
    assert.match(bot.partly ?? '', /^the SERVICE_USER part could not run: Gerrit 3\.2\.14/);
    assert.equal(org.probe?.text, 'probe not needed: no change was listed with total_comment_count 0');
    const table = funnelTable(old.result.funnel);
    assert.match(table, /bot_account +comments +\d+ \(partly counted\)\n/);
    assert.match(table, /\n  not counted: bot_account_service_user: Gerrit 3\.2\.14 sends no account tags/);
    assert.match(table, /\n  partly counted: bot_account: the SERVICE_USER part could not run/);
    assert.deepEqual(old.hostRow, { server_version: '3.2.14', account_tags: 'unsupported' });
    assert.ok(
      old.requests.some((p) => p.startsWith('/changes/950001/comments')),
      'a change without a comment count is fetched',
    );

    const current = await fetchAndBuild({ serverVersion: '3.10.3', dropCommentCounts: false });
    const now = current.result.funnel.organizations.openstack;
    assert.equal(now.funnel.find((r) => r.rule === 'no_comments')?.removed, 0);
    assert.equal(now.counters.bot_account_service_user, 1, 'the gate bot, tagged SERVICE_USER on the comment author');
    assert.deepEqual(
      ['bot_account_service_user', 'bot_account_name_pattern'].filter((k) => now.notCounted?.[k] !== undefined),
      [],
      'no bot part is missing on a current host',
    );
    assert.equal(now.funnel.find((r) => r.rule === 'bot_account')?.partly, undefined);
    assert.equal(current.hostRow?.account_tags, 'supported');
  });
});

describe('listing records a host got wrong, over loopback HTTP', function () {
  this.timeout(60_000);

  it('files no change by a date it cannot read, asks nothing for it, and counts records without a usable number', async () => {
    const sealed = {
      ...base,
      subject: 'sealed',
      files: { 'fix.py': [null, fixable, edit(fixable, ['fix_value_2 =', ['fix_value_2 = 2']])] },
      comments: [{ id: 'rg_s', path: 'fix.py', ps: 1, line: 2, author: reviewer, message: 'Write the 2 out.' }],
    };
    const fixture = buildOrgFixture('openstack', [
      SPECS[0],
      ...[950031, 950032, 950033, 950034, 950035].map((number) => ({
        ...sealed,
        number,
        created: '2026-01-10 10:00:00',
        comments: [{ ...sealed.comments[0], id: `rg_s${number}` }],
      })),
    ]);
    const hostile: Record<number, Record<string, unknown>> = {
      950031: { created: '2026/01/10 10:00:00.000000000' },
      950032: { created: 'yesterday' },
      950033: { created: '2026-01-10T10:00:00Z' },
      950034: { created: 1768039200 },
      950035: { _number: '../../robots.txt?' },
    };
    for (const c of fixture.changes) Object.assign(c.change, hostile[c.change._number] ?? {});
    const { host, store, summary, close } = await fetched(fixture);
    try {
      assert.deepEqual(summary.failures, [], 'the host is fetched to the end');
      const paths = host.requests.map((r) => r.path);
      assert.ok(
        paths.some((p) => p.startsWith('/changes/950001/comments')),
        'the good change is fetched',
      );
      assert.deepEqual(
        paths.filter((p) => /^\/changes\/9500[3-9]/.test(p) || p.includes('robots.txt?')),
        [],
        'nothing is asked for a change it cannot date or number',
      );
      const rows = store.all<{ number: number; collection_rule: string; fetch_error: string; created: string }>(
        'SELECT number, collection_rule, fetch_error, created FROM changes WHERE number > 950030 ORDER BY number',
      );
      assert.deepEqual(
        rows.map((r) => [r.number, r.collection_rule, r.created]),
        [
          [950031, 'fetch_error', ''],
          [950032, 'fetch_error', ''],
          [950033, 'fetch_error', ''],
          [950034, 'fetch_error', ''],
        ],
      );
      assert.match(rows[0].fetch_error, /unreadable created time "2026\/01\/10/);
      assert.equal(store.scalar("SELECT value FROM fetch_counters WHERE name = 'rejected_listing_records'"), 1);
      const build = await runBuild(store, { hunkFactsWorker: false });
      const org = build.funnel.organizations.openstack;
      assert.equal(
        org.funnel.find((r) => r.stage === 'collection' && r.rule === 'fetch_error')?.removed,
        5,
        'four undatable changes and one unnumbered record',
      );
      assert.equal(
        org.windows.test.funnel.find((r) => r.rule === 'fetch_error')?.removed,
        0,
        'none filed in the sealed window',
      );
    } finally {
      await close();
    }
  });
});

describe('identities typed into text, over loopback HTTP', function () {
  this.timeout(60_000);

  it('replaces every name, username and e-mail of the accounts in the same response, and scrubs other addresses', async () => {
    const typed =
      'Thanks to CHIARA PLACEHOLDER-FIXTURE and @emilie_fx! Ask émilie testdaten-fixture, mail Chiara.Fixture@Example.Invalid, ' +
      'chiara@fixturehost or émilie@exämple.invalid.';
    const fixture = buildOrgFixture('openstack', [
      {
        ...base,
        number: 950042,
        subject: 'typed names',
        created: '2025-02-02 10:00:00',
        files: { 'b.py': [null, fixable, edit(fixable, ['fix_value_4 =', ['fix_value_4 = 4']])] },
        comments: [
          {
            id: 'rg_typed',
            path: 'b.py',
            ps: 1,
            line: 4,
            author: reviewer,
            message: typed,
            fix: {
              description: 'Suggested edit',
              replacement: 'fix_value_4 = 4  # reviewed by Bruno Sample-Fixture\n',
              range: [4, 0, 5, 0],
            },
          },
          { id: 'rg_second', path: 'b.py', ps: 1, line: 4, author: 'emilie_fx', message: 'Agreed.' },
          { id: 'rg_third', path: 'b.py', ps: 1, line: 4, author: 'chiara_fx', message: 'Me too.' },
        ],
      },
    ]);
    const { store, file, close } = await fetched(fixture);
    try {
      const message = String(store.scalar("SELECT message FROM comments WHERE gerrit_id = 'rg_typed'"));
      assert.match(
        message,
        /^Thanks to u_[0-9a-f]{16} and @u_[0-9a-f]{16}! Ask u_[0-9a-f]{16}, mail u_[0-9a-f]{16}, <email> or <email>\.$/,
      );
      assert.match(
        String(store.scalar("SELECT fix_suggestions FROM comments WHERE gerrit_id = 'rg_typed'")),
        /reviewed by u_[0-9a-f]{16}/,
      );
      store.save();
    } finally {
      await close();
    }
    const bytes = readFileSync(file);
    for (const needle of [
      'Chiara',
      'CHIARA',
      'chiara',
      'Placeholder',
      'emilie_fx',
      'Émilie',
      'émilie',
      'Testdaten',
      'Bruno',
      'Sample-Fixture',
      'fixturehost',
      'exämple',
    ]) {
      assert.ok(
        !bytes.toString('utf8').includes(needle) && !bytes.toString('latin1').includes(needle),
        `the corpus file holds ${JSON.stringify(needle)}`,
      );
    }
  });
});

describe('accounts named like bots, over loopback HTTP', function () {
  this.timeout(60_000);
  // Real-shaped detailed AccountInfo (AccountLoader.DETAILED_OPTIONS: name, email, username, and
  // display_name only where the account set one), fabricated, and kept out of fixtureAccounts.ts so the
  // sample corpus stays as it is. Neither is tagged SERVICE_USER nor on a bot list.
  const patchcheck = {
    _account_id: 1000091,
    name: 'Patchcheck Fixture-Bot',
    email: 'patchcheck.fixture@example.invalid',
    username: 'patchcheck_fx',
  };
  const nightly = {
    _account_id: 1000092,
    name: 'Nightly Fixture-Runner',
    email: 'nightly-runner.fixture@example.invalid',
    username: 'nightly_fx_runner',
    display_name: 'Nightly Runner-Fixture',
  };
  const leaks = [
    '1000091',
    'Patchcheck',
    'patchcheck',
    'Fixture-Bot',
    '1000092',
    'Nightly Fixture-Runner',
    'nightly_fx_runner',
    'Runner-Fixture',
    'nightly-runner',
  ];

  function fixture() {
    const f = buildOrgFixture('openstack', [
      {
        ...base,
        number: 950060,
        subject: 'named bots',
        created: '2025-02-10 10:00:00',
        files: { 'lint.py': [null, fixable, edit(fixable, ['fix_value_5 =', ['fix_value_5 = 5']])] },
        comments: [
          {
            id: 'rg_person',
            path: 'lint.py',
            ps: 1,
            line: 5,
            author: reviewer,
            message: 'Write the 5 out, as Patchcheck Fixture-Bot says.',
          },
          { id: 'rg_named', path: 'lint.py', ps: 1, line: 5, author: reviewer, message: 'Line 5: magic number.' },
          { id: 'rg_runner', path: 'lint.py', ps: 1, line: 5, author: reviewer, message: 'Nightly run: 1 warning.' },
          {
            id: 'rg_gate',
            path: 'lint.py',
            ps: 1,
            line: 5,
            author: 'zuul_gate_fx',
            message: 'Build succeeded (check pipeline).',
          },
        ],
      },
    ]);
    const comments = f.changes[0].comments['lint.py'];
    comments.find((c) => c.id === 'rg_named')!.author = { ...patchcheck };
    comments.find((c) => c.id === 'rg_runner')!.author = { ...nightly };
    return f;
  }
  const evidence = (store: CorpusStore, build: number, id: string) => {
    const e = store.scalar("SELECT evidence FROM decisions WHERE build_id = ? AND unit = 'comments' AND unit_key = ?", [
      build,
      `openstack/950060/${id}`,
    ]);
    return e === null ? null : JSON.parse(String(e));
  };
  const rule = (store: CorpusStore, build: number, id: string) =>
    store.scalar("SELECT rule FROM decisions WHERE build_id = ? AND unit = 'comments' AND unit_key = ?", [
      build,
      `openstack/950060/${id}`,
    ]);

  it('removes their comments under bot_account, names the pattern in the evidence, counts them, and stores none of their names', async () => {
    const { store, file, close } = await fetched(fixture(), { host: { extraBotNamePatterns: ['^nightly_'] } });
    try {
      const build = await runBuild(store, { hunkFactsWorker: false });
      assert.equal(rule(store, build.buildId, 'rg_named'), 'bot_account');
      assert.deepEqual(
        evidence(store, build.buildId, 'rg_named'),
        { source: 'name_pattern', pattern: '(^|[-_ .])bot$' },
        'the default suffix pattern, on the name',
      );
      assert.deepEqual(
        evidence(store, build.buildId, 'rg_runner'),
        { source: 'name_pattern', pattern: '^nightly_' },
        "the host's extra pattern, on the username",
      );
      assert.deepEqual(evidence(store, build.buildId, 'rg_gate'), { source: 'service_user' });
      assert.equal(rule(store, build.buildId, 'rg_person'), 'kept');
      assert.equal(evidence(store, build.buildId, 'rg_person'), null);
      const org = build.funnel.organizations.openstack;
      assert.equal(org.funnel.find((r) => r.rule === 'bot_account')?.removed, 3);
      assert.equal(org.counters.bot_account_name_pattern, 2);
      assert.equal(org.counters.bot_account_service_user, 1);
      assert.deepEqual(
        store
          .all('SELECT bot_pattern FROM accounts WHERE bot_pattern IS NOT NULL ORDER BY bot_pattern')
          .map((r) => r.bot_pattern),
        ['(^|[-_ .])bot$', '^nightly_'],
      );
      assert.match(
        String(store.scalar("SELECT message FROM comments WHERE gerrit_id = 'rg_person'")),
        /^Write the 5 out, as u_[0-9a-f]{16} says\.$/,
      );
      store.save();
    } finally {
      await close();
    }
    const bytes = readFileSync(file);
    for (const needle of leaks) {
      assert.ok(
        !bytes.toString('utf8').includes(needle) && !bytes.toString('latin1').includes(needle),
        `the corpus file holds ${JSON.stringify(needle)}`,
      );
    }
  });

  it('builds accounts stored before the patterns as before, reports the count as not counted, and decides on a refetch of the updated change', async () => {
    const f = fixture();
    const { store, config, close } = await fetched(f);
    try {
      // What an older fetch stored: bot status from the tag and the list only, names never matched.
      store.run('UPDATE accounts SET is_bot = service_user, bot_pattern = NULL, names_checked = NULL');
      const before = await runBuild(store, { hunkFactsWorker: false });
      assert.notEqual(rule(store, before.buildId, 'rg_named'), 'bot_account');
      assert.deepEqual(
        evidence(store, before.buildId, 'rg_gate'),
        { source: 'service_user' },
        'the tagged bot is removed as before',
      );
      const org = before.funnel.organizations.openstack;
      assert.equal(org.funnel.find((r) => r.rule === 'bot_account')?.removed, 1);
      assert.equal(
        org.counters.bot_account_name_pattern,
        null,
        "not counted, not 0: these accounts' names were never matched",
      );

      f.changes[0].change.updated = '2025-03-01 09:00:00.000000000';
      const again = await fetchCorpus(store, config, {
        salt: SAMPLE_SALT,
        clientOptions: { baseBackoffMs: 5, maxBackoffMs: 20, maxRetries: 1 },
      });
      assert.deepEqual(again.failures, []);
      const after = await runBuild(store, { hunkFactsWorker: false });
      assert.deepEqual(evidence(store, after.buildId, 'rg_named'), {
        source: 'name_pattern',
        pattern: '(^|[-_ .])bot$',
      });
      assert.equal(rule(store, after.buildId, 'rg_runner'), 'kept', 'no extra pattern this time: a person');
      assert.equal(after.funnel.organizations.openstack.counters.bot_account_name_pattern, 1);
    } finally {
      await close();
    }
  });
});
