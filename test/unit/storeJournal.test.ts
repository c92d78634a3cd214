// The side journal (src/core/ground/store/journal.ts): saves that append the pages written instead of
// rewriting the file, replayed at open, folded by a full save. Real files on disk, real processes
// killed with SIGKILL mid-append and mid-fold.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { MIGRATIONS } from '../../src/core/ground/store/schema';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { journalPath } from '../../src/core/ground/store/journal';
import { loadSqlJs } from '../../src/core/ground/store/sqljs';
import type { CorpusEdit } from '../../src/core/jobs/edits';
import { inThreadSaver } from './support/editSaver';

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'rc-journal-'));
}

const RESERVE = 8 << 20;

/** A saved corpus with one host, reopened as a writer does (with room to grow in place). */
async function savedCorpus(): Promise<{ file: string; store: CorpusStore }> {
  const file = path.join(tempDir(), 'corpus.sqlite');
  const created = await CorpusStore.create(file);
  created.run("INSERT INTO hosts(org, url) VALUES ('base', 'https://review.example')");
  created.save();
  created.close();
  return { file, store: await CorpusStore.open(file, { reserveBytes: RESERVE }) };
}

function addHost(store: CorpusStore, org: string): void {
  store.run('INSERT INTO hosts(org, url) VALUES (?, ?)', [org, `https://${org}.example`]);
}

const orgs = (store: CorpusStore) => store.all<{ org: string }>('SELECT org FROM hosts ORDER BY id').map((r) => r.org);

/** What a reader that ignores the journal sees: the file alone, opened by plain sql.js. */
async function orgsInFileAlone(file: string): Promise<string[]> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    return (db.exec('SELECT org FROM hosts ORDER BY id')[0]?.values ?? []).map((r) => String(r[0]));
  } finally {
    db.close();
  }
}

