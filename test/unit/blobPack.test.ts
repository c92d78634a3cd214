// The blob pack (src/core/ground/store/blobPack.ts, docs/storage.md "Blob pack"): file versions' bytes live in
// `<corpus>.blobs` beside the database, through real files on disk: every diff reads back after a
// reopen, a missing, foreign or cut pack is named in one line, a scratch copy never writes beside the
// corpus, a kill -9 between the pack's append and the database's save leaves a corpus that opens and
// takes the next writer's appends, and a corpus written at schema 10 (bytes in the database) migrates.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { blobPackPath } from '../../src/core/ground/store/blobPack';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { CorpusFileError } from '../../src/core/ground/store/errors';
import { diffContentById, writeDiff } from '../../src/core/ground/store/diffText';
import { bundleChildScript } from './support/childScript';

const SCHEMA4 = path.resolve('test/fixtures/schema4-sample/corpus.sqlite');
const SCHEMA10 = path.resolve('test/fixtures/schema10-sample/corpus.sqlite');
const made: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rc-pack-'));
  made.push(dir);
  return dir;
}

/** A DiffInfo of `n` distinct lines around one edit, as the fetch stores it (JSON.stringify of what Gerrit sent). */
function diffJson(tag: string, n = 300): string {
  const body = Array.from({ length: n }, (_, i) => `  int ${tag}_${i} = ${(i * 7919) % 1013};`);
  return JSON.stringify({
    meta_a: { name: 'src/x.c', content_type: 'text/x-csrc', lines: n + 2 },
    meta_b: { name: 'src/x.c', content_type: 'text/x-csrc', lines: n + 2 },
    change_type: 'MODIFIED',
    content: [
      { ab: body.slice(0, n / 2) },
      { a: [`  ${tag}_old();`], b: [`  ${tag}_new();`] },
      { ab: [...body.slice(n / 2), ''] },
    ],
  });
}

async function corpusWithChange(file: string): Promise<CorpusStore> {
  const store = await CorpusStore.create(file);
  store.run("INSERT INTO hosts(id, org, url) VALUES (1, 'qt', 'https://codereview.example')");
  store.run(
    "INSERT INTO changes(id, host_id, number, project, created, updated) VALUES (1, 1, 101, 'p', '2025-01-01', '2025-01-02')",
  );
  return store;
}

const put = (store: CorpusStore, base: number, json: string) =>
  writeDiff(store, { changeId: 1, path: 'src/x.c', base, content: json, error: null, targetPath: null });

/** Every diff's DiffInfo JSON by its patch set, as read back. */
function diffsOf(store: CorpusStore): Map<number, string | null> {
  return new Map(
    store
      .all<{ id: number; ps_base: number }>('SELECT id, ps_base FROM diffs ORDER BY ps_base')
      .map((r) => [Number(r.ps_base), diffContentById(store, Number(r.id))]),
  );
}

async function openFails(file: string): Promise<string> {
  const e = await CorpusStore.open(file).then(
    (s) => {
      s.close();
      return undefined;
    },
    (err: unknown) => err,
  );
  assert.ok(e instanceof CorpusFileError, `opening ${file} fails with a CorpusFileError, not ${String(e)}`);
  assert.ok(!e.message.includes('\n'), 'in one line');
  assert.ok(e.message.startsWith(`${blobPackPath(file)}: `), `naming the pack: ${e.message}`);
  return e.message;
}

