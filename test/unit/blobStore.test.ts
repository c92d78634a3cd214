// Diffs as content-addressed file versions (src/core/ground/store/diffText.ts, docs/storage.md): every diff
// reads back byte for byte through a real file on disk, a file version is stored once, a corpus
// written at schema 4 opens as it is, moves its diffs into blobs at its next save and builds the same
// corpus, and a kill -9 during that save leaves the old file or the new one.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { diffInfoChunks, parseDiffInfo } from '../../src/core/build/stages/diffInfo';
import {
  BlobReader,
  DiffTexts,
  LineChunks,
  blobId,
  diffContentById,
  diffBlobJoins,
  diffContentColumns,
  diffSides,
  joinDiff,
  packBlob,
  unpackBlob,
  writeDiff,
} from '../../src/core/ground/store/diffText';
import { MIGRATIONS } from '../../src/core/ground/store/schema';
import type { SqlValue } from 'sql.js';
import { loadSqlJs } from '../../src/core/ground/store/sqljs';
import { bundleChildScript } from './support/childScript';
import { inThreadSaver } from './support/editSaver';

const FIXTURE = path.resolve('test/fixtures/schema4-sample/corpus.sqlite');
const made: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rc-blobs-'));
  made.push(dir);
  return dir;
}

/** DiffInfo as fetchHost stores it: JSON.stringify of what the host sent (test/fake-gerrit/README.md). */
function diffJson(a: string[], b: string[], common: { before: string[]; after: string[] }, extra: object = {}): string {
  return JSON.stringify({
    meta_a: {
      name: 'src/x.c',
      content_type: 'text/x-csrc',
      lines: common.before.length + a.length + common.after.length,
    },
    meta_b: {
      name: 'src/x.c',
      content_type: 'text/x-csrc',
      lines: common.before.length + b.length + common.after.length,
    },
    change_type: 'MODIFIED',
    diff_header: ['diff --git a/src/x.c b/src/x.c'],
    content: [{ ab: common.before }, { a, b, ...extra }, { ab: common.after }],
  });
}

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `  int ${tag}_${i} = ${i * 7};`);

async function storeWithChange(file: string): Promise<CorpusStore> {
  const store = await CorpusStore.create(file);
  store.run("INSERT INTO hosts(id, org, url) VALUES (1, 'qt', 'https://codereview.example')");
  for (const id of [1, 2]) {
    store.run(
      "INSERT INTO changes(id, host_id, number, project, created, updated) VALUES (?, 1, ?, 'p', '2025-01-01', '2025-01-02')",
      [id, 100 + id],
    );
  }
  return store;
}

