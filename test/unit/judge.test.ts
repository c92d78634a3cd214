// The judge through its real path: HTTP over loopback to a fake OpenAI-compatible server, judgments
// saved into a real sql.js file on disk, read back after reopening it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { runJudge } from '../../src/core/review/judge/runJudge';
import { runRewrite } from '../../src/core/review/judge/runRewrite';
import { readAllJudgments, readJudgments, readRewrites } from '../../src/core/build/judgments/judgmentStore';
import { qualityReport, qualityTable } from '../../src/core/review/judge/report';
import { judgeItems } from '../../src/core/review/judge/judgeItems';
import { latestBuildId } from '../../src/core/review/inspect/groups';
import { exportCorpus } from '../../src/core/publish/export/exportJsonl';
import { startFakeJudge, type Fault, type FakeJudge } from '../fake-judge/server';
import { populate } from './buildScenario';
import { testConfig } from './buildFixture';
import type { CorpusConfig } from '../../src/core/ground/config/types';

const KEY = 'sk-test-DISTINCTIVE-judge-key-7f3a9c41e2';
const MODEL = 'fake-judge-1';

async function builtCorpus(): Promise<string> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'rc-judge-')), 'corpus.sqlite');
  const { store } = await populate(file);
  await runBuild(store);
  store.save();
  store.close();
  return file;
}

function judgeConfig(judge: FakeJudge, over: Partial<NonNullable<CorpusConfig['judge']>> = {}): CorpusConfig {
  return testConfig({
    judge: {
      endpoint: judge.url,
      model: MODEL,
      apiKeyEnv: 'REVIEW_CORPUS_JUDGE_KEY',
      pricePer1kTokens: { prompt: 0.5, completion: 1.5 },
      thresholds: { irrelevantBelow: 4, clarityMin: 7, concisenessMin: 7 },
      irrelevantComment: false,
      temperature: 0,
      maxTokens: 512,
      ...over,
    },
  });
}

/** One judge run on the file, as the CLI does it: open, judge, save as it goes, close. */
async function judgeFile(file: string, config: CorpusConfig, opts: Partial<Parameters<typeof runJudge>[2]> = {}) {
  const store = await CorpusStore.open(file);
  try {
    return await runJudge(store, config, {
      apiKey: KEY,
      checkpoint: () => store.save(),
      checkpointEveryMs: 0,
      ...opts,
    });
  } finally {
    store.close();
  }
}

async function withStore<T>(file: string, f: (s: CorpusStore) => T | Promise<T>): Promise<T> {
  const store = await CorpusStore.open(file);
  try {
    return await f(store);
  } finally {
    store.close();
  }
}

