// The corpus file at its edges: saves and reads of files over 2 GiB, damaged files named in one line
// by the CLI, and the temporary files of killed saves cleared when the corpus is next opened.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { constants as bufferConstants } from 'node:buffer';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundlePrivateCli } from './support/privateCli';
import { removeStaleTemps, saveAtomically, WRITE_CHUNK_BYTES } from '../../src/core/ground/store/atomicSave';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { READ_CHUNK_BYTES, readWithReserve } from '../../src/core/ground/store/loadDatabase';
import { CorpusFileError } from '../../src/core/ground/store/errors';

const MAX_CALL_BYTES = 2 ** 31 - 1; // the most one fs read or write call accepts
const GiB = 2 ** 30;

const made: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rc-store-files-'));
  made.push(dir);
  return dir;
}

function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A zero-filled Buffer of `n` bytes. The pages are only mapped, not touched, so it costs no memory. */
function untouchedBuffer(n: number): Buffer | undefined {
  try {
    return Buffer.alloc(n);
  } catch {
    return undefined; // strict overcommit: the machine will not even map it
  }
}

/** A sparse file: `size` bytes long without occupying them on disk. */
function sparseFile(dir: string, size: number): string {
  const file = path.join(dir, 'big.sqlite');
  writeFileSync(file, '');
  truncateSync(file, size);
  return file;
}

/** Checks that `calls` ([offset, length]) cover 0..total in order, none longer than `max`. */
function assertChunks(calls: Array<[number, number]>, total: number, max: number): void {
  let next = 0;
  for (const [offset, length] of calls) {
    assert.equal(offset, next, 'each call starts where the last ended');
    assert.ok(length > 0 && length <= max, `a call for ${length} bytes (at most ${max})`);
    next += length;
  }
  assert.equal(next, total, 'the calls cover every byte');
}