describe('diffs stored as file versions (blobs)', () => {
  after(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const cases: Record<string, string> = {
    'a final newline (Gerrit\'s last "" line)': diffJson(['  old();'], ['  new();'], {
      before: lines(3, 'x'),
      after: ['}', ''],
    }),
    'no final newline': diffJson(['  old();'], ['  new();'], { before: lines(3, 'x'), after: ['}'] }),
    'CRLF lines (each keeps its "\\r")': diffJson(['  old();\r'], ['  new();\r'], {
      before: ['int main() {\r', '  x();\r'],
      after: ['}\r', ''],
    }),
    'an added file (side A empty)': JSON.stringify({
      meta_b: { name: 'n.txt', lines: 2 },
      change_type: 'ADDED',
      content: [{ b: ['hello', ''] }],
    }),
    'a deleted file (side B empty)': JSON.stringify({
      meta_a: { name: 'n.txt', lines: 2 },
      change_type: 'DELETED',
      content: [{ a: ['bye', ''] }],
    }),
    'skips, intraline edits and due_to_rebase': JSON.stringify({
      content: [
        { skip: 40 },
        { a: ['x = 1'], b: ['x = 2'], edit_a: [[4, 1]], edit_b: [[4, 1]], due_to_rebase: true },
        { ab: ['', ''] },
        { skip: { left: 3, right: 4 } },
      ],
    }),
    'non-ASCII, tabs, NUL and other controls': diffJson(['\tnaïve = "€ 𝄞"\u0000'], ['\tnaïve = "€ 𝄞 ✓"\u0007'], {
      before: ['// ünïcödé'],
      after: ['\u202e', ''],
    }),
    'a "line" that holds a newline (its list stays in the structure)': diffJson(['one\ntwo'], ['three'], {
      before: [],
      after: [''],
    }),
    'empty lines and empty chunks': JSON.stringify({ content: [{ ab: [] }, { a: [''], b: ['', ''] }, { ab: [''] }] }),
  };
  for (const [name, json] of Object.entries(cases)) {
    it(`reads back byte for byte through a saved file: ${name}`, async () => {
      const file = path.join(tempDir(), 'corpus.sqlite');
      const store = await storeWithChange(file);
      writeDiff(store, { changeId: 1, path: 'src/x.c', base: 1, content: json, error: null, targetPath: null });
      store.save();
      store.close();
      const reopened = await CorpusStore.open(file);
      const row = reopened.get<{ id: number; layout: string; content: string | null }>(
        'SELECT id, layout, content FROM diffs',
      );
      assert.equal(row?.layout, 'sides', 'stored as blobs, not inline');
      assert.equal(row?.content, null);
      assert.equal(diffContentById(reopened, Number(row!.id)), json);
      // What the build reads: the same DiffInfo as parsing that JSON, made from the sides without it.
      const rows: SqlValue[][] = [];
      reopened
        .prepare(`SELECT ${diffContentColumns('d')} FROM diffs d ${diffBlobJoins('d')}`)
        .eachArray([], (r) => rows.push(r));
      const read = new DiffTexts(reopened).read(rows[0]);
      assert.equal(typeof read, 'object');
      assert.deepEqual(read, JSON.parse(json));
      assert.deepEqual(diffInfoChunks(read), parseDiffInfo(json));
      reopened.close();
    });
  }

  const inline: Record<string, string> = {
    'a lone surrogate (UTF-8 cannot hold it; JSON.stringify writes it as \\ud800)': diffJson(['a\ud800b'], ['c'], {
      before: [],
      after: [''],
    }),
    'JSON not written by JSON.stringify (spaces)': '{ "content": [ { "ab": ["x"] } ] }',
    'not DiffInfo at all': '{"content": 3}',
  };
  for (const [name, json] of Object.entries(inline)) {
    it(`keeps a diff inline, as it came, when it does not split exactly: ${name}`, async () => {
      assert.equal(diffSides(json), undefined);
      const file = path.join(tempDir(), 'corpus.sqlite');
      const store = await storeWithChange(file);
      writeDiff(store, { changeId: 1, path: 'src/x.c', base: 1, content: json, error: null, targetPath: null });
      store.save();
      store.close();
      const reopened = await CorpusStore.open(file);
      assert.equal(reopened.scalar('SELECT layout FROM diffs'), 'inline');
      assert.equal(diffContentById(reopened, Number(reopened.scalar('SELECT id FROM diffs'))), json);
      reopened.close();
    });
  }

  it('stores each file version once: PS1→PS2 then PS2→PS3 adds one version, as a delta of a few lines', async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    const store = await storeWithChange(file);
    const head = lines(400, 'head');
    const tail = [...lines(400, 'tail'), ''];
    const ps12 = diffJson(['  v1();'], ['  v2();'], { before: head, after: tail });
    const ps23 = diffJson(['  v2();'], ['  v3();'], { before: head, after: tail });
    writeDiff(store, { changeId: 1, path: 'src/x.c', base: 1, content: ps12, error: null, targetPath: null });
    const afterFirst = store.all<{ codec: string; n: number }>(
      'SELECT codec, count(*) AS n FROM blobs GROUP BY codec ORDER BY codec',
    );
    assert.deepEqual(
      afterFirst.map((r) => [r.codec, r.n]),
      [
        ['br5', 1],
        ['none-delta', 1],
      ],
      'PS1 whole, PS2 as its edit over PS1 (a few bytes: stored as they are)',
    );
    writeDiff(store, { changeId: 1, path: 'src/x.c', base: 2, content: ps23, error: null, targetPath: null });
    const versions = Number(store.scalar('SELECT count(*) FROM blobs'));
    assert.equal(versions, 3, 'PS1, PS2 and PS3: PS2 is stored once though both diffs show it');
    const [a2, b1] = [
      store.scalar('SELECT a_sha256 FROM diffs WHERE ps_base = 2'),
      store.scalar('SELECT b_sha256 FROM diffs WHERE ps_base = 1'),
    ];
    assert.equal(a2, b1, 'the same version, the same blob');
    const deltaBytes = store
      .all<{ n: number }>("SELECT pack_length AS n FROM blobs WHERE codec LIKE '%-delta'")
      .map((r) => Number(r.n));
    const wholeBytes = Number(store.scalar("SELECT pack_length FROM blobs WHERE codec = 'br5'"));
    assert.ok(
      deltaBytes.every((n) => n * 20 < wholeBytes),
      `a version that changed one line costs a small part of the whole: ${deltaBytes} vs ${wholeBytes}`,
    );
    // The same diff in another change (a cherry-pick) adds no version at all.
    writeDiff(store, { changeId: 2, path: 'src/x.c', base: 1, content: ps12, error: null, targetPath: null });
    assert.equal(Number(store.scalar('SELECT count(*) FROM blobs')), 3);
    store.save();
    store.close();
    const reopened = await CorpusStore.open(file);
    const ids = reopened.all<{ id: number; ps_base: number }>(
      'SELECT id, ps_base FROM diffs ORDER BY change_id, ps_base',
    );
    assert.deepEqual(
      ids.map((r) => diffContentById(reopened, Number(r.id))),
      [ps12, ps23, ps12],
    );
    reopened.close();
  });

  it('compresses a delta over 512 bytes, and stores a smaller one as it is (a brotli read costs ~20 µs at any size)', async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    const store = await storeWithChange(file);
    const head = lines(300, 'head');
    const tail = [...lines(300, 'tail'), ''];
    const small = diffJson(['  v1();'], ['  v2();'], { before: head, after: tail });
    const large = diffJson(lines(40, 'old'), lines(40, 'new'), { before: head, after: tail });
    writeDiff(store, { changeId: 1, path: 'src/x.c', base: 1, content: small, error: null, targetPath: null });
    writeDiff(store, { changeId: 2, path: 'src/x.c', base: 1, content: large, error: null, targetPath: null });
    const codecOf = (change: number) =>
      store.scalar('SELECT b.codec FROM diffs d JOIN blobs b ON b.sha256 = d.b_sha256 WHERE d.change_id = ?', [change]);
    assert.equal(codecOf(1), 'none-delta');
    assert.equal(codecOf(2), 'br5-delta');
    store.save();
    store.close();
    const reopened = await CorpusStore.open(file);
    const ids = reopened.all<{ id: number }>('SELECT id FROM diffs ORDER BY change_id');
    assert.deepEqual(
      ids.map((r) => diffContentById(reopened, Number(r.id))),
      [small, large],
    );
    reopened.close();
  });

  it('replaces a diff fetched again, blobs and all', async () => {
    const store = await storeWithChange(path.join(tempDir(), 'corpus.sqlite'));
    const first = diffJson(['a'], ['b'], { before: ['x'], after: [''] });
    const again = diffJson(['a'], ['c'], { before: ['x'], after: [''] });
    writeDiff(store, { changeId: 1, path: 'p', base: 1, content: first, error: null, targetPath: null });
    writeDiff(store, { changeId: 1, path: 'p', base: 1, content: again, error: null, targetPath: null });
    assert.equal(diffContentById(store, Number(store.scalar('SELECT id FROM diffs'))), again);
    writeDiff(store, { changeId: 1, path: 'p', base: 1, content: null, error: 'HTTP 500', targetPath: null });
    assert.deepEqual(store.get('SELECT content, structure, a_sha256, layout, fetch_error FROM diffs'), {
      content: null,
      structure: null,
      a_sha256: null,
      layout: null,
      fetch_error: 'HTTP 500',
    });
    store.close();
  });

  it('reads every codec it can write, byte for byte', () => {
    const bytes = Buffer.concat([
      Buffer.from('line one\r\nline two\n\u0000 naïve 𝄞', 'utf8'),
      Buffer.from([0xff, 0xfe, 0x80]),
    ]);
    for (const codec of ['none', 'deflate', 'br5', 'br1'])
      assert.deepEqual(unpackBlob(codec, packBlob(codec, bytes)), bytes, codec);
    assert.throws(() => unpackBlob('zstd', bytes), /unknown blob codec "zstd"/);
  });

  it('stores records as lines of shared chunks: each reads back, one already stored is not stored again', async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    const store = await storeWithChange(file);
    const records = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({ id: `r${i}`, text: `line ${i}\n\u2028 naïve 𝄞 ${'x'.repeat(i)}` }),
    );
    const write = (texts: string[]) => {
      const chunks = new LineChunks(store);
      const ids = texts.map((t) => chunks.add(t));
      chunks.flush();
      return ids;
    };
    const ids = write(records);
    assert.deepEqual(ids, records.map(blobId), 'each id is its text’s own');
    const byCodec = () =>
      Object.fromEntries(
        store
          .all<{ codec: string; n: number }>('SELECT codec, count(*) AS n FROM blobs GROUP BY codec')
          .map((r) => [r.codec, Number(r.n)]),
      );
    assert.deepEqual(byCodec(), { br1: 3, line: 300 }, '300 records in three chunks of at most 128');
    // A rebuild that changed one record adds that record alone, in a chunk of its own.
    const changed = [...records.slice(0, 299), JSON.stringify({ id: 'r299', text: 'now different' })];
    write(changed);
    assert.deepEqual(byCodec(), { br1: 4, line: 300 }, 'a chunk of one line is the line’s own blob');
    store.save();
    store.close();
    const reopened = await CorpusStore.open(file);
    const reader = new BlobReader(reopened);
    for (const text of [...records, changed[299]]) assert.equal(reader.lines(blobId(text)).join('\n'), text);
    // A damaged line row is named, not read as another record.
    reopened.run("UPDATE blobs SET bytes = CAST('999' AS BLOB) WHERE sha256 = ?", [blobId(records[5])]);
    assert.throws(
      () => new BlobReader(reopened).lines(blobId(records[5])),
      new RegExp(`blob ${blobId(records[5])} is damaged: no line 999 in its chunk`),
    );
    assert.throws(() => new LineChunks(reopened).add('two\nlines'), /must not hold/);
    reopened.close();
  });

  it('joinDiff inverts diffSides on the structure it writes', () => {
    const json = cases['CRLF lines (each keeps its "\\r")'];
    const s = diffSides(json)!;
    assert.equal(JSON.parse(s.structure).content[1].a, 1, 'line lists become counts');
    assert.equal(joinDiff(s.structure, s.a, s.b), json);
  });
});

