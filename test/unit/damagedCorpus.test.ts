// Every damaged read names the file: the sample corpus (fetched from the loopback fake Gerrit and built
// twice) cut short at a dozen offsets, and with a page of each table the build scans overwritten, opened
// by each command through the CLI. Each run prints one line naming the file, exits non-zero, and writes
// nothing: the corpus's bytes are unchanged, no file appears beside it, and an export writes no file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSampleCorpus } from '../../scripts/sample-corpus';
import { bundlePrivateCli } from './support/privateCli';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';

/** Each command that reads a whole corpus, as a user runs it (the export's folder made for it). */
const COMMANDS: { name: string; args: (db: string, dir: string) => string[] }[] = [
  { name: 'build', args: (db) => ['build', '--db', db] },
  { name: 'export', args: (db, dir) => ['export', '--db', db, '--out', path.join(dir, 'out', 'examples.jsonl')] },
  { name: 'funnel', args: (db) => ['funnel', '--db', db, '--json'] },
  { name: 'verify', args: (db) => ['verify', '--db', db, '--reproduce'] },
  { name: 'diff', args: (db) => ['diff', '--db', db, '--from', '1', '--to', '2'] },
];

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a damaged corpus file is named by every command', function () {
  this.timeout(600_000);
  const root = path.resolve('.');
  const outDir = path.join(root, 'out', `test-damaged-${process.pid}`);
  let cli: string;
  let work: string;
  let intact: Buffer;
  let blobs: Buffer;
  let pageSize: number;
  let damagedPages: Map<string, number>;

  before(async () => {
    cli = bundlePrivateCli(outDir);
    work = mkdtempSync(path.join(tmpdir(), 'rc-damaged-'));
    const { dbFile } = await buildSampleCorpus(path.join(work, 'sample'));
    intact = readFileSync(dbFile);
    blobs = readFileSync(`${dbFile}.blobs`);
    const store = await CorpusStore.open(dbFile);
    pageSize = Number(store.scalar('PRAGMA page_size'));
    // The root page of each table the build reads, and pages spread over the file (leaves of whatever
    // table holds them): each found by whichever query meets it first.
    const pages = Math.floor(intact.length / pageSize);
    damagedPages = new Map([
      ...store
        .all<{ name: string; rootpage: number }>(
          "SELECT name, rootpage FROM sqlite_master WHERE name IN ('changes', 'comments', 'diffs', 'file_lists', 'blobs', 'builds', 'decisions')",
        )
        .map((r): [string, number] => [`root of ${r.name}`, r.rootpage]),
      ...[0.15, 0.35, 0.55, 0.75, 0.95].map((f): [string, number] => [
        `page at ${f}`,
        Math.max(2, Math.floor(pages * f)),
      ]),
    ]);
    store.close();
  });
  after(() => {
    rmSync(outDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  /** A folder holding `bytes` as corpus.sqlite, with the intact blob pack beside it. */
  function corpusOf(name: string, bytes: Buffer): { dir: string; db: string } {
    const dir = path.join(work, name);
    mkdirSync(path.join(dir, 'out'), { recursive: true });
    const db = path.join(dir, 'corpus.sqlite');
    writeFileSync(db, bytes);
    writeFileSync(`${db}.blobs`, blobs);
    return { dir, db };
  }

  function assertNamed(dir: string, db: string, command: (typeof COMMANDS)[number]): void {
    const before = sha(readFileSync(db));
    const listing = readdirSync(dir).sort();
    const r = spawnSync(process.execPath, [cli, ...command.args(db, dir)], { encoding: 'utf8', cwd: dir });
    const what = `${command.name} on ${path.basename(dir)}`;
    assert.notEqual(r.status, 0, `${what} fails:\n${r.stdout}`);
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, `${what}: one line on stderr, got:\n${r.stderr}`);
    assert.doesNotMatch(lines[0], /internal error/, what);
    assert.ok(lines[0].includes(`${db}: damaged`), `${what} names the file and says damaged: ${lines[0]}`);
    assert.equal(sha(readFileSync(db)), before, `${what} leaves the file as it was`);
    assert.deepEqual(readdirSync(dir).sort(), listing, `${what} leaves no file beside it`);
    assert.deepEqual(readdirSync(path.join(dir, 'out')), [], `${what} writes no export`);
  }

  it('reads the intact sample with every command (the fixture itself is sound)', () => {
    const { dir, db } = corpusOf('intact', intact);
    for (const c of COMMANDS) {
      const r = spawnSync(process.execPath, [cli, ...c.args(db, dir)], { encoding: 'utf8', cwd: dir });
      assert.equal(r.status, 0, `${c.name}: ${r.stderr}`);
    }
  });

  it('a corpus cut short at a dozen offsets', () => {
    const size = intact.length;
    const offsets = [
      100 + 7, // inside page 1, after the header
      pageSize,
      pageSize * 2 + 1,
      ...[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].map((f) => Math.floor((size * f) / pageSize) * pageSize + 333),
      size - pageSize,
      size - 1,
    ];
    assert.ok(new Set(offsets).size >= 10, 'at least ten offsets');
    for (const at of offsets) {
      const { dir, db } = corpusOf(`cut-${at}`, intact.subarray(0, at));
      for (const c of COMMANDS) assertNamed(dir, db, c);
    }
  });

  it('a page overwritten, wherever it is: found by whichever query meets it', () => {
    for (const [name, page] of damagedPages) {
      const bytes = Buffer.from(intact);
      bytes.fill(0x5a, (page - 1) * pageSize, page * pageSize);
      const { dir, db } = corpusOf(name.replace(/\W+/g, '-'), bytes);
      for (const c of COMMANDS) {
        const r = spawnSync(process.execPath, [cli, ...c.args(db, dir)], { encoding: 'utf8', cwd: dir });
        // A command that never reads the page succeeds (its export is cleared); one that meets it names the file.
        if (r.status === 0) {
          rmSync(path.join(dir, 'out'), { recursive: true });
          mkdirSync(path.join(dir, 'out'));
          continue;
        }
        assertNamed(dir, db, c);
      }
    }
  });
});
