// `review-corpus judge` through dist/cli.js: a killed run resumes and ends with every comment judged
// once; --dry-run sends nothing; the key never reaches stdout, stderr or the file.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { readAllJudgments } from '../../src/core/build/judgments/judgmentStore';
import { startFakeJudge, type FakeJudge } from '../fake-judge/server';
import { populate } from './buildScenario';
import { testConfig } from './buildFixture';

const CLI = path.resolve('dist/cli.js');
const KEY = 'sk-cli-DISTINCTIVE-key-0b9e4d2a71';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

function judgeCli(args: string[], opts: { killAfter?: { judge: FakeJudge; count: number } } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'judge', ...args], {
      env: { ...process.env, REVIEW_CORPUS_JUDGE_KEY: KEY, REVIEW_CORPUS_CHECKPOINT_MS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    let timer: NodeJS.Timeout | undefined;
    if (opts.killAfter) {
      const { judge, count } = opts.killAfter;
      const start = judge.requests.length;
      timer = setInterval(() => {
        if (judge.requests.length - start >= count) {
          clearInterval(timer);
          child.kill('SIGKILL');
        }
      }, 2);
    }
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (timer) clearInterval(timer);
      resolve({ code, signal, out, err });
    });
  });
}

describe('review-corpus judge (CLI)', function () {
  this.timeout(60_000);
  let dir: string;
  let fake: FakeJudge;
  let configFile: string;

  before(async function () {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
    // Every answer is slow, so a kill lands while requests are in flight.
    fake = await startFakeJudge({ faults: [{ kind: 'slow', delayMs: 120, times: 1_000_000 }] });
    dir = mkdtempSync(path.join(tmpdir(), 'rc-judge-cli-'));
    configFile = path.join(dir, 'corpus.json');
    writeFileSync(
      configFile,
      JSON.stringify(
        testConfig({
          judge: {
            endpoint: fake.url,
            model: 'fake-1',
            apiKeyEnv: 'REVIEW_CORPUS_JUDGE_KEY',
            thresholds: { irrelevantBelow: 4, clarityMin: 7, concisenessMin: 7 },
            irrelevantComment: false,
            temperature: 0,
            maxTokens: 256,
          },
        }),
      ),
    );
  });
  after(async () => fake?.close());

  async function corpus(name: string): Promise<string> {
    const file = path.join(dir, name);
    const { store } = await populate(file);
    await runBuild(store);
    store.save();
    store.close();
    return file;
  }

  it('resumes after kill -9: the final file holds every comment judged, each text asked once overall', async () => {
    const db = await corpus('killed.sqlite');
    const before = fake.requests.length;
    const killed = await judgeCli(['--db', db, '--config', configFile], { killAfter: { judge: fake, count: 3 } });
    assert.equal(killed.signal, 'SIGKILL', `the run was killed (stderr: ${killed.err})`);
    const partial = await CorpusStore.open(db);
    const saved = readAllJudgments(partial).length;
    partial.close();
    assert.ok(saved >= 1 && saved < 9, `some judgments were saved before the kill (${saved})`);
    const final = await judgeCli(['--db', db, '--config', configFile]);
    assert.equal(final.code, 0, final.err);
    const store = await CorpusStore.open(db);
    const all = readAllJudgments(store);
    store.close();
    assert.equal(new Set(all.map((j) => j.commentKey)).size, all.length);
    assert.equal(all.length, 9);
    // At most the request in flight at the kill is asked twice.
    const sent = fake.requests.length - before;
    assert.ok(sent <= 8 + 1, `sent ${sent}`);
    assert.match(final.out, /cache hits/);
    for (const text of [killed.out, killed.err, final.out, final.err]) assert.ok(!text.includes(KEY));
    assert.equal(readFileSync(db).indexOf(Buffer.from(KEY)), -1);
  });

  it('--dry-run sends nothing and prints the estimate; --json prints the counts', async () => {
    const db = await corpus('dry.sqlite');
    const before = fake.requests.length;
    const r = await judgeCli(['--db', db, '--config', configFile, '--dry-run']);
    assert.equal(r.code, 0, r.err);
    assert.equal(fake.requests.length, before);
    assert.match(r.out, /dry run, nothing sent\): 9 comments, 0 already stored, 8 requests to send/);
    assert.match(r.out, /not counted/);
    const j = await judgeCli(['--db', db, '--report', '--json']);
    assert.equal(j.code, 0, j.err);
    const parsed = JSON.parse(j.out) as {
      quality: { judged: boolean; rows: { counts: Record<string, number | null> }[] };
    };
    assert.equal(parsed.quality.judged, false);
    assert.ok(parsed.quality.rows.every((row) => Object.values(row.counts).every((v) => v === null)));
  });

  it('without an endpoint, says there is no local default judge, in one line', async () => {
    const db = await corpus('none.sqlite');
    const r = await judgeCli(['--db', db]);
    assert.notEqual(r.code, 0);
    assert.equal(r.err.trim().split('\n').length, 1);
    assert.match(r.err, /no endpoint.*no local default judge/);
  });
});