/** The fixture's diffs as it stores them (schema 4: whole JSON in diffs.content), read without our code. */
async function fixtureDiffs(file: string): Promise<Map<string, string | null>> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(file));
  const out = new Map<string, string | null>();
  for (const [changeId, p, base, content] of db.exec('SELECT change_id, path, ps_base, content FROM diffs')[0].values)
    out.set(`${changeId}/${p}/${base}`, content as string | null);
  db.close();
  return out;
}

describe('a corpus written at schema 4 (before blobs)', () => {
  after(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is the fixture it says it is: schema 4, every diff inline', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database(readFileSync(FIXTURE));
    assert.equal(db.exec("SELECT value FROM meta WHERE key = 'schema_version'")[0].values[0][0], '4');
    assert.ok(Number(db.exec('SELECT count(*) FROM diffs WHERE content IS NOT NULL')[0].values[0][0]) > 30);
    db.close();
  });

  it('opens as it is (read, never written), and its next save moves every diff into blobs, each reading back as it was', async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    copyFileSync(FIXTURE, file);
    const old = readFileSync(file);
    const before = await fixtureDiffs(file);
    const store = await CorpusStore.open(file);
    assert.equal(store.schemaVersion, MIGRATIONS.length);
    const readAll = (s: CorpusStore) => {
      for (const r of s.all<{ id: number; change_id: number; path: string; ps_base: number }>(
        'SELECT id, change_id, path, ps_base FROM diffs',
      )) {
        assert.equal(diffContentById(s, Number(r.id)), before.get(`${r.change_id}/${r.path}/${r.ps_base}`));
      }
    };
    readAll(store); // inline, before the save
    assert.deepEqual(readFileSync(file), old, 'opening wrote nothing');
    store.save();
    assert.equal(
      store.scalar("SELECT count(*) FROM diffs WHERE content IS NOT NULL AND layout IS NOT 'inline'"),
      0,
      'nothing left inline',
    );
    readAll(store); // from blobs
    store.close();
    const reopened = await CorpusStore.open(file);
    readAll(reopened);
    assert.equal(
      reopened.scalar("SELECT count(*) FROM diffs WHERE layout = 'sides'"),
      [...before.values()].filter((c) => c !== null).length,
    );
    reopened.close();
  });

  it("the saver's saves move at most so many diffs each, so a label reaches the disk without waiting for all; every diff reads the same throughout", async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    copyFileSync(FIXTURE, file);
    const before = await fixtureDiffs(file);
    const total = [...before.values()].filter((c) => c !== null).length;
    const saver = inThreadSaver(file, { inlineDiffsPerSave: 10 });
    const inline = (s: CorpusStore) =>
      Number(s.scalar('SELECT count(*) FROM diffs WHERE layout IS NULL AND content IS NOT NULL'));
    for (let seq = 1; seq * 10 < total + 10; seq++) {
      saver.send({
        seq,
        edits: [
          { kind: 'label', exampleKey: `k/${seq}`, rater: 'rater-1', label: 'answers', at: '2026-12-04T15:00:00.000Z' },
        ],
      });
      assert.deepEqual(await saver.reply(seq), { type: 'saved', seq });
      const onDisk = await CorpusStore.open(file);
      try {
        assert.equal(inline(onDisk), Math.max(total - 10 * seq, 0), `inline after save ${seq}`);
        assert.equal(Number(onDisk.scalar('SELECT count(*) FROM labels')), seq, 'each label is on disk');
        for (const r of onDisk.all<{ id: number; change_id: number; path: string; ps_base: number }>(
          'SELECT id, change_id, path, ps_base FROM diffs',
        ))
          assert.equal(diffContentById(onDisk, Number(r.id)), before.get(`${r.change_id}/${r.path}/${r.ps_base}`));
      } finally {
        onDisk.close();
      }
    }
  });

  it('builds the same corpus (corpus hash, kept examples) from blobs as from the same diffs inline', async () => {
    // The control: the same file, migrated by SQL alone with its diffs marked inline, so they stay as they were.
    const SQL = await loadSqlJs();
    const db = new SQL.Database(readFileSync(FIXTURE));
    db.exec('BEGIN');
    for (let v = 4; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]);
    db.exec(
      `UPDATE meta SET value = '${MIGRATIONS.length}' WHERE key = 'schema_version'; UPDATE diffs SET layout = 'inline' WHERE content IS NOT NULL; COMMIT`,
    );
    const dir = tempDir();
    const control = path.join(dir, 'control.sqlite');
    writeFileSync(control, db.export());
    db.close();
    const migrated = path.join(dir, 'migrated.sqlite');
    copyFileSync(FIXTURE, migrated);
    const saved = await CorpusStore.open(migrated);
    saved.save(); // moves the diffs into blobs
    saved.close();

    const results = [];
    for (const file of [control, migrated]) {
      const store = await CorpusStore.open(file);
      const result = await runBuild(store);
      const kept = store.all(
        'SELECT example_key, before_text, after_text FROM examples WHERE build_id = ? AND rule IS NULL ORDER BY example_key',
        [result.buildId],
      );
      results.push({
        hash: result.corpusHash,
        kept,
        layouts: store.all('SELECT layout, count(*) AS n FROM diffs GROUP BY layout ORDER BY layout'),
      });
      store.close();
    }
    assert.ok(
      results[1].layouts.some((r) => r.layout === 'sides'),
      'the migrated copy reads its diffs from blobs',
    );
    assert.ok(!results[0].layouts.some((r) => r.layout === 'sides'), 'the control reads them inline');
    assert.equal(results[1].hash, results[0].hash);
    assert.ok(results[0].kept.length > 0);
    assert.deepEqual(results[1].kept, results[0].kept);
  });

  it("a kill -9 during the migration's save leaves the old file, which still opens and migrates; a finished save leaves the new one", async () => {
    const dir = tempDir();
    const file = path.join(dir, 'corpus.sqlite');
    copyFileSync(FIXTURE, file);
    const old = readFileSync(file);
    // A child process of its own opens (migrating) and saves; killed just before the rename, or not.
    const script = bundleChildScript(
      dir,
      'save',
      `import { CorpusStore } from './src/core/ground/store/corpusStore';
      CorpusStore.open(process.argv[2]).then((s) => s.save(process.argv[3] === 'kill' ? { beforeRename: () => process.kill(process.pid, 'SIGKILL') } : undefined));`,
    );
    const killed = spawnSync(process.execPath, [script, file, 'kill'], { encoding: 'utf8' });
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    assert.deepEqual(readFileSync(file), old, 'the old file, byte for byte');
    const done = spawnSync(process.execPath, [script, file, 'finish'], { encoding: 'utf8' });
    assert.equal(done.status, 0, done.stderr);
    const SQL = await loadSqlJs();
    const db = new SQL.Database(readFileSync(file));
    assert.equal(
      db.exec("SELECT value FROM meta WHERE key = 'schema_version'")[0].values[0][0],
      String(MIGRATIONS.length),
      'the new file',
    );
    assert.equal(db.exec('SELECT count(*) FROM diffs WHERE layout IS NULL AND content IS NOT NULL')[0].values[0][0], 0);
    db.close();
    const reopened = await CorpusStore.open(file);
    assert.equal(
      Number(reopened.scalar('SELECT count(*) FROM diffs')),
      (await fixtureDiffs(FIXTURE)).size,
      'every diff is there',
    );
    reopened.close();
  });
});
