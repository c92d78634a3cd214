// Flag decisions as recorded inputs (docs/flag-decisions.md), on the sample corpus (fetched from the
// loopback fake Gerrit, built twice, its second build removing one example with a confirmed flag)
// through the CLI's entry: `flags set` and `flags list`, a rebuild, and `verify --reproduce` of the
// earlier builds; the inspector's edit path writes the same history; an older file migrates forward.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSampleCorpus, SAMPLE_SALT } from '../../scripts/sample-corpus';
import { runCli } from '../../src/cli/main';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { copyCorpus, filesBeside } from '../../src/core/ground/store/copyCorpus';
import { lockFileOf } from '../../src/core/ground/store/writerLock';
import { loadSqlJs } from '../../src/core/ground/store/sqljs';
import { localUserPseudonym } from '../../src/core/ground/privacy/localUser';
import { flagDecisionsOfBuild, type ListedFlag } from '../../src/core/build/flags/flagDecisions';
import { inThreadSaver } from './support/editSaver';

const ENV = { REVIEW_CORPUS_SALT: SAMPLE_SALT };
const SCHEMA10 = path.resolve('test/fixtures/schema10-sample/corpus.sqlite');
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function cli(env: NodeJS.ProcessEnv, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The corpus file and the files beside it, byte for byte (absent ones as such). */
function fileState(db: string): string[] {
  return [db, ...filesBeside(db), lockFileOf(db)].map((f) =>
    existsSync(f) ? createHash('sha256').update(readFileSync(f)).digest('hex') : 'absent',
  );
}

describe('flag decisions: recorded inputs of a build, and `flags list|set`', function () {
  this.timeout(120_000);
  let sample: string;
  let dir: string;
  let copies = 0;
  /** A fresh copy of the sample corpus for one test. */
  const corpus = () => {
    const db = path.join(dir, `corpus-${++copies}.sqlite`);
    copyCorpus(sample, db);
    return db;
  };
  /** An open flag on an example the latest build (2) keeps, from `flags list --json`. */
  const openFlag = async (db: string, skip: string[] = []) => {
    const r = await cli({}, 'flags', 'list', '--db', db, '--json');
    assert.equal(r.code, 0, r.err);
    const store = await CorpusStore.open(db);
    const kept = (key: string) =>
      store.scalar("SELECT rule FROM decisions WHERE build_id = 2 AND unit = 'examples' AND unit_key = ?", [key]) ===
      'kept';
    const open = (JSON.parse(r.out) as ListedFlag[]).find(
      (f) => f.status === 'open' && !skip.includes(f.example) && kept(f.example),
    );
    store.close();
    assert.ok(open, 'the sample has an open flag on a kept example');
    return open;
  };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-flag-decisions-'));
    ({ dbFile: sample } = await buildSampleCorpus(path.join(dir, 'sample')));
  });

  it('a confirm from the CLI is an input of the next build: verify still reproduces the builds before it', async () => {
    const db = corpus();
    const flag = await openFlag(db);
    const set = await cli(ENV, 'flags', 'set', '--db', db, '--example', flag.example, 'confirmed');
    assert.equal(set.code, 0, set.err);
    // Without --reason, every flag of the example: one line each.
    assert.ok(
      set.out
        .split('\n')
        .includes(`${flag.example} ${flag.reason}: open → confirmed (leaves at the next build: manual_flag)`),
      set.out,
    );
    // Build 2 read no such decision: rebuilt with its own, it reproduces (before #29 item 4: "differs").
    const before = await cli({}, 'verify', '--db', db, '--reproduce', '--build', '2');
    assert.equal(before.out, 'clean', before.err);
    assert.equal(before.code, 0);

    const build = await cli({}, 'build', '--db', db);
    assert.equal(build.code, 0, build.err);
    const store = await CorpusStore.open(db);
    try {
      const rule = store.scalar(
        "SELECT rule FROM decisions WHERE build_id = 3 AND unit = 'examples' AND unit_key = ?",
        [flag.example],
      );
      assert.equal(rule, 'manual_flag', 'the next build removes the confirmed example');
      const used = flagDecisionsOfBuild(store, 3);
      assert.ok(
        used.some((d) => d.exampleKey === flag.example && d.reason === flag.reason && d.status === 'confirmed'),
        'build 3 recorded the confirm it read',
      );
      assert.ok(!flagDecisionsOfBuild(store, 2).some((d) => d.exampleKey === flag.example));
      const digests = store.all<{ id: number; d: string | null }>(
        'SELECT id, flag_decisions_sha256 AS d FROM builds ORDER BY id',
      );
      assert.ok(
        digests.every((b) => /^[0-9a-f]{64}$/.test(String(b.d))),
        'every build records the digest of its decisions',
      );
      assert.notEqual(digests[1].d, digests[2].d);
    } finally {
      store.close();
    }
    // Rejected after build 3: build 3 still reproduces, and so does build 2.
    const reject = await cli(ENV, 'flags', 'set', '--db', db, '--example', flag.example, 'rejected');
    assert.equal(reject.code, 0, reject.err);
    for (const b of ['2', '3']) {
      const v = await cli({}, 'verify', '--db', db, '--reproduce', '--build', b);
      assert.deepEqual([v.code, v.out], [0, 'clean'], `build ${b}: ${v.out} ${v.err}`);
    }
  });

  it('keeps every decision with its time, and `flags list --json` shows each flag with its history', async () => {
    const db = corpus();
    const flag = await openFlag(db);
    for (const word of ['confirmed', 'rejected', 'rejected', 'clear', 'confirmed']) {
      const r = await cli(ENV, 'flags', 'set', '--db', db, '--example', flag.example, '--reason', flag.reason, word);
      assert.equal(r.code, 0, r.err);
    }
    const r = await cli({}, 'flags', 'list', '--db', db, '--example', flag.example, '--json');
    assert.equal(r.code, 0, r.err);
    const listed = JSON.parse(r.out) as ListedFlag[];
    const mine = listed.find((f) => f.reason === flag.reason)!;
    const rater = localUserPseudonym(SAMPLE_SALT);
    assert.deepEqual(Object.keys(mine), ['example', 'reason', 'status', 'rater', 'decided_at', 'detail', 'history']);
    assert.deepEqual(
      { ...mine, decided_at: 'T', history: mine.history.map((h) => ({ ...h, decided_at: 'T' })) },
      {
        example: flag.example,
        reason: flag.reason,
        status: 'confirmed',
        rater,
        decided_at: 'T',
        detail: flag.detail,
        // The second 'rejected' changed nothing and added nothing.
        history: ['confirmed', 'rejected', 'open', 'confirmed'].map((status) => ({ status, rater, decided_at: 'T' })),
      },
    );
    const times = mine.history.map((h) => h.decided_at!);
    assert.ok(
      times.every((t) => ISO_TIME.test(t)),
      times.join(' '),
    );
    assert.deepEqual([...times].sort(), times, 'oldest first');
    assert.equal(mine.decided_at, times[3]);
    assert.ok(typeof flag.detail === 'string' && flag.detail.length > 0, 'a detected flag says what was seen');

    const text = await cli({}, 'flags', 'list', '--db', db, '--example', flag.example);
    assert.ok(
      text.out.split('\n').includes(`${flag.example}\t${flag.reason}\tconfirmed\t${rater}\t${times[3]}\t4 decisions`),
      text.out,
    );
  });

  it('refuses, in one line with exit 2 and nothing written, what it cannot set', async () => {
    const db = corpus();
    const flag = await openFlag(db);
    const state = fileState(db);
    const store = await CorpusStore.open(db);
    const unflagged = String(
      store.scalar(
        'SELECT e.example_key FROM examples e WHERE e.build_id = 2 AND e.rule IS NULL AND NOT EXISTS (SELECT 1 FROM flags f WHERE f.example_key = e.example_key) LIMIT 1',
      ),
    );
    store.close();
    const cases: [string[], NodeJS.ProcessEnv, string][] = [
      [
        ['--example', 'openstack/1/1/1/nowhere.py', 'confirmed'],
        ENV,
        `flags set: --example openstack/1/1/1/nowhere.py: no such example in ${db} (give the id an export writes)`,
      ],
      [
        ['--example', unflagged, 'confirmed'],
        ENV,
        `flags set: example ${unflagged} has no flags (a build flags only the kept examples its detector suspects)`,
      ],
      [
        ['--example', flag.example, '--reason', 'no_such_reason', 'rejected'],
        ENV,
        `flags set: example ${flag.example} has no flag no_such_reason (its flags: `,
      ],
      [['--example', flag.example, 'dismissed'], ENV, 'flags set: "dismissed": give confirmed, rejected or clear'],
      [['--example', flag.example, 'confirmed'], {}, 'no salt: set REVIEW_CORPUS_SALT'],
    ];
    for (const [args, env, message] of cases) {
      const r = await cli(env, 'flags', 'set', '--db', db, ...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.out}`);
      assert.equal(r.err.split('\n').length, 1, r.err);
      assert.ok(r.err.startsWith(`review-corpus: ${message}`), r.err);
      assert.equal(r.out, '');
      assert.deepEqual(fileState(db), state, `${args.join(' ')}: nothing written`);
    }
    const list = await cli({}, 'flags', 'list', '--db', db, '--example', 'openstack/1/1/1/nowhere.py');
    assert.deepEqual(
      [list.code, list.err],
      [2, `review-corpus: flags list: --example openstack/1/1/1/nowhere.py: no such example in ${db}`],
    );
  });

  it("the inspector's Confirm and Reject Flag (its edit, through the saver) write the history `flags set` writes", async () => {
    const viaCli = corpus();
    const viaInspector = corpus();
    const flag = await openFlag(viaCli);
    const other = await openFlag(viaCli, [flag.example]);
    for (const [f, word] of [
      [flag, 'confirmed'],
      [other, 'rejected'],
    ] as const) {
      const r = await cli(ENV, 'flags', 'set', '--db', viaCli, '--example', f.example, '--reason', f.reason, word);
      assert.equal(r.code, 0, r.err);
    }
    const open = await CorpusStore.open(viaInspector);
    const idOf = (f: ListedFlag) =>
      Number(open.scalar('SELECT id FROM flags WHERE example_key = ? AND reason = ?', [f.example, f.reason]));
    const rater = localUserPseudonym(SAMPLE_SALT);
    const at = new Date().toISOString();
    const saver = inThreadSaver(viaInspector);
    saver.send({
      seq: 1,
      edits: [
        { kind: 'flags', flagIds: [idOf(flag)], status: 'confirmed', rater, at },
        { kind: 'flags', flagIds: [idOf(other)], status: 'rejected', rater, at },
      ],
    });
    assert.deepEqual(await saver.reply(1), { type: 'saved', seq: 1 });
    open.close();
    const written = async (db: string) => {
      const s = await CorpusStore.open(db);
      try {
        return {
          history: s.all('SELECT id, example_key, reason, status, rater FROM flag_decisions ORDER BY id'),
          flags: s.all("SELECT id, example_key, reason, status, rater FROM flags WHERE status <> 'open' ORDER BY id"),
        };
      } finally {
        s.close();
      }
    };
    const fromCli = await written(viaCli);
    assert.deepEqual(await written(viaInspector), fromCli);
    assert.deepEqual(
      (fromCli.history as { status: string }[]).map((h) => h.status),
      ['confirmed', 'confirmed', 'rejected'],
      "the sample's own confirm, then these two",
    );
  });

  it('a build written before schema 12 is rebuilt with what its manual_flag removals show', async () => {
    const db = corpus();
    // As a file written before builds recorded their decisions: build 2 has no record.
    const store = await CorpusStore.open(db);
    store.transaction(() => {
      store.run('DELETE FROM build_flag_decisions WHERE build_id = 2');
      store.run('UPDATE builds SET flag_decisions_sha256 = NULL, records_sha256 = NULL, config = NULL WHERE id = 2');
    });
    store.save();
    const manual = store.all<{ unit_key: string }>(
      "SELECT unit_key FROM decisions WHERE build_id = 2 AND rule = 'manual_flag'",
    );
    assert.equal(manual.length, 1, "the sample's confirmed example");
    assert.deepEqual(flagDecisionsOfBuild(store, 2), [
      { exampleKey: manual[0].unit_key, reason: 'unrecorded', status: 'confirmed', decidedAt: null },
    ]);
    store.close();
    const reject = await cli(ENV, 'flags', 'set', '--db', db, '--example', manual[0].unit_key, 'rejected');
    assert.equal(reject.code, 0, reject.err);
    const flag = await openFlag(db);
    assert.equal((await cli(ENV, 'flags', 'set', '--db', db, '--example', flag.example, 'confirmed')).code, 0);
    // Such a build's corpus hash predates hashes over the published records: verify says so, in one line.
    const v = await cli({}, 'verify', '--db', db, '--reproduce', '--build', '2');
    assert.deepEqual(
      [v.code, v.out],
      [
        1,
        'not reproducible by this code: build 2 was written before builds stored their published records, so its corpus hash does not cover them and no rebuild can give it again; rebuild, and verify or tag the new build',
      ],
      v.err,
    );
  });

  it('a corpus written at schema 10 opens with its decisions as the first entries of their history', async () => {
    const db = path.join(dir, 'schema10.sqlite');
    copyFileSync(SCHEMA10, db);
    // The flag as the tool before #29 wrote a Dismiss Flag: status 'dismissed'.
    const SQL = await loadSqlJs();
    const old = new SQL.Database(readFileSync(db));
    old.exec(
      "UPDATE flags SET status = 'dismissed', rater = 'r_00000000000000aa', decided_at = '2026-12-01T09:00:00.000Z' WHERE id = (SELECT min(id) FROM flags WHERE status = 'open')",
    );
    const dismissed = String(old.exec("SELECT example_key FROM flags WHERE status = 'dismissed'")[0].values[0][0]);
    writeFileSync(db, old.export());
    old.close();

    const list = await cli({}, 'flags', 'list', '--db', db, '--json');
    assert.equal(list.code, 0, list.err);
    const byExample = (x: unknown[], y: unknown[]) => (String(x[0]) < String(y[0]) ? -1 : 1);
    const decided = (JSON.parse(list.out) as ListedFlag[]).filter((f) => f.status !== 'open');
    assert.deepEqual(
      decided.map((f) => [f.example, f.status, f.decided_at, f.history]).sort(byExample),
      [
        [
          'openstack/930018/1/1/nova/objects/flavor_specs.py',
          'confirmed',
          '2026-11-30T12:00:00.000Z',
          [{ status: 'confirmed', rater: 'r_8262f6de75e74c52', decided_at: '2026-11-30T12:00:00.000Z' }],
        ],
        [
          dismissed,
          'rejected',
          '2026-12-01T09:00:00.000Z',
          [{ status: 'rejected', rater: 'r_00000000000000aa', decided_at: '2026-12-01T09:00:00.000Z' }],
        ],
      ].sort(byExample),
    );
    const store = await CorpusStore.open(db);
    try {
      assert.deepEqual(flagDecisionsOfBuild(store, 1), [], 'build 1 removed nothing by manual_flag');
      assert.deepEqual(
        flagDecisionsOfBuild(store, 2).map((d) => d.exampleKey),
        ['openstack/930018/1/1/nova/objects/flavor_specs.py'],
      );
    } finally {
      store.close();
    }
  });
});
