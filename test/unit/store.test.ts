import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { CorpusFileError } from '../../src/core/ground/store/errors';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/core/ground/store/schema';
import { loadSqlJs } from '../../src/core/ground/store/sqljs';

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'rc-store-'));
}

async function expectOpenError(file: string, pattern: RegExp): Promise<void> {
  const before = readFileSync(file);
  const mtime = statSync(file).mtimeMs;
  await assert.rejects(CorpusStore.open(file), (e: Error) => {
    assert.ok(e instanceof CorpusFileError, `expected CorpusFileError, got ${e.name}`);
    assert.ok(!e.message.includes('\n'), 'the error is one line');
    assert.ok(e.message.startsWith(file), 'the error names the file');
    assert.match(e.message, pattern);
    return true;
  });
  assert.deepEqual(readFileSync(file), before, 'the file is never modified');
  assert.equal(statSync(file).mtimeMs, mtime);
}

describe('corpus store', () => {
  it('creates a corpus at the current schema version and reopens it from disk', async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    const store = await CorpusStore.create(file);
    store.run("INSERT INTO hosts(org, url) VALUES ('openstack', 'https://review.example')");
    store.save();
    store.close();
    const reopened = await CorpusStore.open(file);
    assert.equal(reopened.schemaVersion, SCHEMA_VERSION);
    assert.equal(reopened.scalar('SELECT org FROM hosts'), 'openstack');
    reopened.close();
  });

  /** A corpus file written at schema version 1 (the first migration only), with `rows` run after it. */
  async function versionOneFile(name: string, rows = ''): Promise<string> {
    const file = path.join(tempDir(), name);
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.exec(MIGRATIONS[0]);
    db.exec(`INSERT INTO meta VALUES ('format', 'review-corpus'), ('schema_version', '1'); ${rows}`);
    writeFileSync(file, db.export());
    db.close();
    return file;
  }

  it('migrates a version-1 corpus to version 2: comment decisions are found by key, so decisions_unit goes', async () => {
    const store = await CorpusStore.open(await versionOneFile('v1.sqlite'));
    assert.ok(store.schemaVersion >= 2);
    assert.equal(store.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'decisions_unit'"), 0);
    assert.equal(
      store.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'decisions_group'"),
      1,
      "the tree's index stays",
    );
    store.close();
  });

  it('migrates a corpus written at an older schema version forward', async () => {
    // A version-1 file, then one more migration than the tool has.
    const file = await versionOneFile(
      'old.sqlite',
      "INSERT INTO hosts(org, url) VALUES ('qt', 'https://codereview.example');",
    );
    (MIGRATIONS as string[]).push('ALTER TABLE hosts ADD COLUMN note TEXT;');
    try {
      const store = await CorpusStore.open(file);
      assert.equal(store.schemaVersion, MIGRATIONS.length);
      assert.equal(store.scalar('SELECT org FROM hosts'), 'qt', 'existing rows survive the migration');
      assert.equal(store.scalar("SELECT count(*) FROM pragma_table_info('hosts') WHERE name = 'note'"), 1);
      store.close();
    } finally {
      (MIGRATIONS as string[]).pop();
    }
  });

  it('rolls back a bulk write that fails part-way', async () => {
    const store = await CorpusStore.create(path.join(tempDir(), 'c.sqlite'));
    assert.throws(() =>
      store.transaction(() => {
        for (let i = 0; i < 100; i++) store.run('INSERT INTO hosts(org, url) VALUES (?, ?)', [`org${i}`, 'u']);
        store.run('INSERT INTO hosts(org, url) VALUES (?, ?)', ['org5', 'u']); // UNIQUE violation
      }),
    );
    assert.equal(store.scalar('SELECT count(*) FROM hosts'), 0);
    store.close();
  });

  describe('atomic save', () => {
    it('leaves the old file whole when the write fails between writing and renaming', async () => {
      const dir = tempDir();
      const file = path.join(dir, 'corpus.sqlite');
      const store = await CorpusStore.create(file);
      store.run("INSERT INTO hosts(org, url) VALUES ('old', 'u')");
      store.save();
      const oldBytes = readFileSync(file);
      store.run("INSERT INTO hosts(org, url) VALUES ('new', 'u')");
      let tempSeen = '';
      assert.throws(
        () =>
          store.save({
            beforeRename: (temp) => {
              tempSeen = temp;
              throw new Error('simulated crash');
            },
          }),
        /simulated crash/,
      );
      assert.ok(tempSeen.startsWith(dir), 'the temporary file is in the same folder');
      assert.deepEqual(readFileSync(file), oldBytes, 'the old file is untouched');
      assert.deepEqual(readdirSync(dir), ['corpus.sqlite'], 'no temporary file is left behind');
      const reopened = await CorpusStore.open(file);
      assert.deepEqual(
        reopened.all('SELECT org FROM hosts').map((r) => r.org),
        ['old'],
      );
      reopened.close();
      store.save();
      const after = await CorpusStore.open(file);
      assert.deepEqual(
        after.all('SELECT org FROM hosts ORDER BY id').map((r) => r.org),
        ['old', 'new'],
        'the next save lands whole',
      );
      after.close();
      store.close();
    });

    it('leaves the old file whole when a child process dies before the rename', async () => {
      // A real crash: a process is killed with SIGKILL while holding the written temp file.
      const { spawnSync } = await import('node:child_process');
      const dir = tempDir();
      const file = path.join(dir, 'corpus.sqlite');
      const store = await CorpusStore.create(file);
      store.save();
      const oldBytes = readFileSync(file);
      store.close();
      const script = `
        const fs = require('node:fs');
        const fd = fs.openSync(${JSON.stringify(path.join(dir, '.corpus.sqlite.999.tmp'))}, 'wx');
        fs.writeSync(fd, Buffer.alloc(4096, 7)); fs.fsyncSync(fd);
        process.kill(process.pid, 'SIGKILL');`;
      const result = spawnSync(process.execPath, ['-e', script]);
      assert.equal(result.signal, 'SIGKILL');
      assert.deepEqual(readFileSync(file), oldBytes);
      const reopened = await CorpusStore.open(file);
      reopened.close();
    });
  });

  describe('opening files that are not corpora', () => {
    it('rejects an empty file', async () => {
      const file = path.join(tempDir(), 'empty.sqlite');
      writeFileSync(file, '');
      await expectOpenError(file, /empty file/);
    });

    it('rejects random bytes', async () => {
      const file = path.join(tempDir(), 'random.sqlite');
      const bytes = Buffer.alloc(8192);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) & 0xff;
      writeFileSync(file, bytes);
      await expectOpenError(file, /not a SQLite database/);
    });

    it('rejects some other SQLite database', async () => {
      const file = path.join(tempDir(), 'other.sqlite');
      const SQL = await loadSqlJs();
      const db = new SQL.Database();
      db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES ('x')");
      writeFileSync(file, db.export());
      db.close();
      await expectOpenError(file, /not a review corpus/);
    });

    it('rejects a corpus from a newer schema', async () => {
      const file = path.join(tempDir(), 'newer.sqlite');
      const store = await CorpusStore.create(file);
      store.setMeta('schema_version', String(SCHEMA_VERSION + 1));
      store.save();
      store.close();
      await expectOpenError(file, new RegExp(`schema version ${SCHEMA_VERSION + 1} is newer`));
    });

    it('names a missing file', async () => {
      await assert.rejects(
        CorpusStore.open('/nonexistent/corpus.sqlite'),
        /^CorpusFileError: \/nonexistent\/corpus.sqlite: no such file$|\/nonexistent\/corpus.sqlite: no such file/,
      );
    });
  });
});

