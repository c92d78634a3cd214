// A corpus opened `paged` (src/core/ground/store/pagedFile.ts): read from its file page by page, written in
// memory only. Real sql.js over real files on disk; another writer replaces or cuts the file under it.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { CorpusFileError } from '../../src/core/ground/store/errors';
import { journalPath } from '../../src/core/ground/store/journal';
import { latestSchemaVersion } from '../../src/core/ground/store/schema';
import { canonicalDump } from './support/canonicalDump';
import { bundleChildScript } from './support/childScript';
import { KILL_IN_JOURNAL_PRELOAD } from './support/killInJournal';

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
    store.exec('PRAGMA cache_size = 8'); // so the transaction below cannot fit in the cache
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

  it('saves to the journal as a whole store does; after a fold, reads the new file and journals against it', async () => {
    const file = await corpusOf(2);
    const bytes = readFileSync(file);
    const store = await CorpusStore.open(file, { paged: true });
    store.run("INSERT INTO hosts(org, url) VALUES ('one', 'https://one.example')");
    assert.equal(store.save(), 'journal');
    store.run("INSERT INTO hosts(org, url) VALUES ('two', 'https://two.example')");
    assert.equal(store.save(), 'journal');
    assert.deepEqual(readFileSync(file), bytes, 'the file is not rewritten');
    assert.ok(statSync(journalPath(file)).size < 64 * 1024, 'the journal holds the pages written, not the file');
    const whole = await CorpusStore.open(file);
    assert.deepEqual(orgs(whole), ['base', 'one', 'two']);
    whole.close();

    assert.equal(store.save({ full: true }), 'full');
    assert.equal(existsSync(journalPath(file)), false, 'the fold removed the journal');
    store.run("INSERT INTO hosts(org, url) VALUES ('three', 'https://three.example')");
    assert.equal(store.save(), 'journal', 'a journal against the folded file');
    store.close();
    for (const opts of [{}, { paged: true }]) {
      const reopened = await CorpusStore.open(file, { ...opts, onNotice: (m) => assert.fail(m) });
      assert.deepEqual(orgs(reopened), ['base', 'one', 'two', 'three']);
      assert.equal(fillerCount(reopened), 2000);
      reopened.close();
    }
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
    const size = statSync(file).size;
    const store = await CorpusStore.open(file, { paged: true });
    assert.deepEqual(orgs(store), ['base']);
    truncateSync(file, 64 * 1024); // written in place, as a copy over the file would be
    for (let i = 0; i < 2; i++) {
      assert.throws(
        () => fillerCount(store),
        (e: unknown) =>
          e instanceof CorpusFileError &&
          e.message === `${file}: could not read it: it has ${64 * 1024} bytes now, ${size} when it was opened` &&
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

  describe('kill -9 while a paged store saves (real processes)', function () {
    this.timeout(120_000);
    const dir = mkdtempSync(path.join(tmpdir(), 'rc-paged-kill-'));
    let script: string;
    let preload: string;
    // Four saves (the first creates the journal, the next three append to it), a fold, two more
    // saves (a new journal against the folded file, then an append to it): hosts h1…h6.
    const SOURCE = `
      import { CorpusStore } from './src/core/ground/store/corpusStore';
      void (async () => {
        const store = await CorpusStore.open(process.argv[2], { paged: true });
        const add = (org) => store.run('INSERT INTO hosts(org, url) VALUES (?, ?)', [org, 'https://' + org + '.example']);
        for (const org of ['h1', 'h2', 'h3', 'h4']) { add(org); store.save(); }
        store.save({ full: true });
        for (const org of ['h5', 'h6']) { add(org); store.save(); }
        store.close();
      })();`;

    before(() => {
      script = bundleChildScript(dir, 'paged-saves', SOURCE);
      preload = path.join(dir, 'kill-in-journal.js');
      writeFileSync(preload, KILL_IN_JOURNAL_PRELOAD);
    });

    async function runSaves(kill?: string): Promise<{ file: string; signal: NodeJS.Signals | null; stderr: string }> {
      const file = await corpusOf(2);
      const r = spawnSync(process.execPath, [...(kill ? ['--require', preload] : []), script, file], {
        env: { ...process.env, RC_KILL: kill ?? '', RC_KILL_TARGET: file },
        encoding: 'utf8',
      });
      return { file, signal: r.signal, stderr: r.stderr };
    }

    async function openedBoth(file: string): Promise<{ orgs: string[]; notices: string[] }> {
      const seen: { orgs: string[]; notices: string[] }[] = [];
      for (const opts of [{}, { paged: true }]) {
        const notices: string[] = [];
        const store = await CorpusStore.open(file, { ...opts, onNotice: (m) => notices.push(m) });
        seen.push({ orgs: orgs(store), notices });
        assert.equal(fillerCount(store), 2000);
        store.close();
      }
      assert.deepEqual(seen[1], seen[0], 'a paged open sees what a whole open sees');
      return seen[0];
    }

    const cases: [kill: string | undefined, hosts: number, notice: RegExp | undefined][] = [
      [undefined, 6, undefined],
      ['append:2', 2, /dropped a torn tail of \d+ bytes after \d+ whole record/],
      ['fold-rename', 4, undefined],
      ['fold-remove', 4, /its base is not .* ignored/],
      ['append:4', 5, /dropped a torn tail/], // the append after the fold: journalled against the new file
    ];
    for (const [kill, hosts, notice] of cases) {
      it(
        kill ? `killed in ${kill}: opens with h1…h${hosts}, old or new, never torn` : 'not killed: h1…h6',
        async () => {
          const r = await runSaves(kill);
          if (kill) assert.equal(r.signal, 'SIGKILL', `killed in ${kill} (stderr: ${r.stderr})`);
          else assert.equal(r.signal, null, r.stderr);
          const o = await openedBoth(r.file);
          assert.deepEqual(o.orgs, ['base', ...Array.from({ length: hosts }, (_, i) => `h${i + 1}`)]);
          if (notice) assert.match(o.notices.join('\n'), notice);
          else assert.deepEqual(o.notices, []);
        },
      );
    }
  });
});
