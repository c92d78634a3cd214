// Two writers, one file: every writer of a corpus file holds its lock (src/core/ground/store/writerLock.ts)
// from before it reads the file to after its last save, so a second writer waits or fails with one
// line naming the holder, and nothing reported as saved is lost. The interleavings run real CLI
// processes (a private bundle of src/cli/main.ts) against loopback fake Gerrit hosts; a preload
// (`--require`) pauses the first writer just before its atomic rename, inside its read-modify-write.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { bundlePrivateCli } from './support/privateCli';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { copyCorpus } from '../../src/core/ground/store/copyCorpus';
import {
  acquireWriterLock,
  CorpusInUseError,
  lockFileOf,
  readLockHolder,
  type LockHolder,
} from '../../src/core/ground/store/writerLock';
import { serveEdits, type EditSaverReply, type EditSaverRequest } from '../../src/core/jobs/edits';
import { startSampleHosts } from '../fake-gerrit/server';
import { sampleConfig, SAMPLE_SALT } from '../../scripts/sample-corpus';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'rc-lock-'));
  dirs.push(d);
  return d;
}

/** A pid that was a process of ours and has exited: no process has it now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  assert.equal(child.status, 0);
  assert.throws(() => process.kill(child.pid, 0), { code: 'ESRCH' }, 'the pid is free');
  return child.pid;
}

function writeLock(file: string, holder: LockHolder): void {
  writeFileSync(lockFileOf(file), JSON.stringify(holder) + '\n');
}

async function emptyCorpus(dir: string): Promise<string> {
  const file = path.join(dir, 'corpus.sqlite');
  const store = await CorpusStore.create(file);
  store.run("INSERT INTO flags(example_key, reason) VALUES ('o/1/1/10/a.py', 'suggestion_fence_variant')");
  store.save();
  store.close();
  return file;
}

const inUseLine = (file: string, h: LockHolder) =>
  `${file}: in use by pid ${h.pid} (${h.command}, since ${h.startedAt}); wait for it or remove ${lockFileOf(file)} if that process is gone`;

describe('writer lock on a corpus file', () => {
  after(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('is a lock file beside the corpus naming the holder; a second writer fails with one line; release removes it', async () => {
    const file = await emptyCorpus(tempDir());
    const lock = await acquireWriterLock(file, { command: 'review-corpus build' });
    assert.equal(lock.lockFile, path.join(path.dirname(file), '.corpus.sqlite.lock'));
    const holder = JSON.parse(readFileSync(lock.lockFile, 'utf8')) as LockHolder;
    assert.equal(holder.pid, process.pid);
    assert.equal(holder.host, hostname());
    assert.equal(holder.command, 'review-corpus build');
    assert.ok(!Number.isNaN(Date.parse(holder.startedAt)));
    await assert.rejects(acquireWriterLock(file, { command: 'review-corpus fetch' }), (e: Error) => {
      assert.ok(e instanceof CorpusInUseError);
      assert.equal(e.message, inUseLine(file, holder));
      return true;
    });
    lock.release();
    assert.equal(existsSync(lock.lockFile), false);
    (await acquireWriterLock(file, { command: 'again' })).release();
  });

  it('takes over a stale lock (the pid of an exited process on this host), never a live one', async () => {
    const file = await emptyCorpus(tempDir());
    const stale: LockHolder = {
      pid: deadPid(),
      startedAt: '2026-12-03T14:00:00.000Z',
      host: hostname(),
      command: 'review-corpus build',
    };
    writeLock(file, stale);
    const lock = await acquireWriterLock(file, { command: 'review-corpus fetch' });
    assert.equal(readLockHolder(file).holder?.pid, process.pid, 'the stale lock was replaced by ours');
    assert.equal(existsSync(`${lockFileOf(file)}.break`), false);
    lock.release();

    const live: LockHolder = {
      pid: process.pid,
      startedAt: '2026-12-03T14:00:00.000Z',
      host: hostname(),
      command: 'review-corpus build',
    };
    writeLock(file, live);
    await assert.rejects(acquireWriterLock(file, { command: 'review-corpus fetch', waitMs: 300, pollMs: 20 }), {
      message: inUseLine(file, live),
    });
    assert.deepEqual(readLockHolder(file).holder, live, "a live holder's lock is left alone");
  });

  it('never judges a lock from another host stale, and says so', async () => {
    const file = await emptyCorpus(tempDir());
    const foreign: LockHolder = {
      pid: deadPid(),
      startedAt: '2026-12-03T14:00:00.000Z',
      host: `not-${hostname()}`,
      command: 'review-corpus build',
    };
    writeLock(file, foreign);
    await assert.rejects(acquireWriterLock(file, { command: 'review-corpus fetch' }), {
      message: `${file}: in use by pid ${foreign.pid} on host ${foreign.host} (review-corpus build, since ${foreign.startedAt}); a lock from another host is never taken over: wait for it or remove ${lockFileOf(file)} if that process is gone`,
    });
    assert.deepEqual(readLockHolder(file).holder, foreign);
  });

  it('waits for the holder when asked to, and then takes it', async () => {
    const file = await emptyCorpus(tempDir());
    const first = await acquireWriterLock(file, { command: 'first' });
    const waits: string[] = [];
    const second = acquireWriterLock(file, {
      command: 'second',
      waitMs: 10_000,
      pollMs: 20,
      onWait: (m) => waits.push(m),
    });
    await new Promise((r) => setTimeout(r, 200));
    first.release();
    const lock = await second;
    assert.equal(readLockHolder(file).holder?.command, 'second');
    assert.equal(waits.length, 1);
    assert.match(waits[0], /in use by pid \d+ \(first, since /);
    lock.release();
  });

  it('the saver waits for another writer and saves on top of its work, never over it', async () => {
    const file = await emptyCorpus(tempDir());
    const replies: EditSaverReply[] = [];
    let handler: (r: EditSaverRequest) => void = () => undefined;
    serveEdits(
      file,
      (h) => (handler = h),
      (r) => replies.push(r),
      { lockPollMs: 20 },
    );
    await new Promise((r) => setTimeout(r, 300)); // the saver has read its copy
    // Another writer (a CLI build, say) holds the file and saves a change of its own.
    const other = await acquireWriterLock(file, { command: 'review-corpus build' });
    const store = await CorpusStore.open(file);
    store.run(
      "INSERT INTO builds(config_hash, rules_version, started_at, finished_at, funnel) VALUES ('h', 'r', 't0', 't1', '{}')",
    );
    store.save();
    store.close();
    handler({
      seq: 1,
      edits: [{ kind: 'flags', flagIds: [1], status: 'confirmed', rater: 'r_1', at: '2026-12-03T14:00:00.000Z' }],
    });
    const until = async (type: string) => {
      for (let i = 0; i < 250 && !replies.some((r) => r.type === type); i++)
        await new Promise((r) => setTimeout(r, 20));
      return replies.find((r) => r.type === type);
    };
    const waiting = await until('waiting');
    assert.match(
      (waiting as { message?: string } | undefined)?.message ?? '',
      /in use by pid \d+ \(review-corpus build, since /,
    );
    assert.equal(
      replies.some((r) => r.type === 'saved'),
      false,
      'not saved while the other writer holds the file',
    );
    other.release();
    assert.deepEqual(await until('saved'), { type: 'saved', seq: 1 });
    const saved = await CorpusStore.open(file);
    assert.equal(saved.scalar('SELECT count(*) FROM builds'), 1, "the other writer's build is still in the file");
    assert.equal(saved.scalar('SELECT status FROM flags WHERE id = 1'), 'confirmed', 'and so is the decision');
    saved.close();
    assert.equal(existsSync(lockFileOf(file)), false, 'the saver released the lock');
  });
});

describe('two CLI writers on one corpus file', function () {
  this.timeout(180_000);
  const root = path.resolve('.'); // scripts/unit.mjs runs mocha from the repository root
  const outDir = path.join(root, 'out', `test-lock-${process.pid}`);
  const cli = path.join(outDir, 'cli.js');
  const preload = path.join(outDir, 'pause-before-rename.js');
  let dir: string;
  let base: string;
  let oneHost: string;
  let allHosts: string;
  let hosts: Awaited<ReturnType<typeof startSampleHosts>> | undefined;
  const started = new Set<ChildProcess>();
  /** Writers paused by a test: resumed after it whatever it asserted, killed at the end if still there. */
  const paused: { pid: number; resume: () => void }[] = [];
  let n = 0;

  before(async () => {
    bundlePrivateCli(outDir);
    // Pauses the process once, just before it renames its save over RC_PAUSE_TARGET: it has read the
    // file and done its work, and holds whatever it holds, until RC_PAUSE_GO exists.
    writeFileSync(
      preload,
      `
      const fs = require('node:fs');
      const path = require('node:path');
      const target = process.env.RC_PAUSE_TARGET;
      const rename = fs.renameSync;
      let paused = false;
      fs.renameSync = function (from, to) {
        // Over the corpus, or over its journal (store/journal.ts: a save of an existing corpus may be an append, whose journal is created by rename).
        if (!paused && target && (path.resolve(String(to)) === target || path.resolve(String(to)) === target + '.rcj')) {
          paused = true;
          fs.writeFileSync(process.env.RC_PAUSE_MARKER, String(process.pid));
          const nap = new Int32Array(new SharedArrayBuffer(4));
          const parent = process.ppid;
          while (!fs.existsSync(process.env.RC_PAUSE_GO)) {
            if (process.ppid !== parent) process.exit(1); // orphaned (the test or the CLI died): never linger
            Atomics.wait(nap, 0, 0, 20);
          }
        }
        return rename.apply(this, arguments);
      };`,
    );

    hosts = await startSampleHosts(); // no faults: every change fetches
    dir = tempDir();
    oneHost = path.join(dir, 'one-host.json');
    allHosts = path.join(dir, 'all-hosts.json');
    writeFileSync(oneHost, JSON.stringify(sampleConfig(hosts.hosts.slice(0, 1)), null, 2));
    writeFileSync(allHosts, JSON.stringify(sampleConfig(hosts.hosts), null, 2));
    // The corpus every test starts from: the first host fetched, and built once.
    base = path.join(dir, 'base.sqlite');
    const fetched = await run(['fetch', '--config', oneHost, '--db', base, '--quiet']).done;
    assert.equal(fetched.code, 0, fetched.stderr);
    const builtOnce = await run(['build', '--db', base]).done;
    assert.equal(builtOnce.code, 0, builtOnce.stderr);
    assert.deepEqual(
      buildsReported(builtOnce.stdout).map((b) => b.id),
      [1],
    );
  });
  afterEach(() => {
    for (const p of paused) p.resume();
  });
  after(async () => {
    for (const p of paused.splice(0)) if (!isGone(p.pid)) process.kill(p.pid, 'SIGKILL');
    for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await hosts?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  type Ended = { code: number | null; stdout: string; stderr: string };

  function run(args: string[], pause?: { target: string; marker: string; go: string }) {
    const env: NodeJS.ProcessEnv = { ...process.env, REVIEW_CORPUS_SALT: SAMPLE_SALT };
    if (pause)
      Object.assign(env, { RC_PAUSE_TARGET: pause.target, RC_PAUSE_MARKER: pause.marker, RC_PAUSE_GO: pause.go });
    const child = spawn(process.execPath, [...(pause ? ['--require', preload] : []), cli, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const done = new Promise<Ended>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
    return { child, done, stderr: () => stderr };
  }

  /** Starts `args` and resolves once it is paused before renaming its save over `db`: inside its read-modify-write. */
  async function startPaused(args: string[], db: string) {
    const tag = `${++n}`;
    const pause = {
      target: path.resolve(db),
      marker: path.join(dir, `paused-${tag}`),
      go: path.join(dir, `go-${tag}`),
    };
    const r = run(args, pause);
    let exited: Ended | undefined;
    void r.done.then((e) => {
      exited = e;
    });
    for (let i = 0; i < 1500 && !existsSync(pause.marker); i++) {
      if (exited) assert.fail(`${args[0]} ended before pausing: ${exited.stderr}`);
      await new Promise((res) => setTimeout(res, 20));
    }
    assert.ok(existsSync(pause.marker), `${args[0]} paused before its rename`);
    const pid = Number(readFileSync(pause.marker, 'utf8'));
    const resume = () => writeFileSync(pause.go, '');
    paused.push({ pid, resume });
    return { ...r, pid, resume };
  }

  /** Until the second writer says it waits (or, were there no lock, has had time to do its work). */
  async function untilWaiting(r: { stderr: () => string; done: Promise<Ended> }): Promise<void> {
    let ended = false;
    void r.done.then(() => {
      ended = true;
    });
    for (let i = 0; i < 300 && !ended && !/waiting up to/.test(r.stderr()); i++)
      await new Promise((res) => setTimeout(res, 20));
  }

  function fresh(name: string): string {
    const db = path.join(dir, name);
    copyCorpus(base, db);
    return db;
  }

  function buildsReported(stdout: string): { id: number; hash: string }[] {
    return [...stdout.matchAll(/^build (\d+): \d+ examples kept, corpus ([0-9a-f]{12}),/gm)].map((m) => ({
      id: Number(m[1]),
      hash: m[2],
    }));
  }

  /** `org\trule\tn` lines a fetch prints: the changes its save holds. */
  function changesReported(stdout: string): string[] {
    return stdout
      .split('\n')
      .filter((l) => /^[^\t]+\t[^\t]+\t\d+$/.test(l))
      .sort();
  }

  async function inFile(db: string) {
    const store = await CorpusStore.open(db);
    try {
      return {
        builds: store
          .all<{ id: number; corpus_hash: string }>('SELECT id, corpus_hash FROM builds ORDER BY id')
          .map((b) => ({ id: b.id, hash: b.corpus_hash.slice(0, 12) })),
        changes: store
          .all<{ org: string; rule: string | null; n: number }>(
            'SELECT h.org, c.collection_rule AS rule, count(*) AS n FROM changes c JOIN hosts h ON h.id = c.host_id GROUP BY h.org, c.collection_rule ORDER BY h.org, rule',
          )
          .map((c) => `${c.org}\t${c.rule ?? 'fetched'}\t${c.n}`)
          .sort(),
      };
    } finally {
      store.close();
    }
  }

  function assertBuildsKept(
    file: { builds: { id: number; hash: string }[] },
    reported: { id: number; hash: string }[],
  ): void {
    assert.equal(
      new Set(reported.map((b) => b.id)).size,
      reported.length,
      `each build reported its own id: ${JSON.stringify(reported)}`,
    );
    for (const b of reported)
      assert.ok(
        file.builds.some((f) => f.id === b.id && f.hash === b.hash),
        `build ${b.id} (corpus ${b.hash}) was reported saved and is in the file: ${JSON.stringify(file.builds)}`,
      );
  }

  it('two builds, the second told not to wait: it fails with one line naming the first, and the first is saved', async () => {
    const db = fresh('builds-nowait.sqlite');
    const a = await startPaused(['build', '--db', db], db);
    const holder = readLockHolder(db).holder;
    const b = await run(['build', '--db', db, '--wait', '0']).done;
    a.resume();
    const ea = await a.done;
    assert.equal(ea.code, 0, ea.stderr);
    const file = await inFile(db);
    assertBuildsKept(file, [...buildsReported(ea.stdout), ...buildsReported(b.stdout)]);
    assert.deepEqual(
      buildsReported(ea.stdout).map((r) => r.id),
      [2],
    );
    assert.deepEqual(
      file.builds.map((f) => f.id),
      [1, 2],
    );
    assert.equal(b.code, 2, b.stdout + b.stderr);
    assert.equal(b.stdout, '');
    assert.equal(holder?.pid, a.pid, 'the lock names the paused build');
    assert.equal(b.stderr, `review-corpus: ${inUseLine(db, { ...holder!, command: 'review-corpus build' })}\n`);
    assert.equal(existsSync(lockFileOf(db)), false, 'no lock is left behind');
  });

  it('two builds, the second waiting: builds 2 and 3, both in the file', async () => {
    const db = fresh('builds-wait.sqlite');
    const a = await startPaused(['build', '--db', db], db);
    const b = run(['build', '--db', db, '--wait', '120']);
    await untilWaiting(b);
    a.resume();
    const [ea, eb] = await Promise.all([a.done, b.done]);
    assert.equal(ea.code, 0, ea.stderr);
    assert.equal(eb.code, 0, eb.stderr);
    const reported = [...buildsReported(ea.stdout), ...buildsReported(eb.stdout)];
    const file = await inFile(db);
    assertBuildsKept(file, reported);
    assert.deepEqual(
      reported.map((r) => r.id),
      [2, 3],
    );
    assert.deepEqual(
      file.builds.map((f) => f.id),
      [1, 2, 3],
    );
    assert.match(
      eb.stderr,
      new RegExp(
        `^review-corpus: ${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: in use by pid ${a.pid} \\(review-corpus build, since [^)]+\\); waiting up to 120 s for it \\(--wait\\)$`,
        'm',
      ),
    );
  });

  it('a fetch, then a build while it runs: the build waits, and both the fetch and the build are in the file', async () => {
    const db = fresh('fetch-then-build.sqlite');
    const fetch = await startPaused(['fetch', '--config', allHosts, '--db', db, '--quiet'], db);
    const holder = readLockHolder(db).holder;
    const build = run(['build', '--db', db, '--wait', '120']);
    await untilWaiting(build);
    fetch.resume();
    const [ef, eb] = await Promise.all([fetch.done, build.done]);
    assert.equal(ef.code, 0, ef.stderr);
    assert.equal(eb.code, 0, eb.stderr);
    const reported = buildsReported(eb.stdout);
    assert.deepEqual(
      reported.map((r) => r.id),
      [2],
    );
    const file = await inFile(db);
    assertBuildsKept(file, reported);
    assert.deepEqual(file.changes, changesReported(ef.stdout), "the fetch's changes are in the file");
    assert.ok(
      file.changes.some((c) => c.startsWith('wikimedia\t')),
      'the fetch brought the other hosts',
    );
    assert.equal(holder?.command, 'review-corpus fetch');
    assert.match(eb.stderr, /in use by pid \d+ \(review-corpus fetch, since [^)]+\); waiting up to 120 s/);
  });

  it('a build, then a fetch while it runs: the fetch waits, and both the build and the fetch are in the file', async () => {
    const db = fresh('build-then-fetch.sqlite');
    const build = await startPaused(['build', '--db', db], db);
    const fetch = run(['fetch', '--config', allHosts, '--db', db, '--quiet', '--wait', '120']);
    await untilWaiting(fetch);
    build.resume();
    const [eb, ef] = await Promise.all([build.done, fetch.done]);
    assert.equal(eb.code, 0, eb.stderr);
    assert.equal(ef.code, 0, ef.stderr);
    const file = await inFile(db);
    assertBuildsKept(file, buildsReported(eb.stdout));
    assert.deepEqual(file.changes, changesReported(ef.stdout), "the fetch's changes are in the file");
    assert.deepEqual(
      buildsReported(eb.stdout).map((r) => r.id),
      [2],
    );
    assert.ok(
      file.changes.some((c) => c.startsWith('wikimedia\t')),
      'the fetch brought the other hosts',
    );
    assert.match(ef.stderr, /in use by pid \d+ \(review-corpus build, since [^)]+\); waiting up to 120 s/);
  });

  it('a build, then a fetch told not to wait: the fetch fails with one line naming the build and writes nothing', async () => {
    const db = fresh('build-then-fetch-nowait.sqlite');
    const build = await startPaused(['build', '--db', db], db);
    const holder = readLockHolder(db).holder;
    const ef = await run(['fetch', '--config', allHosts, '--db', db, '--quiet', '--wait', '0']).done;
    build.resume();
    const eb = await build.done;
    assert.equal(eb.code, 0, eb.stderr);
    const file = await inFile(db);
    assertBuildsKept(file, buildsReported(eb.stdout));
    if (ef.code === 0)
      assert.deepEqual(file.changes, changesReported(ef.stdout), 'a fetch reported saved is in the file');
    assert.equal(ef.code, 2, ef.stdout + ef.stderr);
    assert.equal(ef.stderr, `review-corpus: ${inUseLine(db, holder!)}\n`);
    assert.equal(
      file.changes.some((c) => c.startsWith('wikimedia\t')),
      false,
    );
  });

  it('a lock left by a killed writer is taken over by the next one', async () => {
    const db = fresh('killed.sqlite');
    const a = await startPaused(['build', '--db', db], db);
    const holder = readLockHolder(db).holder!;
    process.kill(a.pid, 'SIGKILL'); // the process holding the lock (the relaunched child, if any)
    await a.done;
    for (let i = 0; i < 100 && !isGone(holder.pid); i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(readLockHolder(db).holder, holder, 'kill -9 left its lock');
    const b = await run(['build', '--db', db, '--wait', '0']).done;
    assert.equal(b.code, 0, b.stderr);
    assert.deepEqual(
      buildsReported(b.stdout).map((r) => r.id),
      [2],
    );
    assert.equal(existsSync(lockFileOf(db)), false);
  });
});

function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}
