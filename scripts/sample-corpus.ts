// Builds the sample corpus through the real pipeline: fabricated fixtures served by loopback fake
// Gerrit hosts (test/fake-gerrit), fetched with the real client, built with the real rules.
// The set-up that makes every rule fire (a robots.txt disallow, two persistent faults, the bot lists
// and templates, one confirmed flag) comes from the fixtures' SCENARIO.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startSampleHosts, type FakeGerrit } from '../test/fake-gerrit/server';
import { SCENARIO, scenarioQuery } from '../test/fake-gerrit/fixtures/expectations';
import { CorpusStore } from '../src/core/ground/store/corpusStore';
import { validateCorpusConfig } from '../src/core/rules/corpusJson/loadConfig';
import { PRODUCT_START, PRODUCT_WINDOWS, type CorpusConfig } from '../src/core/ground/config/types';
import { fetchCorpus } from '../src/core/gerrit/fetchCorpus';
import { runBuild } from '../src/core/build/stages/runBuild';
import { decideFlag } from '../src/core/build/flags/flagDecisions';
import { localUserPseudonym } from '../src/core/ground/privacy/localUser';
import { parseReferences, registerReferenceSet } from '../src/core/rules/decontam/referenceSets';
import { registerHalves } from '../src/core/build/halves/halvesRegistry';
import { auditItems, drawAuditSample } from '../src/core/review/labels/auditSample';
import { importRaterLabels } from '../src/core/review/labels/importLabels';
import { setLabel, type Label } from '../src/core/review/labels/labels';
import {
  FABRICATED_BENCHMARK_TEST_JSONL,
  FABRICATED_BENCHMARK_TEST_NAME,
} from '../test/fixtures/protected/fabricatedBenchmarkTest';
import { defaultAnswer, startFakeJudge } from '../test/fake-judge/server';
import { runJudge } from '../src/core/review/judge/runJudge';
import { runRewrite } from '../src/core/review/judge/runRewrite';

/** A fabricated "other benchmark's test split" (test/fixtures/protected/README.md): one item overlaps a train example. */
export const SAMPLE_PROTECTED_SET = FABRICATED_BENCHMARK_TEST_NAME;
/** A project of the sample blocklisted at collection (blocklisted_project): its one change, a dev example, goes. */
export const SAMPLE_BLOCKLISTED_PROJECT = 'mediawiki/extensions/FxDocs';

/** Fabricated: protects nothing; real corpora take their salt from the environment or SecretStorage. */
export const SAMPLE_SALT = 'sample-salt-fabricated-not-secret';

/** The Qt change the sample's listing reports with total_comment_count 0 although it has a comment. */
export const SAMPLE_STALE_COUNT = 600108;

export function sampleHostSetup() {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const d = SCENARIO.diffFetchError;
  return {
    robotsTxt: {
      [SCENARIO.disallowed.org]: `User-agent: *\nCrawl-delay: 0\nDisallow: /changes/${SCENARIO.disallowed.change}/\n`,
    },
    faults: {
      [SCENARIO.commentsFetchError.org]: [
        {
          route: new RegExp(`^/changes/${SCENARIO.commentsFetchError.change}/comments`),
          kind: '500' as const,
          times: 1_000_000,
        },
      ],
      [d.org]: [
        {
          route: new RegExp(
            `^/changes/${d.change}/revisions/${d.base + 1}/files/${escape(encodeURIComponent(d.path))}/diff`,
          ),
          kind: '500' as const,
          times: 1_000_000,
        },
      ],
    },
    // Qt's listing says 0 for a change that has a comment (a stale index entry), so its comment-count
    // probe fails and Qt is fetched without the shortcut: no_comments reads "not counted" there, while
    // openstack's and wikimedia's probes hold.
    staleCommentCounts: { qt: [SAMPLE_STALE_COUNT] },
  };
}