describe('saving and reading corpora over 2 GiB', () => {
  after(removeTempDirs);

  it('writes in chunks through the real save path, and the file reads back identical and opens', async () => {
    const file = path.join(tempDir(), 'corpus.sqlite');
    const store = await CorpusStore.create(file);
    store.setMeta('pad', 'p'.repeat(5 << 20));
    store.save();
    let handed: Uint8Array | undefined;
    const calls: Array<[number, number]> = [];
    store.save({
      chunkBytes: 1000,
      write: (fd, bytes, offset, length) => {
        handed = bytes;
        calls.push([offset, length]);
        return writeSync(fd, bytes, offset, length);
      },
    });
    assert.ok(handed && handed.length > 5 << 20, 'a several-MB image');
    assertChunks(calls, handed.length, 1000);
    assert.ok(readFileSync(file).equals(handed), 'the file holds exactly the bytes saved');
    store.close();
    const reopened = await CorpusStore.open(file);
    assert.equal(reopened.getMeta('pad'), 'p'.repeat(5 << 20));
    assert.equal(reopened.scalar('PRAGMA integrity_check'), 'ok');
    reopened.close();
  });

  it('hands no write call more than WRITE_CHUNK_BYTES when the image is over 2^31 - 1 bytes', function () {
    const total = 2510487552; // the size of the save that failed with ERR_OUT_OF_RANGE
    const bytes = untouchedBuffer(total);
    if (!bytes) this.skip();
    const calls: Array<[number, number]> = [];
    // Counts rather than writes: 2.5 GB on disk is not the point, what each call is asked is.
    saveAtomically(path.join(tempDir(), 'corpus.sqlite'), bytes, {
      write: (_fd, _bytes, offset, length) => (calls.push([offset, length]), length),
    });
    assert.ok(WRITE_CHUNK_BYTES <= MAX_CALL_BYTES);
    assertChunks(calls, total, WRITE_CHUNK_BYTES);
  });

  it('asks no read call for more than READ_CHUNK_BYTES when the file is over 2 GiB', async function () {
    const dir = tempDir();
    try {
      const size = 2 * GiB + (5 << 20) + 7;
      if (!untouchedBuffer(size)) this.skip();
      const file = sparseFile(dir, size);
      const calls: Array<[number, number]> = [];
      const { bytes } = await readWithReserve(
        file,
        0,
        async (_handle, _bytes, offset, length) => (calls.push([offset, length]), length),
      );
      assert.equal(bytes.length, size);
      assert.ok(READ_CHUNK_BYTES <= MAX_CALL_BYTES);
      assertChunks(calls, size, READ_CHUNK_BYTES);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('near the most one Buffer holds', function () {
    before(function () {
      // Node 20's Buffers hold 4 GiB; where they hold far more there is no edge to test here.
      if (bufferConstants.MAX_LENGTH > 2 ** 33) this.skip();
    });

    it('shrinks the reserve rather than fail to allocate it', async function () {
      const dir = tempDir();
      try {
        const size = bufferConstants.MAX_LENGTH - (1 << 20);
        if (!untouchedBuffer(bufferConstants.MAX_LENGTH)) this.skip();
        const file = sparseFile(dir, size);
        const { bytes } = await readWithReserve(file, GiB, async (_h, _b, _offset, length) => length);
        assert.equal(bytes.length, bufferConstants.MAX_LENGTH, 'the reserve is what is left: 1 MiB, not 1 GiB');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('names a file too large to hold in one line', async () => {
      const dir = tempDir();
      try {
        const file = sparseFile(dir, bufferConstants.MAX_LENGTH + 1);
        await assert.rejects(CorpusStore.open(file), (e: Error) => {
          assert.ok(e instanceof CorpusFileError, `expected CorpusFileError, got ${e.name}: ${e.message}`);
          assert.match(
            e.message,
            new RegExp(`^${file.replace(/[.]/g, '\\.')}: too large to open: ${bufferConstants.MAX_LENGTH + 1} bytes`),
          );
          return true;
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

describe('review-corpus on a damaged corpus file', function () {
  this.timeout(120_000);
  const root = path.resolve('.'); // scripts/unit.mjs runs mocha from the repository root
  const outDir = path.join(root, 'out', `test-store-${process.pid}`);
  const cli = path.join(outDir, 'cli.js');
  let dir: string;
  let intact: Buffer;
  let pageSize: number;
  let rootPage: (table: string) => number;

  before(async () => {
    bundlePrivateCli(outDir);

    dir = tempDir();
    const file = path.join(dir, 'intact.sqlite');
    const store = await CorpusStore.create(file);
    store.transaction(() => {
      for (let i = 0; i < 300; i++)
        store.run('INSERT INTO hosts(org, url) VALUES (?, ?)', [`org${i}`, 'u'.repeat(500)]);
    });
    // The smallest funnel a build records (storedFunnel refuses one without organizations).
    store.run(
      `INSERT INTO builds(config_hash, rules_version, started_at, finished_at, funnel) VALUES ('h', 'r', 't0', 't1', '{"organizations":{}}')`,
    );
    store.save();
    pageSize = Number(store.scalar('PRAGMA page_size'));
    const roots = new Map(
      store
        .all<{ name: string; rootpage: number }>('SELECT name, rootpage FROM sqlite_master')
        .map((r) => [r.name, r.rootpage]),
    );
    rootPage = (table) => roots.get(table) ?? assert.fail(`no table ${table}`);
    store.close();
    intact = readFileSync(file);
  });
  after(() => {
    rmSync(outDir, { recursive: true, force: true });
    removeTempDirs();
  });

  function funnel(file: string) {
    return spawnSync(process.execPath, [cli, 'funnel', '--db', file, '--json'], { encoding: 'utf8' });
  }

  /** The intact corpus with one page overwritten by bytes no SQLite page holds. */
  function withPageOverwritten(name: string, page: number): string {
    const bytes = Buffer.from(intact);
    bytes.fill(0x5a, (page - 1) * pageSize, page * pageSize);
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    return file;
  }

  function assertOneLineNamingDamage(file: string, detail: RegExp): void {
    const r = funnel(file);
    assert.notEqual(r.status, 0, 'fails');
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, `one line on stderr, got:\n${r.stderr}`);
    assert.doesNotMatch(lines[0], /internal error/);
    assert.ok(lines[0].includes(`${file}: damaged: `), `names the file and says damaged: ${lines[0]}`);
    assert.match(lines[0], detail);
  }

  it('reads the intact corpus (the fixture itself is sound)', () => {
    const file = path.join(dir, 'copy.sqlite');
    writeFileSync(file, intact);
    const r = funnel(file);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { organizations: {}, corpus_hash: null });
  });

  it('a truncated corpus', () => {
    const file = path.join(dir, 'truncated.sqlite');
    const half = Math.floor(intact.length / 2);
    writeFileSync(file, intact.subarray(0, half));
    // Refused at open by the header's page count, before any page is read.
    assertOneLineNamingDamage(file, new RegExp(`cut short: ${half} bytes, where its header says ${intact.length}$`));
  });

  it('a damaged page of the meta table, found while opening', () => {
    assertOneLineNamingDamage(
      withPageOverwritten('meta-page.sqlite', rootPage('meta')),
      /database disk image is malformed/,
    );
  });

  it('a damaged page found only by a later query (the builds table)', () => {
    assertOneLineNamingDamage(
      withPageOverwritten('builds-page.sqlite', rootPage('builds')),
      /database disk image is malformed/,
    );
  });

  for (const value of ['abc', '', '1.5', '2x']) {
    it(`a schema_version of ${JSON.stringify(value)}`, async () => {
      const file = path.join(dir, `schema-${Buffer.from(value).toString('hex')}.sqlite`);
      writeFileSync(file, intact);
      const store = await CorpusStore.open(file);
      store.setMeta('schema_version', value);
      store.save();
      store.close();
      assertOneLineNamingDamage(
        file,
        new RegExp(
          `schema_version in the meta table is ${JSON.stringify(value).replace(/[.]/g, '\\.')}, not a version number`,
        ),
      );
    });
  }

  it('a missing schema_version', async () => {
    const file = path.join(dir, 'schema-missing.sqlite');
    writeFileSync(file, intact);
    const store = await CorpusStore.open(file);
    store.run("DELETE FROM meta WHERE key = 'schema_version'");
    store.save();
    store.close();
    assertOneLineNamingDamage(file, /schema_version in the meta table is missing/);
  });
});

describe('temporary files of killed saves', () => {
  after(removeTempDirs);

  /** A pid that was a process of ours and has exited: no process has it now. */
  function deadPid(): number {
    const child = spawnSync(process.execPath, ['-e', '']);
    assert.equal(child.status, 0);
    assert.throws(() => process.kill(child.pid, 0), { code: 'ESRCH' }, 'the pid is free');
    return child.pid;
  }

  /** The name saveAtomically gives its temporary file for `file`, as if process `pid` had made it. */
  function tempNameOf(file: string, pid: number): string {
    let real = '';
    assert.throws(
      () =>
        saveAtomically(file, Buffer.from('x'), {
          beforeRename: (temp) => {
            real = temp;
            throw new Error('stop');
          },
        }),
      /stop/,
    );
    const mine = `.${process.pid}.`;
    const at = real.lastIndexOf(mine, real.length - '.tmp'.length);
    assert.ok(at > 0, `the temp ${real} carries this process's pid`);
    return real.slice(0, at) + `.${pid}.` + real.slice(at + mine.length);
  }

  function leave(temp: string): string {
    writeFileSync(temp, Buffer.alloc(8192, 7)); // what a save killed after writing leaves: a copy
    return temp;
  }

  it("removes those of dead processes when the corpus is opened, keeping a live process's", async () => {
    const dir = tempDir();
    const file = path.join(dir, 'corpus.sqlite');
    const store = await CorpusStore.create(file);
    store.save();
    store.close();
    const dead = deadPid();
    const stale = leave(tempNameOf(file, dead));
    const live = leave(tempNameOf(file, process.pid));
    const otherCorpus = leave(tempNameOf(path.join(dir, 'other.sqlite'), dead));
    const reopened = await CorpusStore.open(file);
    reopened.close();
    assert.ok(!existsSync(stale), "the dead process's temp is removed");
    assert.ok(existsSync(live), "a live process's temp is kept: it may be saving now");
    assert.ok(existsSync(otherCorpus), "another corpus's temp is not this open's to remove");
    assert.deepEqual(
      readdirSync(dir).sort(),
      [path.basename(otherCorpus), path.basename(live), 'corpus.sqlite'].sort(),
    );
  });

  it('keeps them beside a corpus that does not open: one may be the copy to recover from', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'corpus.sqlite');
    writeFileSync(file, 'not a database '.repeat(20));
    const stale = leave(tempNameOf(file, deadPid()));
    await assert.rejects(CorpusStore.open(file), CorpusFileError);
    assert.ok(existsSync(stale));
  });

  it('removes them when a first save was killed and there is no corpus yet', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'corpus.sqlite');
    const stale = leave(tempNameOf(file, deadPid()));
    const store = await CorpusStore.openOrCreate(file);
    store.close();
    assert.ok(!existsSync(stale));
  });

  it('matches only the names saveAtomically writes for that corpus', () => {
    const dir = tempDir();
    const file = path.join(dir, 'corpus.sqlite');
    const dead = deadPid();
    const others = [
      `.corpus.sqlite.${dead}.tmp`,
      `corpus.sqlite.${dead}.1.tmp`,
      `.corpusXsqlite.${dead}.1.tmp`,
      `.corpus.sqlite.${dead}.1.tmp.bak`,
    ];
    for (const name of others) leave(path.join(dir, name));
    const fd = openSync(path.join(dir, `.corpus.sqlite.${dead}.1.tmp`), 'w');
    closeSync(fd);
    assert.deepEqual(removeStaleTemps(file), [path.join(dir, `.corpus.sqlite.${dead}.1.tmp`)]);
    assert.deepEqual(readdirSync(dir).sort(), [...others].sort());
  });
});