describe('judge: an OpenAI-compatible judge over loopback', function () {
  this.timeout(30_000);
  let fake: FakeJudge | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  const start = async (faults: Fault[] = []) => (fake = await startFakeJudge({ faults }));

  it('judges every kept comment, stores each in the file, and a second run sends nothing (cache hits)', async () => {
    const file = await builtCorpus();
    const judge = await start();
    const items = await withStore(file, (s) => judgeItems(s, latestBuildId(s)!));
    const kept = items.length;
    // The same pair kept in two organizations (openstack #120, qt #201): one text on one hunk, asked once.
    const distinct = new Set(items.map((i) => `${i.comment}\0${i.hunk}`)).size;
    assert.ok(kept >= 3 && distinct < kept, `the scenario keeps several comments (${kept}), two alike`);
    const first = await judgeFile(file, judgeConfig(judge));
    assert.equal(first.dryRun, false);
    assert.equal(judge.requests.length, distinct);
    assert.equal(first.total, kept);
    assert.equal(first.cacheHits, 0);
    const stored = await withStore(file, (s) => readJudgments(s, { model: MODEL }));
    assert.equal(stored.size, kept);
    for (const j of stored.values()) {
      assert.equal(j.status, 'judged');
      assert.ok(j.answer && j.answer.relevance >= 1 && j.answer.relevance <= 10);
      assert.ok((j.promptTokens ?? 0) > 0 && (j.completionTokens ?? 0) > 0);
    }
    // Every request forced the JSON schema and carried the key as a bearer token.
    for (const r of judge.requests) {
      assert.equal((r.body.response_format as { type: string }).type, 'json_schema');
      assert.equal(r.authorization, `Bearer ${KEY}`);
    }
    const second = await judgeFile(file, judgeConfig(judge));
    assert.equal(judge.requests.length, distinct, 'nothing sent again');
    assert.equal(second.cacheHits, kept);
    assert.equal(second.dryRun === false && second.sent, 0);
    // Another model is another cache key: it is asked afresh.
    await judgeFile(file, judgeConfig(judge, { model: 'other-model' }));
    assert.equal(judge.requests.length, 2 * distinct);
  });

  it('--dry-run sends nothing and counts the requests, tokens and cost', async () => {
    const file = await builtCorpus();
    const judge = await start();
    const r = await judgeFile(file, judgeConfig(judge), { dryRun: true });
    assert.equal(judge.requests.length, 0);
    assert.ok(r.dryRun);
    if (!r.dryRun) return;
    assert.equal(r.requests, r.total - 1, 'the two alike comments are one request');
    assert.ok(r.estimatedPromptTokens > 0);
    assert.equal(r.estimatedCompletionTokens, r.requests * 512);
    assert.ok(r.estimatedCost !== null && r.estimatedCost > 0);
    assert.equal(await withStore(file, (s) => readAllJudgments(s).length), 0);
  });

  it('waits out a 429 with Retry-After and retries a 500, then stores the answers', async () => {
    const file = await builtCorpus();
    const judge = await start([
      { kind: '429', retryAfterS: 0, times: 1 },
      { kind: '500', times: 1 },
    ]);
    const r = await judgeFile(file, judgeConfig(judge));
    assert.ok(!r.dryRun);
    if (r.dryRun) return;
    assert.equal(r.retries, 2);
    assert.equal(r.failed, 0);
    assert.equal(judge.requests.filter((q) => q.status === 429).length, 1);
    assert.equal(await withStore(file, (s) => readJudgments(s).size), r.total);
  });

  it('retries an invalid answer once; invalid twice is stored and counted as unjudged, and not re-sent unless asked', async () => {
    const file = await builtCorpus();
    // One comment's first answer is cut JSON (then fine); another's breaks the schema twice.
    const judge = await start([
      { kind: 'malformed', comment: /clearer name/, times: 1 },
      { kind: 'schema', comment: /Drop the CR/, times: 2 },
    ]);
    const r = await judgeFile(file, judgeConfig(judge));
    if (r.dryRun) throw new Error('not a dry run');
    assert.equal(r.invalid, 1);
    assert.equal(
      r.sent,
      r.total - 1 + 2,
      'one retry for each invalid first answer (the two alike comments are one request)',
    );
    const stored = await withStore(file, (s) => readJudgments(s));
    const cr = [...stored.values()].find((j) => j.commentKey.endsWith('/c-crlf'))!;
    assert.equal(cr.status, 'unjudged');
    assert.equal(cr.answer, undefined);
    assert.match(cr.error!, /breaks the schema/);
    // The retry says what was wrong with the first answer.
    const asked = judge.requests.filter((q) => /Drop the CR/.test(q.comment));
    assert.equal(asked.length, 2);
    assert.match(asked[1].body.messages!.at(-1)!.content, /not valid: the answer breaks the schema/);
    assert.equal(asked[1].body.messages!.at(-2)!.role, 'assistant');
    assert.equal([...stored.values()].find((j) => j.commentKey.endsWith('/c-kept'))!.status, 'judged');
    const report = await withStore(file, (s) => qualityReport(s, judgeConfig(judge)));
    assert.equal(
      report.rows.reduce((n, row) => n + (row.counts.unjudged ?? 0), 0),
      1,
    );

    const again = await judgeFile(file, judgeConfig(judge));
    assert.equal(again.dryRun === false && again.sent, 0);
    const retried = await judgeFile(file, judgeConfig(judge), { retryUnjudged: true });
    assert.equal(retried.dryRun === false && retried.sent, 1);
    assert.equal((await withStore(file, (s) => readJudgments(s))).get(cr.commentKey)!.status, 'judged');
  });

  it('stops cleanly at --max-tokens-total and says so; the next run continues', async () => {
    const file = await builtCorpus();
    const judge = await start();
    const r = await judgeFile(file, judgeConfig(judge), { maxTokensTotal: 1 });
    if (r.dryRun) throw new Error('not a dry run');
    assert.equal(r.stopped, 'max-tokens-total');
    assert.equal(judge.requests.length, 1);
    const rest = await judgeFile(file, judgeConfig(judge));
    assert.equal(rest.dryRun === false && rest.cacheHits, 1);
    assert.equal(judge.requests.length, r.total - 1);
    assert.equal(await withStore(file, (s) => readJudgments(s).size), r.total);
  });

  it('a slow answer is waited for', async () => {
    const file = await builtCorpus();
    const judge = await start([{ kind: 'slow', delayMs: 300 }]);
    const r = await judgeFile(file, judgeConfig(judge));
    assert.equal(r.dryRun === false && r.stored, r.total);
  });

  it('writes neither the key nor any account identity to the file', async () => {
    const file = await builtCorpus();
    const judge = await start([{ kind: 'schema', times: 2 }]);
    await judgeFile(file, judgeConfig(judge));
    const bytes = readFileSync(file);
    assert.equal(bytes.indexOf(Buffer.from(KEY)), -1, 'the key is not in the file');
    assert.equal(bytes.indexOf(Buffer.from('DISTINCTIVE-judge-key')), -1);
    await withStore(file, (s) => {
      const pseudonyms = s.all<{ pseudonym: string }>('SELECT pseudonym FROM accounts').map((a) => a.pseudonym);
      const tables = ['judgments', 'comment_rewrites', 'quality_labels'];
      for (const t of tables) {
        const text = JSON.stringify(s.all(`SELECT * FROM ${t}`));
        for (const p of pseudonyms) assert.ok(!text.includes(p), `${t} holds no account (${p})`);
        assert.ok(!text.includes(KEY));
      }
    });
  });

  it('reports quality per organization, window and half; "not counted" when no judge ran', async () => {
    const file = await builtCorpus();
    const none = await withStore(file, (s) => qualityReport(s));
    assert.equal(none.judged, false);
    for (const row of none.rows) for (const v of Object.values(row.counts)) assert.equal(v, null);
    assert.ok(qualityTable(none).some((l) => l.includes('not counted')));
    assert.ok(
      !qualityTable(none)
        .slice(1)
        .some((l) => /\t0(\t|$)/.test(l)),
      'never 0 for not counted',
    );

    const judge = await start();
    await judgeFile(file, judgeConfig(judge));
    const r = await withStore(file, (s) => qualityReport(s, judgeConfig(judge)));
    assert.equal(r.judged, true);
    for (const row of r.rows) {
      const sum = Object.values(row.counts).reduce<number>((n, v) => n + (v ?? 0), 0);
      assert.equal(sum, row.comments);
    }
    assert.ok(r.rows.some((row) => row.org === 'openstack' && row.window === 'pilot'));
  });

  it('reformulates: curev every relevant comment, curev+ only low-quality ones with seeded train exemplars', async () => {
    const file = await builtCorpus();
    // Scores by comment, so the classes are known: one irrelevant, one high (train), the rest low.
    const fake2 = await startFakeJudge({
      answerFor: (c) =>
        /clearer name/.test(c)
          ? { relevance: 2 }
          : /Drop the CR/.test(c)
            ? { relevance: 9, clarity: 9, conciseness: 9, civility: 'Civil' }
            : { relevance: 8, clarity: 5, conciseness: 5 },
    });
    fake = fake2;
    const config = judgeConfig(fake2);
    await judgeFile(file, config);
    const total = (await withStore(file, (s) => readJudgments(s))).size;
    const sentBefore = fake2.requests.length;
    const curev = await withStore(file, (s) =>
      runRewrite(s, config, { mode: 'curev', apiKey: KEY, checkpoint: () => s.save(), checkpointEveryMs: 0 }),
    );
    assert.equal(curev.total, total - 1, 'every relevant comment');
    const plus = await withStore(file, (s) =>
      runRewrite(s, config, {
        mode: 'curev+',
        apiKey: KEY,
        seed: '7',
        checkpoint: () => s.save(),
        checkpointEveryMs: 0,
      }),
    );
    assert.equal(plus.total, total - 2, 'only the low-quality ones');
    const plusRequests = fake2.requests.slice(sentBefore + curev.total);
    assert.ok(
      plusRequests.every((q) =>
        q.body.messages!.some(
          (m) => m.content.includes('Examples of good review comments') && m.content.includes('Drop the CR'),
        ),
      ),
    );
    await withStore(file, async (s) => {
      const both = readRewrites(s);
      assert.ok(both.size > 0);
      const plusRows = readRewrites(s, { mode: 'curev+' });
      for (const r of plusRows.values()) assert.ok(r.exemplarKeys.every((k) => k.endsWith('/c-crlf')));
      // The original comment is untouched.
      assert.equal(
        s.scalar("SELECT message FROM comments WHERE gerrit_id = 'c-kept'"),
        'Please use a clearer name here',
      );
      // The JSONL export carries the rewrites beside the original, from the next build (a build's
      // records are what it published; rewrites made since are inputs of the next one).
      await runBuild(s);
      const out = path.join(path.dirname(file), 'examples.jsonl');
      exportCorpus(s, out);
      const comments = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .flatMap(
          (l) =>
            (JSON.parse(l) as { comments: { message: string; rewritten_comment?: Record<string, string> }[] }).comments,
        );
      const rewritten = comments.filter((c) => c.rewritten_comment);
      assert.ok(rewritten.length > 0);
      for (const c of rewritten)
        assert.ok(
          c.rewritten_comment!.curev!.includes(
            c.message
              .replace(/^please\s+/i, '')
              .trim()
              .slice(0, 10),
          ) && c.message.length > 0,
        );
      assert.ok(rewritten.some((c) => c.rewritten_comment!['curev+']));
      assert.ok(
        !comments.find((c) => c.message === 'Please use a clearer name here')?.rewritten_comment,
        'the irrelevant one is not rewritten',
      );
    });
  });
});
