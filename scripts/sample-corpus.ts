// Builds the sample corpus through the real pipeline: fabricated fixtures served by loopback fake
// Gerrit hosts (test/fake-gerrit), fetched with the real client, built with the real rules.
// The set-up that makes every rule fire (a robots.txt disallow, two persistent faults, the bot lists
// and templates, one confirmed flag) comes from the fixtures' SCENARIO.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startSampleHosts, type FakeGerrit } from '../test/fake-gerrit/server';
import { SCENARIO, scenarioQuery } from '../test/fake-gerrit/fixtures/expectations';
import { CorpusStore } from '../src/core/store/corpusStore';
import { validateCorpusConfig } from '../src/core/config/loadConfig';
import { PRODUCT_START, PRODUCT_WINDOWS, type CorpusConfig } from '../src/core/config/types';
import { fetchCorpus } from '../src/core/gerrit/fetchCorpus';
import { runBuild } from '../src/core/corpusBuild/runBuild';
import { localUserPseudonym } from '../src/core/privacy/localUser';
import { parseReferences, registerReferenceSet } from '../src/core/decontam/referenceSets';
import { FABRICATED_BENCHMARK_TEST_JSONL, FABRICATED_BENCHMARK_TEST_NAME } from '../test/fixtures/protected/fabricatedBenchmarkTest';

/** A fabricated "other benchmark's test split" (test/fixtures/protected/README.md): one item overlaps a train example. */
export const SAMPLE_PROTECTED_SET = FABRICATED_BENCHMARK_TEST_NAME;
/** A project of the sample blocklisted at collection (blocklisted_project): its one change, a dev example, goes. */
export const SAMPLE_BLOCKLISTED_PROJECT = 'mediawiki/extensions/FxDocs';

/** Fabricated: protects nothing; real corpora take their salt from the environment or SecretStorage. */
export const SAMPLE_SALT = 'sample-salt-fabricated-not-secret';

export function sampleHostSetup() {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const d = SCENARIO.diffFetchError;
  return {
    robotsTxt: { [SCENARIO.disallowed.org]: `User-agent: *\nCrawl-delay: 0\nDisallow: /changes/${SCENARIO.disallowed.change}/\n` },
    faults: {
      [SCENARIO.commentsFetchError.org]: [{ route: new RegExp(`^/changes/${SCENARIO.commentsFetchError.change}/comments`), kind: '500' as const, times: 1_000_000 }],
      [d.org]: [{ route: new RegExp(`^/changes/${d.change}/revisions/${d.base + 1}/files/${escape(encodeURIComponent(d.path))}/diff`), kind: '500' as const, times: 1_000_000 }],
    },
  };
}

export function sampleConfig(hosts: FakeGerrit[]): CorpusConfig {
  return validateCorpusConfig({
    name: 'sample',
    db: 'corpus.sqlite',
    start: PRODUCT_START,
    salt: { env: 'REVIEW_CORPUS_SALT' },
    windows: PRODUCT_WINDOWS.map((w) => ({ ...w })),
    hosts: hosts.map((h) => ({
      org: h.org, url: h.url, query: scenarioQuery(h.org), minIntervalMs: 0, pageSize: 10,
      botAccounts: SCENARIO.botAccounts[h.org] ?? [], botTemplates: SCENARIO.botTemplates,
    })),
    rules: { projectBlocklist: [SAMPLE_BLOCKLISTED_PROJECT] },
    halves: { window: 'train', by: 'hash', salt: 'sample-halves' },
  }, 'sample corpus.json');
}

/** Fetches and builds the sample into `folder` (corpus.json + corpus.sqlite). Hosts stay up if asked. */
export async function buildSampleCorpus(folder: string, opts: { keepHostsRunning?: boolean; log?: (l: string) => void } = {}) {
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
    const fetched = await fetchCorpus(store, config, { salt: SAMPLE_SALT, clientOptions: { baseBackoffMs: 5, maxBackoffMs: 20, maxRetries: 1 } });
    log(`fetched: ${fetched.hosts.map((h) => `${h.org} ${h.changesDone} changes`).join(', ')}`);
    // As `review-corpus protect` registers it; a fixed time, so the golden funnel stays put.
    store.transaction(() => registerReferenceSet(store, SAMPLE_PROTECTED_SET, parseReferences(FABRICATED_BENCHMARK_TEST_JSONL, `${SAMPLE_PROTECTED_SET}.jsonl`), { at: '2026-11-30T11:00:00.000Z' }));
    const first = await runBuild(store);
    confirmScenarioFlag(store, first.buildId);
    const second = await runBuild(store);
    store.save();
    log(`built: build ${first.buildId} kept ${first.kept}; build ${second.buildId} (with the confirmed flag) kept ${second.kept}`);
    store.close();
    return { config, configFile: path.join(folder, 'corpus.json'), dbFile, close: sample.close, hosts: sample.hosts };
  } finally {
    if (!opts.keepHostsRunning) await sample.close();
  }
}

/** A rater confirms a flag on the SCENARIO's example, so manual_flag removes it at the next build. */
function confirmScenarioFlag(store: CorpusStore, buildId: number): void {
  const m = SCENARIO.manualFlag;
  const key = store.scalar(
    `SELECT e.example_key FROM examples e JOIN example_comments x ON x.example_id = e.id JOIN comments c ON c.id = x.comment_id
     JOIN changes ch ON ch.id = e.change_id WHERE e.build_id = ? AND c.gerrit_id = ? AND ch.number = ?`, [buildId, m.comment, m.change]);
  if (typeof key !== 'string') throw new Error(`sample: no example holds ${m.comment}`);
  store.run(`INSERT INTO flags(example_key, reason, detail, status, rater, decided_at) VALUES (?, 'manual', ?, 'confirmed', ?, ?)
             ON CONFLICT(example_key, reason) DO UPDATE SET status = 'confirmed'`,
    [key, JSON.stringify({ reason: 'manual', detail: 'confirmed by the sample rater' }), localUserPseudonym(SAMPLE_SALT, 'sample-rater'), '2026-11-30T12:00:00.000Z']);
}
