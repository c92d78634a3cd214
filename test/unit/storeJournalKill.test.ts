// kill -9 and the corpus journal, through real CLI processes (a private bundle of src/cli/main.ts)
// against loopback fake Gerrit hosts. A preload (`--require`) kills the process with SIGKILL in the
// middle of writing a journal record, or in a fold (a full save) before its rename or between the
// rename and the journal's removal. Every time the file opens old or new, never torn, and finishing
// the work gives what an uninterrupted run gives.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundlePrivateCli } from './support/privateCli';
import { KILL_IN_JOURNAL_PRELOAD } from './support/killInJournal';
import { canonicalDump } from './support/canonicalDump';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { copyCorpus } from '../../src/core/ground/store/copyCorpus';
import { journalPath } from '../../src/core/ground/store/journal';
import { startSampleHosts } from '../fake-gerrit/server';
import { sampleConfig, SAMPLE_SALT } from '../../scripts/sample-corpus';

type Ended = { code: number | null; signal: NodeJS.Signals | null; stderr: string };

/** Killed by SIGKILL: itself, or (build relaunches itself on huge pages, src/cli/relaunch.ts) its child, whose 128 + 9 it exits with. */
const killed9 = (r: Ended) => r.signal === 'SIGKILL' || r.code === 137;

describe('corpus journal: kill -9 mid-append and mid-fold (real processes)', function () {
  this.timeout(240_000);
  const outDir = path.join(path.resolve('.'), 'out', `test-journal-${process.pid}`);
  const cli = path.join(outDir, 'cli.js');
  const preload = path.join(outDir, 'kill-in-journal.js');
  let dir: string;
  let base: string;
  let allHosts: string;
  let hosts: Awaited<ReturnType<typeof startSampleHosts>> | undefined;
  const started = new Set<ChildProcess>();
  let n = 0;

  function run(args: string[], kill?: string, db?: string): Promise<Ended> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      REVIEW_CORPUS_SALT: SAMPLE_SALT,
      REVIEW_CORPUS_CHECKPOINT_MS: '0',
    };
    if (kill) Object.assign(env, { RC_KILL: kill, RC_KILL_TARGET: db });
    const child = spawn(process.execPath, [...(kill ? ['--require', preload] : []), cli, ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    started.add(child);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })));
  }

  function copyOfBase(): string {
    const file = path.join(dir, `c${++n}.sqlite`);
    copyCorpus(base, file);
    return file;
  }

  async function opened(file: string): Promise<{ dump: string; builds: unknown[]; notices: string[] }> {
    const notices: string[] = [];
    const store = await CorpusStore.open(file, { onNotice: (m) => notices.push(m) });
    try {
      return {
        dump: canonicalDump(store),
        builds: store.all('SELECT id, corpus_hash FROM builds ORDER BY id'),
        notices,
      };
    } finally {
      store.close();
    }
  }

  before(async () => {
    bundlePrivateCli(outDir);
    writeFileSync(preload, KILL_IN_JOURNAL_PRELOAD);
    hosts = await startSampleHosts();
    dir = mkdtempSync(path.join(tmpdir(), 'rc-journal-kill-'));
    const oneHost = path.join(dir, 'one-host.json');
    allHosts = path.join(dir, 'all-hosts.json');
    writeFileSync(oneHost, JSON.stringify(sampleConfig(hosts.hosts.slice(0, 1)), null, 2));
    writeFileSync(allHosts, JSON.stringify(sampleConfig(hosts.hosts), null, 2));
    // The start of every test: one host fetched into a new file (saved in full: a new corpus has no base yet).
    base = path.join(dir, 'base.sqlite');
    const fetched = await run(['fetch', '--config', oneHost, '--db', base, '--quiet']);
    assert.equal(fetched.code, 0, fetched.stderr);
    assert.equal(existsSync(journalPath(base)), false);
  });

  after(async () => {
    for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await hosts?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  });

  let reference: { dump: string; builds: unknown[] };
  let journalled: string;

  it('a fetch into an existing corpus checkpoints into the journal, replayed by the CLI and at open', async () => {
    journalled = copyOfBase();
    const baseSize = statSync(journalled).size;
    const r = await run(['fetch', '--config', allHosts, '--db', journalled, '--quiet']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(journalPath(journalled)), 'the fetch wrote a journal');
    assert.equal(statSync(journalled).size, baseSize, 'and did not rewrite the file');
    const o = await opened(journalled);
    assert.deepEqual(o.notices, []);
    assert.match(o.dump, /## changes/);
    // The CLI reads it too: a build sees the journalled changes, and folds them into the file.
    const folded = path.join(dir, 'folded.sqlite');
    copyCorpus(journalled, folded);
    const b = await run(['build', '--db', folded]);
    assert.equal(b.code, 0, b.stderr);
    assert.equal(existsSync(journalPath(folded)), false, 'the build folded the journal');
    reference = await opened(folded);
    assert.equal(reference.dump, o.dump, 'the folded file holds what the journal held');
    assert.equal(reference.builds.length, 1);
  });

  for (const k of [1, 3, 8]) {
    it(`kill -9 in journal append ${k}: opens at the last whole record (torn tail counted), a re-run ends equal`, async () => {
      const file = copyOfBase();
      const killed = await run(['fetch', '--config', allHosts, '--db', file, '--quiet'], `append:${k}`, file);
      assert.ok(killed9(killed), `killed mid-append (stderr: ${killed.stderr})`);
      const after = await opened(file);
      assert.equal(after.notices.length, 1, after.notices.join('\n'));
      assert.match(after.notices[0], /dropped a torn tail of \d+ bytes after \d+ whole record/);
      const resumed = await run(['fetch', '--config', allHosts, '--db', file, '--quiet']);
      assert.equal(resumed.code, 0, resumed.stderr);
      const final = await opened(file);
      assert.deepEqual(final.notices, [], 'the resumed run wrote over the torn tail');
      assert.equal(final.dump, reference.dump);
    });
  }

  it('kill -9 in a fold before its rename: the file and journal stand as they were', async () => {
    const file = path.join(dir, 'fold-old.sqlite');
    copyCorpus(journalled, file);
    const killed = await run(['build', '--db', file], 'fold-rename', file);
    assert.ok(killed9(killed), `killed in the fold (${killed.code}, ${killed.signal}): ${killed.stderr}`);
    const o = await opened(file);
    assert.deepEqual(o.notices, []);
    assert.equal(o.dump, reference.dump);
    assert.deepEqual(o.builds, [], 'old: no build');
    const again = await run(['build', '--db', file]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual((await opened(file)).builds, reference.builds);
  });

  it('kill -9 in a fold after its rename: the new file, the stale journal ignored with a notice', async () => {
    const file = path.join(dir, 'fold-new.sqlite');
    copyCorpus(journalled, file);
    const killed = await run(['build', '--db', file], 'fold-remove', file);
    assert.ok(killed9(killed), `killed in the fold (${killed.code}, ${killed.signal}): ${killed.stderr}`);
    assert.ok(existsSync(journalPath(file)), 'the folded journal is still there');
    const o = await opened(file);
    assert.match(o.notices.join('\n'), /its base is not .* ignored/);
    assert.equal(o.dump, reference.dump);
    assert.deepEqual(o.builds, reference.builds, 'new: the build, once');
  });
});