export function sampleConfig(hosts: FakeGerrit[]): CorpusConfig {
  return validateCorpusConfig(
    {
      name: 'sample',
      db: 'corpus.sqlite',
      start: PRODUCT_START,
      salt: { env: 'REVIEW_CORPUS_SALT' },
      windows: PRODUCT_WINDOWS.map((w) => ({ ...w })),
      hosts: hosts.map((h) => ({
        org: h.org,
        url: h.url,
        query: scenarioQuery(h.org),
        minIntervalMs: 0,
        pageSize: 10,
        botAccounts: SCENARIO.botAccounts[h.org] ?? [],
        botTemplates: SCENARIO.botTemplates,
      })),
      rules: { projectBlocklist: [SAMPLE_BLOCKLISTED_PROJECT] },
      halves: { window: 'train', by: 'hash', salt: 'sample-halves' },
      // The judge's answers come from the fake judge (test/fake-judge), fabricated. No endpoint: the sample's
      // judgments are already in the file. irrelevant_comment stays off, its default (test/unit/judgeRule.test.ts
      // shows it on): on, it would drop SAMPLE_IRRELEVANT_COMMENT, which the host-text tests read.
      judge: { model: SAMPLE_JUDGE_MODEL, pricePer1kTokens: { prompt: 0.001, completion: 0.002 } },
    },
    'sample corpus.json',
  );
}

/** Fetches and builds the sample into `folder` (corpus.json + corpus.sqlite). Hosts stay up if asked. */
export async function buildSampleCorpus(
  folder: string,
  opts: { keepHostsRunning?: boolean; log?: (l: string) => void } = {},
) {
  const log = opts.log ?? (() => undefined);
  const setup = sampleHostSetup();
  const sample = await startSampleHosts(setup);
  try {
    const config = sampleConfig(sample.hosts);
    mkdirSync(folder, { recursive: true });
    const dbFile = path.join(folder, config.db);
    rmSync(dbFile, { force: true });
    writeFileSync(path.join(folder, 'corpus.json'), JSON.stringify(config, null, 2) + '\n');
    const store = await CorpusStore.create(dbFile);
    const fetched = await fetchCorpus(store, config, {
      salt: SAMPLE_SALT,
      clientOptions: { baseBackoffMs: 5, maxBackoffMs: 20, maxRetries: 1 },
    });
    log(`fetched: ${fetched.hosts.map((h) => `${h.org} ${h.changesDone} changes`).join(', ')}`);
    // As `review-corpus protect` registers it; a fixed time, so the golden funnel stays put.
    store.transaction(() =>
      registerReferenceSet(
        store,
        SAMPLE_PROTECTED_SET,
        parseReferences(FABRICATED_BENCHMARK_TEST_JSONL, `${SAMPLE_PROTECTED_SET}.jsonl`),
        { at: '2026-11-30T11:00:00.000Z' },
      ),
    );
    const first = await runBuild(store);
    await judgeSample(store, config);
    seedLabelAudit(store, first.buildId);
    // As `review-corpus halves register --org` records them (a fixed time, for the golden funnel): the
    // second build is checked against the first build's halves. wikimedia's half b is empty in the
    // first build, so registering it would be refused (a size floor of 0); it stays unregistered.
    for (const org of ['openstack', 'qt'])
      store.transaction(() => registerHalves(store, { org, buildId: first.buildId, at: '2026-11-30T11:30:00.000Z' }));
    confirmScenarioFlag(store, first.buildId);
    const second = await runBuild(store);
    store.save();
    log(
      `built: build ${first.buildId} kept ${first.kept}; build ${second.buildId} (with the confirmed flag) kept ${second.kept}`,
    );
    store.close();
    return { config, configFile: path.join(folder, 'corpus.json'), dbFile, close: sample.close, hosts: sample.hosts };
  } finally {
    if (!opts.keepHostsRunning) await sample.close();
  }
}

/** The fabricated judge model of the sample's judgments and rewrites. */
export const SAMPLE_JUDGE_MODEL = 'fabricated-judge-1';
/** The one sample comment the fake judge finds irrelevant (the quality counts show it; its example keeps another comment). */
export const SAMPLE_IRRELEVANT_COMMENT = { org: 'openstack', change: 930013, comment: 'os930013_c02' };

/**
 * Judges the first build's kept comments with the fake judge (scores from each comment's hash, never
 * below 4 but for SAMPLE_IRRELEVANT_COMMENT's), then rewrites them CuREV and CuREV+ style, at a fixed
 * time, so the second build's irrelevant_comment, the quality counts and the diversity of rewrites show.
 */