describe('the blob pack beside the corpus', () => {
  after(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps file versions in <corpus>.blobs, not in the database, and reads every diff back after a reopen', async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    const store = await corpusWithChange(file);
    const written = new Map([1, 2, 3].map((ps) => [ps, diffJson(`v${ps}`, 2000)]));
    for (const [ps, json] of written) put(store, ps, json);
    store.save();
    store.close();
    const reopened = await CorpusStore.open(file);
    assert.deepEqual(diffsOf(reopened), written);
    const inDatabase = Number(reopened.scalar('SELECT coalesce(sum(length(bytes)), 0) FROM blobs'));
    const inPack = Number(reopened.scalar('SELECT sum(pack_length) FROM blobs'));
    reopened.close();
    assert.equal(inDatabase, 0, 'no version bytes inside the database');
    assert.ok(inPack > 10_000, `the pack holds them: ${inPack} bytes`);
    assert.ok(statSync(blobPackPath(file)).size >= inPack);
  });

  it('reads a version appended after the last window it read', async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    const store = await corpusWithChange(file);
    put(store, 1, diffJson('first'));
    assert.equal(diffContentById(store, 1), diffJson('first'));
    put(store, 2, diffJson('second'));
    assert.equal(diffsOf(store).get(2), diffJson('second'));
    store.close();
  });

  it("appends after another writer's bytes, never over them, though it appended before", async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    const first = await corpusWithChange(file);
    put(first, 1, diffJson('first'));
    first.save({ full: true });
    // Another writer in turn (under the writer lock, as a fetch after the saver) appends and saves.
    const other = await CorpusStore.open(file);
    put(other, 2, diffJson('other'));
    other.save({ full: true });
    other.close();
    const end = statSync(blobPackPath(file)).size;
    put(first, 3, diffJson('third'));
    const offsets = first.all<{ o: number }>(
      'SELECT pack_offset AS o FROM blobs b JOIN diffs d ON b.sha256 IN (d.a_sha256, d.b_sha256) WHERE d.ps_base = 3',
    );
    first.close();
    assert.ok(
      offsets.length > 0 && offsets.every((r) => Number(r.o) >= end),
      `after ${end}: ${JSON.stringify(offsets)}`,
    );
    const reopened = await CorpusStore.open(file);
    assert.equal(diffsOf(reopened).get(2), diffJson('other'), "the other writer's versions read back");
    reopened.close();
  });

  it('names a missing pack in one line', async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    const store = await corpusWithChange(file);
    put(store, 1, diffJson('a'));
    store.save();
    store.close();
    rmSync(blobPackPath(file));
    assert.match(await openFails(file), /missing: corpus\.sqlite keeps its file versions there/);
  });

  it("names another corpus's pack in one line", async () => {
    const [one, two] = [path.join(tempDir(), 'corpus.sqlite'), path.join(tempDir(), 'corpus.sqlite')];
    for (const file of [one, two]) {
      const store = await corpusWithChange(file);
      put(store, 1, diffJson('a'));
      store.save();
      store.close();
    }
    copyFileSync(blobPackPath(two), blobPackPath(one));
    assert.match(await openFails(one), /belongs to another corpus/);
  });

  it('names a cut pack in one line', async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    const store = await corpusWithChange(file);
    put(store, 1, diffJson('a'));
    store.save();
    store.close();
    truncateSync(blobPackPath(file), statSync(blobPackPath(file)).size - 10);
    assert.match(await openFails(file), /truncated: \d+ bytes, and corpus\.sqlite refers to \d+/);
  });

  it('names a damaged blob row in one line instead of allocating or reading what it says', async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    const store = await corpusWithChange(file);
    put(store, 1, diffJson('a'));
    store.save();
    store.close();
    const cases: [string, RegExp][] = [
      ['pack_length = 1099511627776', /corpus\.sqlite\.blobs: truncated: no 1099511627776 bytes at offset \d+/],
      ['pack_offset = 3', /corpus\.sqlite: damaged: a blob at offset 3, \d+ bytes, in .*corpus\.sqlite\.blobs$/],
      ['pack_offset = -5', /corpus\.sqlite: damaged: a blob at offset -5/],
      ['pack_length = 2.5', /corpus\.sqlite: damaged: a blob at offset \d+, 2\.5 bytes/],
    ];
    for (const [damage, expected] of cases) {
      const opened = await CorpusStore.open(file);
      opened.run(`UPDATE blobs SET ${damage} WHERE codec = 'br5'`);
      const e = (() => {
        try {
          diffContentById(opened, 1);
        } catch (err) {
          return err;
        }
      })();
      opened.close();
      assert.ok(e instanceof CorpusFileError, `${damage}: a CorpusFileError, not ${String(e)}`);
      assert.match(e.message, expected, damage);
      assert.ok(!e.message.includes('\n'));
    }
  });

  it('a scratch copy in memory reads the pack and never writes beside the corpus', async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    const store = await corpusWithChange(file);
    put(store, 1, diffJson('a'));
    store.save();
    store.close();
    const pack = readFileSync(blobPackPath(file));
    const scratch = await CorpusStore.fromBytes(file, readFileSync(file));
    put(scratch, 2, diffJson('b'));
    assert.deepEqual(
      diffsOf(scratch),
      new Map([
        [1, diffJson('a')],
        [2, diffJson('b')],
      ]),
    );
    assert.equal(
      Number(scratch.scalar('SELECT count(*) FROM blobs WHERE pack_offset IS NULL')),
      2,
      "the copy's new versions stay in it",
    );
    scratch.close();
    assert.deepEqual(readFileSync(blobPackPath(file)), pack, 'the pack is as it was');
  });

  describe('a writer killed (kill -9) between its appends to the pack and its save', () => {
    let script: string;
    before(() => {
      // Opens the corpus, stores the diff of patch set argv[3], then dies after making the pack's bytes
      // durable (the last step before the database's save) or saves.
      script = bundleChildScript(
        tempDir(),
        'append',
        `import { CorpusStore } from './src/core/ground/store/corpusStore';
        import { writeDiff } from './src/core/ground/store/diffText';
        CorpusStore.open(process.argv[2]).then((s) => {
          const content = JSON.stringify({ content: [{ ab: Array.from({ length: 500 }, (_, i) => 'line ' + i + ' of ' + process.argv[3]) }, { a: ['x'], b: ['y'] }] });
          writeDiff(s, { changeId: 1, path: 'src/x.c', base: Number(process.argv[3]), content, error: null, targetPath: null });
          if (process.argv[4] === 'kill') { s.blobPack.sync(); process.kill(process.pid, 'SIGKILL'); }
          s.save();
          s.close();
        });`,
      );
    });
    const childDiff = (ps: number) =>
      JSON.stringify({
        content: [{ ab: Array.from({ length: 500 }, (_, i) => `line ${i} of ${ps}`) }, { a: ['x'], b: ['y'] }],
      });
    const child = (file: string, ps: number, mode: 'kill' | 'save') => {
      const r = spawnSync(process.execPath, [script, file, String(ps), mode], { encoding: 'utf8' });
      if (mode === 'kill') assert.equal(r.signal, 'SIGKILL', r.stderr);
      else assert.equal(r.status, 0, r.stderr);
    };

    it('leaves the corpus as saved, and the next writer appends after the bytes no row refers to', async () => {
      const file = path.join(tempDir(), 'corpus.sqlite');
      const store = await corpusWithChange(file);
      put(store, 1, diffJson('saved'));
      store.save();
      store.close();
      const database = readFileSync(file);
      const packBefore = statSync(blobPackPath(file)).size;
      child(file, 2, 'kill');
      assert.deepEqual(readFileSync(file), database, 'the database as saved');
      const packAfterKill = statSync(blobPackPath(file)).size;
      assert.ok(packAfterKill > packBefore, 'the killed writer had appended');
      const opened = await CorpusStore.open(file);
      assert.deepEqual(diffsOf(opened), new Map([[1, diffJson('saved')]]), 'what was saved, and nothing else');
      opened.close();
      child(file, 3, 'save');
      const reopened = await CorpusStore.open(file);
      assert.deepEqual(
        diffsOf(reopened),
        new Map([
          [1, diffJson('saved')],
          [3, childDiff(3)],
        ]),
      );
      assert.ok(
        Number(
          reopened.scalar(
            'SELECT min(pack_offset) FROM blobs b JOIN diffs d ON d.a_sha256 = b.sha256 WHERE d.ps_base = 3',
          ),
        ) >= packAfterKill,
        "after the killed writer's bytes, never over them",
      );
      reopened.close();
    });

    it('while it created the pack of a corpus that had none: the corpus opens, and the next writer starts a new pack', async () => {
      const file = path.join(tempDir(), 'corpus.sqlite');
      const store = await corpusWithChange(file);
      store.save();
      store.close();
      child(file, 1, 'kill');
      assert.ok(existsSync(blobPackPath(file)), 'the killed writer had created it');
      const opened = await CorpusStore.open(file);
      assert.equal(Number(opened.scalar('SELECT count(*) FROM diffs')), 0);
      opened.close();
      child(file, 2, 'save');
      const reopened = await CorpusStore.open(file);
      assert.deepEqual(diffsOf(reopened), new Map([[2, childDiff(2)]]));
      reopened.close();
    });
  });

  it('a corpus written at schema 10 reads its blobs where they are, adds new ones to the pack, and builds the same corpus', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'corpus.sqlite');
    copyFileSync(SCHEMA10, file);
    const control = path.join(tempDir(), 'corpus.sqlite');
    copyFileSync(SCHEMA4, control);
    const old = await CorpusStore.open(control);
    const store = await CorpusStore.open(file);
    assert.equal(Number(store.scalar('SELECT count(*) FROM blobs WHERE pack_offset IS NOT NULL')), 0);
    assert.deepEqual(diffsOf(store), diffsOf(old), 'every diff reads back as the schema-4 original holds it');
    const changeId = Number(store.scalar('SELECT min(id) FROM changes'));
    writeDiff(store, {
      changeId,
      path: 'new/file.c',
      base: 1,
      content: diffJson('new'),
      error: null,
      targetPath: null,
    });
    store.save({ full: true });
    store.close();
    const reopened = await CorpusStore.open(file);
    assert.equal(
      Number(reopened.scalar('SELECT count(*) FROM blobs WHERE pack_offset IS NOT NULL')),
      2,
      'the new versions are in the pack',
    );
    const added = Number(reopened.scalar("SELECT id FROM diffs WHERE path = 'new/file.c'"));
    assert.equal(diffContentById(reopened, added), diffJson('new'));
    reopened.run("DELETE FROM diffs WHERE path = 'new/file.c'");
    const [built, control4] = [await runBuild(reopened), await runBuild(old)];
    assert.ok(built.kept > 0);
    assert.equal(built.corpusHash, control4.corpusHash, 'the same corpus as the schema-4 file builds');
    reopened.close();
    old.close();
  });
});