describe('corpus journal', () => {
  it('appends a small save to the journal, leaves the file as saved, and replays it at open', async () => {
    const { file, store } = await savedCorpus();
    const before = readFileSync(file);
    addHost(store, 'one');
    assert.equal(store.save(), 'journal');
    addHost(store, 'two');
    assert.equal(store.save(), 'journal');
    store.close();
    assert.deepEqual(readFileSync(file), before, 'the corpus file is not rewritten');
    assert.ok(existsSync(journalPath(file)));
    assert.deepEqual(await orgsInFileAlone(file), ['base'], 'a reader ignoring the journal sees the last full save');
    const reopened = await CorpusStore.open(file);
    assert.deepEqual(orgs(reopened), ['base', 'one', 'two']);
    reopened.close();
  });

  it('writes only the pages changed: a save on a larger file appends far less than the file', async () => {
    const { file, store } = await savedCorpus();
    store.transaction(() => {
      for (let i = 0; i < 2000; i++)
        store.run('INSERT INTO meta(key, value) VALUES (?, ?)', [`filler-${i}`, 'x'.repeat(1000)]);
    });
    store.save({ full: true });
    const fileBytes = statSync(file).size;
    addHost(store, 'one');
    assert.equal(store.save(), 'journal');
    store.close();
    const journalBytes = statSync(journalPath(file)).size;
    assert.ok(fileBytes > 2_000_000, `the file holds ${fileBytes} bytes`);
    assert.ok(
      journalBytes < 64 * 1024,
      `one host added costs ${journalBytes} journal bytes, not the file's ${fileBytes}`,
    );
  });

  it('replays inserts, updates, deletes and overflow pages over many saves to the same rows, intact', async () => {
    const { file, store } = await savedCorpus();
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let save = 0; save < 12; save++) {
      store.transaction(() => {
        for (let i = 0; i < 60; i++) {
          const key = `k${next() % 150}`;
          const op = next() % 3;
          if (op === 2) store.run('DELETE FROM meta WHERE key = ?', [key]);
          else store.setMeta(key, String(next()).repeat(1 + (next() % (op === 0 ? 3000 : 20)))); // some span overflow pages
        }
      });
      assert.equal(store.save(), 'journal');
    }
    const expected = store.all('SELECT key, value FROM meta ORDER BY key');
    store.close();
    const reopened = await CorpusStore.open(file);
    assert.equal(reopened.scalar('PRAGMA integrity_check'), 'ok');
    assert.deepEqual(reopened.all('SELECT key, value FROM meta ORDER BY key'), expected);
    reopened.close();
  });

  it('folds the journal into the file at a full save and removes it', async () => {
    const { file, store } = await savedCorpus();
    addHost(store, 'one');
    store.save();
    addHost(store, 'two');
    assert.equal(store.save({ full: true }), 'full');
    assert.equal(existsSync(journalPath(file)), false);
    assert.deepEqual(await orgsInFileAlone(file), ['base', 'one', 'two']);
    addHost(store, 'three');
    assert.equal(store.save(), 'journal', 'journalling goes on after the fold');
    store.close();
    const reopened = await CorpusStore.open(file);
    assert.deepEqual(orgs(reopened), ['base', 'one', 'two', 'three']);
    reopened.close();
  });

  it('keeps journalling across reopen: replayed state plus new records', async () => {
    const { file, store } = await savedCorpus();
    addHost(store, 'one');
    store.save();
    store.close();
    const again = await CorpusStore.open(file, { reserveBytes: RESERVE });
    addHost(again, 'two');
    assert.equal(again.save(), 'journal');
    again.close();
    const reopened = await CorpusStore.open(file);
    assert.deepEqual(orgs(reopened), ['base', 'one', 'two']);
    reopened.close();
  });

  it('drops a torn tail with a one-line notice and appends after the last whole record', async () => {
    const { file, store } = await savedCorpus();
    addHost(store, 'one');
    store.save();
    const whole = statSync(journalPath(file)).size;
    addHost(store, 'two');
    store.save();
    store.close();
    truncateSync(journalPath(file), whole + Math.floor((statSync(journalPath(file)).size - whole) / 2));
    const notices: string[] = [];
    const reopened = await CorpusStore.open(file, { reserveBytes: RESERVE, onNotice: (m) => notices.push(m) });
    assert.deepEqual(orgs(reopened), ['base', 'one'], 'the torn record is dropped whole');
    assert.equal(notices.length, 1);
    assert.match(notices[0], /dropped a torn tail of \d+ bytes after 1 whole record/);
    assert.ok(!notices[0].includes('\n'));
    addHost(reopened, 'three');
    assert.equal(reopened.save(), 'journal');
    reopened.close();
    const last = await CorpusStore.open(file, { onNotice: (m) => notices.push(m) });
    assert.deepEqual(orgs(last), ['base', 'one', 'three']);
    assert.equal(notices.length, 1, 'the tail was overwritten: no second notice');
    last.close();
  });

  it('ignores a stale journal (a fold killed after its rename) with a notice', async () => {
    const { file, store } = await savedCorpus();
    addHost(store, 'one');
    store.save();
    const stale = readFileSync(journalPath(file));
    store.save({ full: true });
    store.close();
    writeFileSync(journalPath(file), stale); // as if the removal after the rename never ran
    const notices: string[] = [];
    const reopened = await CorpusStore.open(file, { reserveBytes: RESERVE, onNotice: (m) => notices.push(m) });
    assert.deepEqual(orgs(reopened), ['base', 'one']);
    assert.match(notices.join('\n'), /its base is not .*ignored/);
    addHost(reopened, 'two');
    assert.equal(reopened.save(), 'journal', 'a new journal replaces the stale one');
    reopened.close();
    const last = await CorpusStore.open(file);
    assert.deepEqual(orgs(last), ['base', 'one', 'two']);
    last.close();
  });

  it('saves in full a store opened without room to grow once the file moves', async () => {
    const { file, store: withRoom } = await savedCorpus();
    withRoom.close();
    const store = await CorpusStore.open(file); // no reserve: the first new page moves the in-memory file
    store.transaction(() => {
      for (let i = 0; i < 200; i++)
        store.run('INSERT INTO meta(key, value) VALUES (?, ?)', [`filler-${i}`, 'x'.repeat(1000)]);
    });
    assert.equal(store.save(), 'full');
    store.close();
    assert.equal(existsSync(journalPath(file)), false);
  });

  it('migrates a schema-4 corpus (no journal) at open; the migration is journalled, then folded', async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    copyFileSync(path.resolve('test/fixtures/schema4-sample/corpus.sqlite'), file);
    const old = readFileSync(file);
    const store = await CorpusStore.open(file, { reserveBytes: RESERVE });
    const diffs = store.all('SELECT id, change_id, path, ps_base FROM diffs ORDER BY id');
    assert.equal(store.schemaVersion, MIGRATIONS.length);
    store.save();
    store.close();
    const replayed = await CorpusStore.open(file, { reserveBytes: RESERVE });
    assert.equal(replayed.schemaVersion, MIGRATIONS.length, 'the migration replays from the journal');
    assert.deepEqual(replayed.all('SELECT id, change_id, path, ps_base FROM diffs ORDER BY id'), diffs);
    if (existsSync(journalPath(file)))
      assert.deepEqual(readFileSync(file), old, 'a journalled save leaves the file as it was');
    assert.equal(replayed.save({ full: true }), 'full');
    replayed.close();
    const SQL = await loadSqlJs();
    const plain = new SQL.Database(readFileSync(file));
    assert.equal(
      String(plain.exec("SELECT value FROM meta WHERE key = 'schema_version'")[0].values[0][0]),
      String(MIGRATIONS.length),
    );
    plain.close();
  });

  it('opens a file without a journal exactly as before', async () => {
    const { file, store } = await savedCorpus();
    store.close();
    const before = readFileSync(file);
    const notices: string[] = [];
    const reopened = await CorpusStore.open(file, { onNotice: (m) => notices.push(m) });
    assert.deepEqual(orgs(reopened), ['base']);
    reopened.close();
    assert.deepEqual(notices, []);
    assert.deepEqual(readFileSync(file), before);
    assert.equal(existsSync(journalPath(file)), false, 'opening writes no journal');
  });
});

