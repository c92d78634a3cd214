// Kill -9 the CLI fetch at several points; re-running continues where it stopped, losing nothing
// and duplicating nothing: the final file equals an uninterrupted run's (canonical dump).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSampleHosts, type FakeGerrit } from '../fake-gerrit/server';
import { sampleConfig, sampleHostSetup, SAMPLE_SALT } from '../../scripts/sample-corpus';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { canonicalDump } from './support/canonicalDump';

const CLI = path.resolve('dist/cli.js');

function runFetch(
  configFile: string,
  db: string,
  killAfterRequests?: { hosts: FakeGerrit[]; count: number },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'fetch', '--config', configFile, '--db', db, '--quiet'], {
      env: { ...process.env, REVIEW_CORPUS_SALT: SAMPLE_SALT, REVIEW_CORPUS_CHECKPOINT_MS: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    let timer: NodeJS.Timeout | undefined;
    if (killAfterRequests) {
      const start = killAfterRequests.hosts.reduce((n, h) => n + h.requests.length, 0);
      timer = setInterval(() => {
        const seen = killAfterRequests.hosts.reduce((n, h) => n + h.requests.length, 0) - start;
        if (seen >= killAfterRequests.count) {
          clearInterval(timer);
          child.kill('SIGKILL');
        }
      }, 2);
    }
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (timer) clearInterval(timer);
      resolve({ code, signal, stderr });
    });
  });
}

describe('fetch: kill -9 and resume', function () {
  this.timeout(120_000);
  let sample: Awaited<ReturnType<typeof startSampleHosts>>;
  let dir: string;
  let configFile: string;
  let reference: string;

  before(async function () {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
    const setup = sampleHostSetup();
    // Every response is a little slow, so kills land between and inside requests.
    const slow = { route: /./, kind: 'slow' as const, delayMs: 15, times: 1_000_000 };
    const faults = Object.fromEntries(
      ['openstack', 'qt', 'wikimedia'].map((org) => [org, [...(setup.faults[org] ?? []), slow]]),
    );
    sample = await startSampleHosts({ ...setup, faults });
    dir = mkdtempSync(path.join(tmpdir(), 'rc-resume-'));
    configFile = path.join(dir, 'corpus.json');
    writeFileSync(configFile, JSON.stringify(sampleConfig(sample.hosts)));
    const db = path.join(dir, 'uninterrupted.sqlite');
    const r = await runFetch(configFile, db);
    assert.equal(r.code, 0, r.stderr);
    const store = await CorpusStore.open(db);
    reference = canonicalDump(store);
    store.close();
  });
  after(async () => sample?.close());

  for (const killAt of [[3], [12], [40], [8, 30, 60]]) {
    it(`ends equal to an uninterrupted run after kills at request(s) ${killAt.join(', ')}`, async () => {
      const db = path.join(dir, `killed-${killAt.join('-')}.sqlite`);
      for (const count of killAt) {
        const r = await runFetch(configFile, db, { hosts: sample.hosts, count });
        assert.equal(r.signal, 'SIGKILL', `the run was killed (stderr: ${r.stderr})`);
      }
      const final = await runFetch(configFile, db);
      assert.equal(final.code, 0, final.stderr);
      const store = await CorpusStore.open(db);
      const dump = canonicalDump(store);
      store.close();
      assert.equal(dump, reference);
    });
  }
});