describe('corpus store with reserved space', () => {
  it('uses the reserved tail for new pages and saves only the database itself', async () => {
    const file = path.join(tempDir(), 'reserve.sqlite');
    const store = await CorpusStore.create(file);
    store.transaction(() => {
      for (let i = 0; i < 200; i++)
        store.run('INSERT INTO hosts(org, url) VALUES (?, ?)', [`org${i}`, 'x'.repeat(500)]);
    });
    store.save();
    store.close();
    const plainSize = readFileSync(file).length;
    const opened = await CorpusStore.open(file, { reserveBytes: 4 << 20 });
    opened.transaction(() => {
      for (let i = 200; i < 400; i++)
        opened.run('INSERT INTO hosts(org, url) VALUES (?, ?)', [`org${i}`, 'y'.repeat(500)]);
    });
    opened.save({ full: true }); // a plain save would go to the journal (store/journal.ts); this is about the whole file
    opened.close();
    const saved = readFileSync(file);
    assert.ok(
      saved.length > plainSize && saved.length < plainSize * 3,
      `saved ${saved.length} bytes, not the 4 MB reserve`,
    );
    const reopened = await CorpusStore.open(file);
    assert.equal(reopened.scalar('SELECT count(*) FROM hosts'), 400);
    assert.equal(reopened.scalar('PRAGMA integrity_check'), 'ok');
    reopened.close();
  });
});

describe('opening a large corpus', () => {
  it('keeps the event loop turning while the file is read, and reads every byte', async () => {
    const file = path.join(tempDir(), 'large.sqlite');
    const store = await CorpusStore.create(file);
    const pad = 'z'.repeat(50 << 20); // the file spans several read chunks (16 MB each)
    store.setMeta('pad', pad);
    store.save();
    store.close();
    let turns = 0;
    const turn = () => {
      turns++;
      timer = setImmediate(turn);
    };
    let timer = setImmediate(turn);
    const opened = await CorpusStore.open(file, { reserveBytes: 1 << 20 });
    clearImmediate(timer);
    try {
      // One synchronous read of the whole file would let no immediate run before open resolves.
      assert.ok(turns >= 3, `the event loop turned ${turns} times while 50 MB were read`);
      assert.equal(opened.getMeta('pad'), pad);
      assert.equal(opened.scalar('PRAGMA integrity_check'), 'ok');
    } finally {
      opened.close();
    }
  });
});