const label = (rater: string): CorpusEdit => ({
  kind: 'label',
  exampleKey: 'o/1/1/10/a.py',
  rater,
  label: 'answers',
  at: '2026-12-02T10:00:00.000Z',
});
const raters = (store: CorpusStore) =>
  store.all<{ rater: string }>('SELECT rater FROM labels ORDER BY rater').map((r) => r.rater);

describe('corpus journal: the extension saver path (serveEdits)', () => {
  it('replays the journal it finds, saves a label decision as a journal append, and sees later appends of another writer', async () => {
    const { file, store } = await savedCorpus();
    addHost(store, 'one');
    assert.equal(store.save(), 'journal');
    store.close();
    const fileBytes = readFileSync(file);
    const s = inThreadSaver(file);
    s.send({ seq: 1, edits: [label('rater-1')] });
    assert.deepEqual(await s.reply(1), { type: 'saved', seq: 1 });
    assert.deepEqual(readFileSync(file), fileBytes, 'the label went to the journal, not a rewrite of the file');
    // Another writer (in turn, under the lock in real life) appends to the same journal.
    const other = await CorpusStore.open(file, { reserveBytes: RESERVE });
    assert.deepEqual(raters(other), ['rater-1']);
    addHost(other, 'two');
    assert.equal(other.save(), 'journal');
    other.close();
    s.send({ seq: 2, edits: [label('rater-2')] });
    assert.deepEqual(await s.reply(2), { type: 'saved', seq: 2 });
    const last = await CorpusStore.open(file);
    assert.deepEqual(orgs(last), ['base', 'one', 'two'], "the other writer's append is kept");
    assert.deepEqual(raters(last), ['rater-1', 'rater-2']);
    last.close();
  });
});
