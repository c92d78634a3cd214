// Every number accounted (#30), on a corpus fetched over loopback HTTP from the fake Gerrit and
// built, printed and exported through the CLI's entry: no_comments is "partly counted" with its
// numbers where some listings lacked total_comment_count, every empty cell of counts.csv says why
// beside it, and a count absent from an older build's stored funnel reads "not counted" with why in
// every view instead of vanishing or reading 0.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ChangeSpec, edit } from '../fake-gerrit/fixtures/dsl';
import { buildOrgFixture } from '../fake-gerrit/fixtures/buildFixture';
import { startFakeGerrit, type FakeGerrit } from '../fake-gerrit/server';
import { SAMPLE_SALT } from '../../scripts/sample-corpus';
import { PRODUCT_WINDOWS } from '../../src/core/ground/config/types';
import { runCli } from '../../src/cli/main';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { countGroups, treeGroups } from '../../src/core/review/inspect/groups';
import type { DatasetFunnel } from '../../src/core/build/reports/funnelReport';

/** `n` lines of fabricated Python, each distinct. */
const module = (name: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${name}_value_${i + 1} = compute_${name}(${i + 1})`).join('\n') + '\n';

/**
 * One change of openstack. `comment`: a reviewer comment on line 3, answered by the next patch set
 * (a kept example); without it the change has no comment, so its listing says total_comment_count 0.
 */
function change(number: number, created: string, comment: boolean, updated?: string): ChangeSpec {
  const name = `m${number}`;
  const text = module(name, 8);
  return {
    number,
    project: 'openstack/nova',
    owner: 'alice_fx',
    subject: name,
    created,
    ...(updated ? { updated } : {}),
    patchSets: [{}, {}],
    files: { [`${name}.py`]: [null, text, edit(text, [`${name}_value_3 =`, [`${name}_value_3 = 30`]])] },
    comments: comment
      ? [{ id: `c${number}`, path: `${name}.py`, ps: 1, line: 3, author: 'bruno_fx', message: `Use 30 (${number}).` }]
      : [],
  };
}

// Windows (PRODUCT_WINDOWS): pilot 2024-10, train 2024-11 to 2025-08, dev 2025-09 and 10, test sealed
// 2025-11 to 2026-10. A change after 2026-11-01 is in no window. "no count": listed without
// total_comment_count. Of the 9 changes that reach no_comments, 3 (a third) have no count.
const SPECS: ChangeSpec[] = [
  // No count, but created before the start (listed: updated after it), so it never reaches no_comments.
  change(960001, '2024-09-20 10:00:00', true, '2024-10-15 10:00:00'),
  change(960002, '2024-10-05 10:00:00', true), // pilot, no count
  change(960003, '2024-10-06 10:00:00', false), // pilot, count 0: no_comments
  change(960004, '2024-10-07 10:00:00', true), // pilot
  change(960005, '2024-12-01 10:00:00', false), // train, count 0: no_comments
  change(960006, '2024-12-02 10:00:00', true), // train
  change(960007, '2025-09-10 10:00:00', true), // dev, no count: dev's only change
  change(960008, '2026-12-01 10:00:00', true), // no window
  change(960009, '2026-12-02 10:00:00', true), // no window, no count
  change(960010, '2026-12-03 10:00:00', true), // no window
];
const WITHOUT_COUNT = [960001, 960002, 960007, 960009];

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { REVIEW_CORPUS_SALT: SAMPLE_SALT },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** counts.csv's records, RFC 4180 quoting read back. */
function csvRecords(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') field += text[i++];
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
    } else field += ch;
  }
  const [header, ...records] = rows;
  return records.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}

describe('every number accounted: a host where a third of the listings lack comment counts (loopback, CLI)', function () {
  this.timeout(120_000);
  let host: FakeGerrit;
  let dir: string;
  let db: string;
  let funnel: DatasetFunnel;

  before(async () => {
    const fixture = buildOrgFixture('openstack', SPECS);
    for (const c of fixture.changes)
      // Real Gerrit leaves the field out where ChangeData.totalCommentCount() is null: an index-only
      // read of an entry that stored no count (test/fake-gerrit/README.md, ChangeInfo); Gson omits nulls.
      if (WITHOUT_COUNT.includes(c.change._number))
        delete (c.change as { total_comment_count?: number }).total_comment_count;
    host = await startFakeGerrit({ org: 'openstack', fixture });
    dir = mkdtempSync(path.join(tmpdir(), 'rc-accounted-'));
    db = path.join(dir, 'corpus.sqlite');
    const config = {
      name: 'accounted',
      db: 'corpus.sqlite',
      start: '2024-10-01',
      salt: { env: 'REVIEW_CORPUS_SALT' },
      windows: PRODUCT_WINDOWS.map((w) => ({ ...w })),
      hosts: [{ org: 'openstack', url: host.url, query: 'status:merged', minIntervalMs: 0 }],
      rules: {},
    };
    writeFileSync(path.join(dir, 'corpus.json'), JSON.stringify(config, null, 2));
    const fetched = await cli('fetch', '--config', path.join(dir, 'corpus.json'), '--db', db, '--quiet');
    assert.equal(fetched.code, 0, fetched.err);
    const built = await cli('build', '--db', db);
    assert.equal(built.code, 0, built.err);
    const json = await cli('funnel', '--db', db, '--json');
    assert.equal(json.code, 0, json.err);
    funnel = JSON.parse(json.out);
  });

  after(async () => {
    await host?.close();
  });

  it('reads no_comments as partly counted, with N of M per organization and per window', () => {
    const o = funnel.organizations.openstack;
    assert.equal(o.probe?.text, 'probe held: 0 of 2 had comments');
    assert.equal(o.funnel.find((r) => r.rule === 'created_before_start')?.removed, 1);
    const row = (rows: DatasetFunnel['organizations'][string]['funnel']) => rows.find((r) => r.rule === 'no_comments')!;
    assert.deepEqual(
      { ...row(o.funnel) },
      {
        stage: 'collection',
        rule: 'no_comments',
        unit: 'changes',
        removed: 2,
        partly: '3 of 9 changes had no comment count (fetched instead)',
      },
    );
    assert.equal(row(o.windows.pilot.funnel).partly, '1 of 3 changes had no comment count (fetched instead)');
    assert.equal(row(o.windows.pilot.funnel).removed, 1);
    assert.equal(row(o.windows.train.funnel).removed, 1);
    assert.equal(row(o.windows.train.funnel).partly, undefined, 'every train change had a count');
    assert.equal(row(o.windows.train.funnel).notCounted, undefined);
    // dev's only change had no count: the rule could not run there at all, which 0 would hide.
    assert.equal(row(o.windows.dev.funnel).removed, null);
    assert.equal(
      row(o.windows.dev.funnel).notCounted,
      'the listing reported no total_comment_count for any of the 1 change that reached it (all fetched instead)',
    );
    assert.ok(
      host.requests.some((r) => r.path.startsWith('/changes/960009/comments')),
      'a change without a count is fetched',
    );
  });

  it('says so in the funnel table', async () => {
    const table = await cli('funnel', '--db', db);
    assert.equal(table.code, 0, table.err);
    assert.match(table.out, /\n {2}collection +no_comments +changes +2 \(partly counted\)\n/);
    assert.ok(
      table.out.includes('\n  partly counted: no_comments: 3 of 9 changes had no comment count (fetched instead)\n'),
      table.out,
    );
  });

  it('writes a reason beside every empty cell of counts.csv, switched-off rules included, and the card shows the same', async () => {
    mkdirSync(path.join(dir, 'publish'));
    const out = path.join(dir, 'publish', 'examples.jsonl');
    const r = await cli('export', '--db', db, '--out', out);
    assert.equal(r.code, 0, r.err);
    const text = readFileSync(path.join(dir, 'publish', 'counts.csv'), 'utf8');
    assert.equal(text.split('\n')[0], 'org,stage,rule,unit,input,removed,removed_note,remaining');
    const rows = csvRecords(text);
    assert.deepEqual(
      rows.filter((x) => x.removed === 'off').map((x) => x.rule),
      ['protected_comment', 'irrelevant_comment'],
      'the rules off by default read off, never 0',
    );
    for (const x of rows.filter((r) => r.removed === 'off')) assert.match(x.removed_note, /^not counted: off: /);
    for (const x of rows) {
      // removed is the one cell that can be empty, and then its note is not; a count's note is empty unless partial.
      const emptyCells = Object.keys(x).filter((k) => x[k] === '' && k !== 'removed_note');
      assert.deepEqual(emptyCells, x.removed === '' ? ['removed'] : [], `${x.rule}: ${JSON.stringify(x)}`);
      if (x.removed === '') assert.match(x.removed_note, /^not counted: \S/, `${x.rule} says why it is empty`);
    }
    assert.equal(
      rows.find((x) => x.rule === 'irrelevant_comment')!.removed_note,
      'not counted: off: judge.irrelevantComment is false (the default)',
    );
    const noComments = rows.find((x) => x.rule === 'no_comments')!;
    assert.deepEqual(
      [noComments.removed, noComments.removed_note],
      ['2', 'partly counted: 3 of 9 changes had no comment count (fetched instead)'],
    );
    const card = readFileSync(path.join(dir, 'publish', 'README.md'), 'utf8');
    assert.ok(card.includes('| stage | rule | unit | input | removed | remaining | note |'), card);
    // The note is set as inert Markdown (every ASCII punctuation mark escaped), as host text must be.
    assert.ok(
      card.includes(
        '| collection | `no_comments` | changes | 9 | 2 | 7 | partly counted\\: 3 of 9 changes had no comment count \\(fetched instead\\) |',
      ),
      card,
    );
    assert.match(
      card,
      /\| comments \| `irrelevant_comment` \| comments \| \d+ \| off \| \d+ \| not counted\\: off\\: judge\\.irrelevantComment/,
    );
    assert.ok(
      card.includes(
        '- `openstack`, `no_comments`: partly counted (2 is a lower bound), 3 of 9 changes had no comment count \\(fetched instead\\).',
      ),
      card,
    );
  });

  it('reads a count an older build did not record as not counted, with why, in every view', async () => {
    // As a build made before exact_duplicate and the target_in_comment and outside_windows counters existed stored it.
    const store = await CorpusStore.open(db);
    const id = Number(store.scalar('SELECT max(id) FROM builds'));
    const stored = JSON.parse(String(store.scalar('SELECT funnel FROM builds WHERE id = ?', [id]))) as DatasetFunnel;
    const o = stored.organizations.openstack;
    const older = (rows: typeof o.funnel) => rows.filter((r) => r.rule !== 'exact_duplicate');
    o.funnel = older(o.funnel);
    delete (o.counters as Record<string, unknown>).target_in_comment;
    delete (o.counters as Record<string, unknown>).outside_windows;
    for (const w of Object.values(o.windows)) {
      w.funnel = older(w.funnel);
      delete (w.counters as Record<string, unknown>).target_in_comment;
    }
    store.run('UPDATE builds SET funnel = ? WHERE id = ?', [JSON.stringify(stored), id]);
    store.save();

    // The tree: 3 examples kept in no window, from the decisions, not 0 (nor a group left out).
    const outside = treeGroups(store, id)[0].windows.find((w) => w.window === null);
    assert.equal(outside?.kept, 3);
    assert.equal(outside?.kept, countGroups(store, id)[0].windows.find((w) => w.window === null)?.kept);
    store.close();

    const why = 'not recorded by this build (made before this count existed)';
    const table = (await cli('funnel', '--db', db)).out;
    assert.match(table, /\n {2}duplicates +exact_duplicate +examples +not counted\n/);
    assert.ok(table.includes('target_in_comment not counted'), table);
    assert.ok(table.includes(`\n  not counted: exact_duplicate: ${why}\n`), table);
    assert.ok(table.includes(`\n  not counted: target_in_comment: ${why}\n`), table);
    assert.ok(table.includes(`\n  not counted: outside_windows: ${why}\n`), table);

    mkdirSync(path.join(dir, 'older'));
    const out = path.join(dir, 'older', 'examples.jsonl');
    const r = await cli('export', '--db', db, '--out', out);
    assert.equal(r.code, 0, r.err);
    const published = JSON.parse(readFileSync(path.join(dir, 'older', 'dataset-funnel.json'), 'utf8')) as DatasetFunnel;
    const p = published.organizations.openstack;
    assert.deepEqual(
      p.funnel.find((x) => x.rule === 'exact_duplicate'),
      { stage: 'duplicates', rule: 'exact_duplicate', unit: 'examples', removed: null, notCounted: why },
    );
    assert.equal(
      p.funnel.findIndex((x) => x.rule === 'exact_duplicate'),
      p.funnel.findIndex((x) => x.rule === 'same_change') + 1,
      'in funnel order',
    );
    assert.equal(p.counters.target_in_comment, null);
    assert.equal(p.notCounted?.target_in_comment, why);
    assert.equal(p.windows.train.counters.target_in_comment, null);
    assert.equal(p.windows.train.notCounted?.target_in_comment, why);
    const row = csvRecords(readFileSync(path.join(dir, 'older', 'counts.csv'), 'utf8')).find(
      (x) => x.rule === 'exact_duplicate',
    );
    assert.deepEqual([row?.removed, row?.removed_note], ['', `not counted: ${why}`]);
    const card = readFileSync(path.join(dir, 'older', 'README.md'), 'utf8');
    assert.ok(card.includes('`target_in_comment` not counted'), 'the counters line');
    assert.ok(
      card.includes('- `openstack`, counter `target_in_comment`: not counted, not recorded by this build'),
      card,
    );
    assert.match(
      card,
      /\| duplicates \| `exact_duplicate` \| examples \| \d+ \| not counted \| \d+ \| not counted\\: not recorded/,
    );
  });
});
