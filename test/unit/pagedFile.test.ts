// A corpus opened `paged` (src/core/store/pagedFile.ts): read from its file page by page, written in
// memory only. Real sql.js over real files on disk; another writer replaces or cuts the file under it.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CorpusStore } from '../../src/core/store/corpusStore';
import { CorpusFileError } from '../../src/core/store/errors';
import { journalPath } from '../../src/core/store/journal';
import { latestSchemaVersion } from '../../src/core/store/schema';
import { canonicalDump } from './support/canonicalDump';

const SCHEMA10 = path.resolve('test/fixtures/schema10-sample/corpus.sqlite');

function tempFile(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'rc-paged-')), 'corpus.sqlite');
}

/** A saved corpus of about `megabytes` MB (filler rows in meta), with one host. */
async function corpusOf(megabytes: number): Promise<string> {
  const file = tempFile();
  const store = await CorpusStore.create(file);
  store.transaction(() => {
    store.run("INSERT INTO hosts(org, url) VALUES ('base', 'https://review.example')");
    for (let i = 0; i < megabytes * 1000; i++)
      store.run('INSERT INTO meta(key, value) VALUES (?, ?)', [`filler-${i}`, `${i}:`.padEnd(1000, 'x')]);
  });
  store.save();
  store.close();
  return file;
}

const orgs = (store: CorpusStore) => store.all<{ org: string }>('SELECT org FROM hosts ORDER BY id').map((r) => r.org);
const fillerCount = (store: CorpusStore) => Number(store.scalar("SELECT count(*) FROM meta WHERE key LIKE 'filler-%'"));

/** Everything a reader of the built sample sees: the raw records and the build's examples and decisions. */
function everything(store: CorpusStore): string {
  return [
    canonicalDump(store),
    JSON.stringify(store.all('SELECT * FROM examples ORDER BY id')),
    JSON.stringify(store.all('SELECT * FROM decisions ORDER BY build_id, unit, unit_key')),
  ].join('\n');
}