function sampleAnswer(comment: string): Record<string, unknown> {
  const a = defaultAnswer(comment) as { relevance: number; clarity: number; conciseness: number };
  // About half clear and concise, so CuREV+ has high-quality train exemplars to draw from.
  const good = a.clarity + a.conciseness >= 10;
  return {
    relevance: comment.startsWith('# heading') ? 2 : Math.max(4, a.relevance),
    ...(good ? { clarity: Math.max(7, a.clarity), conciseness: Math.max(7, a.conciseness), civility: 'Civil' } : {}),
  };
}

async function judgeSample(store: CorpusStore, config: CorpusConfig): Promise<void> {
  const judge = await startFakeJudge({ answerFor: sampleAnswer });
  try {
    const opts = { endpoint: judge.url, checkpoint: () => undefined, now: () => '2026-11-30T11:15:00.000Z' };
    await runJudge(store, config, opts);
    await runRewrite(store, config, { ...opts, mode: 'curev' });
    await runRewrite(store, config, { ...opts, mode: 'curev+', seed: 'sample' });
  } finally {
    await judge.close();
  }
}

/** A rater confirms a flag on the SCENARIO's example, so manual_flag removes it at the next build. */
function confirmScenarioFlag(store: CorpusStore, buildId: number): void {
  const m = SCENARIO.manualFlag;
  const key = store.scalar(
    `SELECT e.example_key FROM examples e JOIN example_comments x ON x.example_id = e.id JOIN comments c ON c.id = x.comment_id
     JOIN changes ch ON ch.id = e.change_id WHERE e.build_id = ? AND c.gerrit_id = ? AND ch.number = ?`,
    [buildId, m.comment, m.change],
  );
  if (typeof key !== 'string') throw new Error(`sample: no example holds ${m.comment}`);
  // Stored as a detector stores a flag, then confirmed as Confirm Flag and `flags set` confirm one.
  const flagId = store.insert("INSERT INTO flags(example_key, reason, detail) VALUES (?, 'manual', ?)", [
    key,
    JSON.stringify({ reason: 'manual', detail: 'confirmed by the sample rater' }),
  ]);
  store.transaction(() =>
    decideFlag(store, flagId, 'confirmed', localUserPseudonym(SAMPLE_SALT, 'sample-rater'), '2026-11-30T12:00:00.000Z'),
  );
}

/** The sample's label audit: drawn from the first build, read against the second (as an audit of v2 is read again on v3). */
export const SAMPLE_AUDIT = {
  size: 12,
  seed: 'sample-audit',
  modelRater: 'fabricated-model-rater-1',
  humanUser: 'sample-rater',
} as const;

/**
 * Draws the audit sample and gives it two raters, so the label audit shows: a model rater (its name a
 * model id, fabricated) labels every item, the sample rater (a human pseudonym, as the inspector
 * stores it) two thirds of them. The labels are fabricated by position, not by reading the items.
 */
function seedLabelAudit(store: CorpusStore, buildId: number): void {
  const at = '2026-11-30T12:30:00.000Z';
  store.transaction(() => {
    const sample = drawAuditSample(store, { buildId, size: SAMPLE_AUDIT.size, seed: SAMPLE_AUDIT.seed, at });
    const items = auditItems(store, sample.id);
    const model = items.map((it, i): { line: number; exampleKey: string; label: Label } => ({
      line: i + 1,
      exampleKey: it.exampleKey,
      label: i % 5 === 4 ? 'does_not' : 'answers',
    }));
    importRaterLabels(store, SAMPLE_AUDIT.modelRater, 'model', model, 'sample model labels', at);
    const human = localUserPseudonym(SAMPLE_SALT, SAMPLE_AUDIT.humanUser);
    items
      .slice(0, Math.ceil((items.length * 2) / 3))
      .forEach((it, i) =>
        setLabel(store, it.exampleKey, human, i % 4 === 3 ? 'does_not' : i % 7 === 6 ? 'unsure' : 'answers', at),
      );
  });
}