describe('saving from the live in-memory file', () => {
  async function storeWithHosts(rows: number): Promise<string> {
    const file = path.join(tempDir(), 'live.sqlite');
    const store = await CorpusStore.create(file);
    store.transaction(() => {
      for (let i = 0; i < rows; i++)
        store.run('INSERT INTO hosts(org, url) VALUES (?, ?)', [`org${i}`, 'x'.repeat(500)]);
    });
    store.save();
    store.close();
    return file;
  }

  /**
   * sql.js's own copy of the database (the path export() took before), as a Buffer to compare.
   * sql.js copies through SQLite's backup API, which restarts the file change counter (header bytes
   * 24-27, repeated at 92-95); those are set to ours, every other byte must match.
   */
  function sqlJsExport(store: CorpusStore, ours: Uint8Array): Buffer {
    const size = Number(store.scalar('PRAGMA page_count')) * Number(store.scalar('PRAGMA page_size'));
    // sql.js's own export, which the store's export() avoids; only this test asks for it.
    const db = (store as unknown as { db: { export(): Uint8Array } }).db;
    const copy = Buffer.from(db.export().subarray(0, size));
    copy.set(ours.subarray(24, 28), 24);
    copy.set(ours.subarray(92, 96), 92);
    return copy;
  }

  for (const reserveBytes of [0, 4 << 20]) {
    it(`saves what sql.js would export after edits in place (reserve ${reserveBytes})`, async () => {
      const file = await storeWithHosts(50);
      const store = await CorpusStore.open(file, { reserveBytes });
      store.run("UPDATE hosts SET url = 'edited' WHERE org = 'org30'");
      store.transaction(() => {
        for (let i = 0; i < 20; i++) store.run('DELETE FROM hosts WHERE org = ?', [`org${i}`]);
      });
      const live = store.export();
      assert.equal(
        live.buffer,
        (store as unknown as { image: Buffer }).image.buffer,
        'a view of the live file, not a copy',
      );
      assert.ok(Buffer.from(live).equals(sqlJsExport(store, live)), 'the same bytes as sql.js exports');
      store.save();
      store.close();
      const reopened = await CorpusStore.open(file);
      assert.equal(reopened.scalar('SELECT count(*) FROM hosts'), 30);
      assert.equal(reopened.scalar("SELECT url FROM hosts WHERE org = 'org30'"), 'edited');
      assert.equal(reopened.scalar('PRAGMA integrity_check'), 'ok');
      reopened.close();
    });
  }

  it('falls back to sql.js once the database outgrows the buffer it was opened in', async () => {
    const file = await storeWithHosts(10);
    const store = await CorpusStore.open(file); // no reserve: the first new page moves the file
    store.transaction(() => {
      for (let i = 10; i < 2000; i++)
        store.run('INSERT INTO hosts(org, url) VALUES (?, ?)', [`org${i}`, 'z'.repeat(500)]);
    });
    const bytes = store.export();
    assert.notEqual(bytes.buffer, (store as unknown as { image: Buffer }).image.buffer);
    assert.ok(Buffer.from(bytes).equals(sqlJsExport(store, bytes)), 'the same bytes as sql.js exports');
    store.save();
    store.close();
    const reopened = await CorpusStore.open(file);
    assert.equal(reopened.scalar('SELECT count(*) FROM hosts'), 2000);
    reopened.close();
  });

  for (const reserveBytes of [0, 4 << 20]) {
    it(`saves the edits made after a rolled-back write (reserve ${reserveBytes})`, async () => {
      // A rollback of pages already written (more than the page cache holds) truncates sql.js's file to
      // the old size, which moves it to a new array: the buffer it was opened in stops being the
      // database, with the same page count in its header.
      const file = await storeWithHosts(20);
      const store = await CorpusStore.open(file, { reserveBytes });
      assert.throws(
        () =>
          store.transaction(() => {
            for (let i = 100; i < 12100; i++)
              store.run('INSERT INTO hosts(org, url) VALUES (?, ?)', [`org${i}`, 'w'.repeat(500)]);
            throw new Error('abandoned');
          }),
        /abandoned/,
      );
      store.run("UPDATE hosts SET url = 'after the rollback' WHERE org = 'org3'");
      const bytes = store.export();
      assert.ok(Buffer.from(bytes).equals(sqlJsExport(store, bytes)), 'the same bytes as sql.js exports');
      store.save();
      store.close();
      const reopened = await CorpusStore.open(file);
      assert.equal(reopened.scalar("SELECT url FROM hosts WHERE org = 'org3'"), 'after the rollback');
      assert.equal(reopened.scalar('SELECT count(*) FROM hosts'), 20);
      reopened.close();
    });
  }

  it('gives a scratch copy memory of its own', async () => {
    const file = await storeWithHosts(10);
    const store = await CorpusStore.open(file, { reserveBytes: 1 << 20 });
    const scratch = await CorpusStore.fromBytes(file, store.export());
    scratch.run('DELETE FROM hosts');
    assert.equal(store.scalar('SELECT count(*) FROM hosts'), 10, 'the original is untouched');
    assert.equal(scratch.scalar('SELECT count(*) FROM hosts'), 0);
    scratch.close();
    store.close();
  });
});