describe('paged corpus store', () => {
  it('reads what the whole file holds, without holding the file in memory', async () => {
    const sample = tempFile();
    copyFileSync(SCHEMA10, sample);
    const whole = await CorpusStore.open(sample);
    const paged = await CorpusStore.open(sample, { paged: true });
    assert.ok(Number(paged.scalar('SELECT count(*) FROM examples')) > 0, 'the sample is built');
    assert.equal(everything(paged), everything(whole));
    whole.close();
    paged.close();

    const big = await corpusOf(40);
    const size = statSync(big).size;
    const before = process.memoryUsage().arrayBuffers;
    const store = await CorpusStore.open(big, { paged: true });
    const held = process.memoryUsage().arrayBuffers - before;
    assert.equal(fillerCount(store), 40_000, 'a scan of every page');
    assert.ok(held < size / 10, `open holds ${held} bytes of the ${size}-byte file`);
    store.close();
  });

  it('keeps edits in memory: queries see them, the file and its journal stay as they were', async () => {
    const file = await corpusOf(2);
    const bytes = readFileSync(file);
    const store = await CorpusStore.open(file, { paged: true });
    store.transaction(() => {
      store.run("INSERT INTO hosts(org, url) VALUES ('one', 'https://one.example')");
      store.run("DELETE FROM meta WHERE key = 'filler-7'");
    });
    assert.deepEqual(orgs(store), ['base', 'one']);
    assert.equal(fillerCount(store), 1999);
    assert.deepEqual(readFileSync(file), bytes);
    store.close();
    const again = await CorpusStore.open(file, { paged: true });
    assert.deepEqual(orgs(again), ['base'], 'nothing reached the disk');
    again.close();
  });

  it('rolls back a transaction larger than its page cache and goes on (SQLite never truncates the file)', async () => {
    const file = await corpusOf(2);
    const store = await CorpusStore.open(file, { paged: true });
    store.db.exec('PRAGMA cache_size = 8'); // so the transaction below cannot fit in the cache
    assert.throws(
      () =>
        store.transaction(() => {
          for (let i = 0; i < 3000; i++)
            store.run('INSERT INTO meta(key, value) VALUES (?, ?)', [`more-${i}`, 'y'.repeat(1000)]);
          throw new Error('given up');
        }),
      /given up/,
    );
    assert.equal(Number(store.scalar("SELECT count(*) FROM meta WHERE key LIKE 'more-%'")), 0);
    store.run("INSERT INTO hosts(org, url) VALUES ('after', 'https://after.example')");
    assert.deepEqual(orgs(store), ['base', 'after']);
    assert.equal(fillerCount(store), 2000);
    store.close();
  });

  it('saves whole: the file then holds its edits and reopens', async () => {
    const file = await corpusOf(2);
    const store = await CorpusStore.open(file, { paged: true });
    store.run("INSERT INTO hosts(org, url) VALUES ('one', 'https://one.example')");
    assert.equal(store.save(), 'full');
    store.run("INSERT INTO hosts(org, url) VALUES ('two', 'https://two.example')");
    assert.equal(store.save(), 'full');
    store.close();
    const whole = await CorpusStore.open(file);
    assert.deepEqual(orgs(whole), ['base', 'one', 'two']);
    assert.equal(fillerCount(whole), 2000);
    whole.close();
  });

  it('goes on reading the file it opened while another writer replaces it', async () => {
    const file = await corpusOf(4);
    const paged = await CorpusStore.open(file, { paged: true });
    assert.deepEqual(orgs(paged), ['base']);
    const writer = await CorpusStore.open(file);
    writer.transaction(() => {
      writer.run("INSERT INTO hosts(org, url) VALUES ('new', 'https://new.example')");
      writer.run("DELETE FROM meta WHERE key LIKE 'filler-1%'");
    });
    writer.save({ full: true }); // temp file and rename: a new file under the same name
    writer.close();
    assert.deepEqual(orgs(paged), ['base'], 'the paged store reads the file as it opened it');
    assert.equal(fillerCount(paged), 4000);
    paged.close();
    const reopened = await CorpusStore.open(file, { paged: true });
    assert.deepEqual(orgs(reopened), ['base', 'new']);
    reopened.close();
  });

  it('replays the journal in memory', async () => {
    const file = await corpusOf(2);
    const writer = await CorpusStore.open(file, { reserveBytes: 8 << 20 });
    writer.run("INSERT INTO hosts(org, url) VALUES ('journaled', 'https://j.example')");
    assert.equal(writer.save(), 'journal');
    writer.close();
    const [bytes, journal] = [readFileSync(file), readFileSync(journalPath(file))];
    const paged = await CorpusStore.open(file, { paged: true });
    assert.deepEqual(orgs(paged), ['base', 'journaled']);
    assert.equal(fillerCount(paged), 2000);
    paged.close();
    assert.deepEqual(readFileSync(file), bytes);
    assert.deepEqual(readFileSync(journalPath(file)), journal);
  });

  it('migrates an older corpus in memory, leaving its file as it was', async () => {
    const file = tempFile();
    copyFileSync(SCHEMA10, file);
    const bytes = readFileSync(file);
    const store = await CorpusStore.open(file, { paged: true });
    assert.equal(store.schemaVersion, latestSchemaVersion());
    store.close();
    assert.deepEqual(readFileSync(file), bytes);
  });

  it('a file cut short under it: one line naming the file, for that query and every later one', async () => {
    const file = await corpusOf(8);
    const store = await CorpusStore.open(file, { paged: true });
    assert.deepEqual(orgs(store), ['base']);
    truncateSync(file, 64 * 1024); // written in place, as a copy over the file would be
    for (let i = 0; i < 2; i++) {
      assert.throws(
        () => fillerCount(store),
        (e: unknown) =>
          e instanceof CorpusFileError &&
          e.message.startsWith(`${file}: could not read it: the file ends at`) &&
          !e.message.includes('\n'),
      );
    }
    store.close();
  });

  it('refuses what is not a corpus with the same one line as a whole open', async () => {
    const dir = path.dirname(tempFile());
    const cases: [string, string][] = [
      ['empty.sqlite', ''],
      ['text.sqlite', 'not a database at all, but long enough to have a header of a hundred bytes '.repeat(3)],
    ];
    for (const [name, text] of cases) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      const whole = await CorpusStore.open(file).then(
        () => 'opened',
        (e: Error) => e.message,
      );
      const paged = await CorpusStore.open(file, { paged: true }).then(
        () => 'opened',
        (e: Error) => e.message,
      );
      assert.match(paged, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (empty file|not a SQLite)`));
      assert.equal(paged, whole);
    }
  });
});
