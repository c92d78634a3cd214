// One build: from the raw records stored by the fetch to examples, every rule in funnel order, the
// funnel report, a versioned builds row and the inspector's flags on kept examples. Reads only the
// corpus file (never the network) and does not save it: the caller saves.
import type { CorpusConfig } from '../../ground/config/types';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { checkpoint, throwIfAborted } from './abort';
import { runCommentStage, type CommentRec, type CommentStageResult } from './commentStage';
import { applyIrrelevantComment } from '../judgments/irrelevance';
import { PROTECTED_COMMENT_OFF, protectedComment } from '../../rules/comments/protectedComment';
import { runExampleStages, type ExampleRec } from './exampleStage';
import type { Protection } from '../../rules/decontam/decontaminate';
import { FunnelTally, type DatasetFunnel } from '../reports/funnelReport';
import { configHash, rulesVersion } from './hashing';
import { canonicalJson } from '../../ground/text/canonicalJson';
import { redactConfig } from '../../ground/config/configFile';
import { loadCorpus, storedConfig, type LoadedCorpus } from './loadCorpus';
import { buildDecisions, writeBuild } from './writeBuild';
import { assignHalves } from '../halves/halves';
import { registeredHalves } from '../halves/halvesRegistry';
import { attachShareReports } from '../reports/shareReports';
import { HunkFactsPool } from './hunkFactsPool';
import { storeDetectedFlags } from '../flags/flagStore';
import { decontaminationReport, decontaminationSetup } from './decontamination';
import { switchedOffRules } from '../../rules/ruleSwitches';
import { ruleOffReason } from '../../rules/switchedOff';
import {
  confirmedExamples,
  currentFlagDecisions,
  recordBuildFlagDecisions,
  type FlagDecision,
} from '../flags/flagDecisions';
import { applyHostGaps } from '../reports/hostGaps';

export type { DatasetFunnel } from '../reports/funnelReport';

export interface BuildProgress {
  stage: string;
  done: number;
  total: number;
}

export interface BuildOptions {
  /** The config to build with (a rebuild with changed rules); default: the one stored by the fetch. */
  config?: CorpusConfig;
  signal?: AbortSignal;
  onProgress?: (p: BuildProgress) => void;
  /** Compute the hunks' dedup sketches and target matches in a worker thread (default true). */
  hunkFactsWorker?: boolean;
  /** The flag decisions manual_flag reads (verify: those a build recorded); default: the file's, as they stand now. */
  flagDecisions?: readonly FlagDecision[];
}

export interface BuildResult {
  buildId: number;
  corpusHash: string;
  rulesVersion: string;
  configHash: string;
  /** Examples kept (in a window or, counted as outside_windows, in none). */
  kept: number;
  funnel: DatasetFunnel;
  /** Flags detected on kept examples that the corpus did not hold yet. */
  newFlags: number;
}

const STEPS = ['load', 'comments', 'examples', 'write'] as const;

/** Rules the config switched off decided nothing: "off", never 0 (tallied before the hosts' gaps, so it leads). */
function tallySwitchedOff(config: CorpusConfig, tally: FunnelTally): void {
  for (const id of switchedOffRules(config.rules))
    for (const org of tally.orgs) tally.notCounted(org, id, ruleOffReason(id));
  if (!config.rules.protectedCommentLevel)
    for (const org of tally.orgs) tally.notCounted(org, protectedComment.id, PROTECTED_COMMENT_OFF);
}

export async function runBuild(store: CorpusStore, opts: BuildOptions = {}): Promise<BuildResult> {
  const { signal } = opts;
  const startedAt = new Date().toISOString();
  const progress = (step: (typeof STEPS)[number]) =>
    opts.onProgress?.({ stage: step, done: STEPS.indexOf(step), total: STEPS.length });
  throwIfAborted(signal);
  const config = opts.config ?? storedConfig(store);
  const flagDecisions = opts.flagDecisions ?? currentFlagDecisions(store);

  progress('load');
  const corpus = await loadCorpus(store, config, signal);
  const tally = new FunnelTally();
  tallyCollection(corpus, tally);
  await checkpoint(signal);

  const decontam = decontaminationSetup(
    store,
    config,
    corpus.windows.map((w) => w.name),
  );

  progress('comments');
  const stage2 = await runCommentsWithFacts(store, config, corpus, decontam.protection, opts);
  // irrelevant_comment, from the stored judgments (never the endpoint); not counted while off.
  applyIrrelevantComment(store, config, stage2.comments, corpus.ctx, tally);
  tallySwitchedOff(config, tally);
  tallyComments(corpus, stage2.comments, tally);
  // Rules and counters a host's records could not decide, with why; and its comment-count probe.
  applyHostGaps(store, corpus, tally);
  for (const [org, n] of stage2.unreadableDiffs) tally.count(org, null, 'diff_unreadable', n);
  await checkpoint(signal);

  progress('examples');
  const examples = runExampleStages(
    stage2.hunks,
    corpus.ctx,
    confirmedExamples(flagDecisions),
    tally,
    decontam.protection,
  );
  await checkpoint(signal);

  const halves = config.halves
    ? assignHalves(examples, config.halves, config.rules.targetInCommentMinChars)
    : undefined;
  const halvesRegistered = registeredHalves(store);

  progress('write');
  const result = writeStep(store, {
    config,
    corpus,
    tally,
    stage2,
    examples,
    decontam,
    flagDecisions,
    halves,
    halvesRegistered,
    startedAt,
    signal,
  });
  opts.onProgress?.({ stage: 'done', done: STEPS.length, total: STEPS.length });
  return result;
}

/** The collection stage's removals and counts, from the loaded changes and listings. */
function tallyCollection(corpus: LoadedCorpus, tally: FunnelTally): void {
  for (const org of corpus.orgs.values()) tally.orgs.add(org);
  for (const c of corpus.changes.values()) {
    if (c.removal) tally.remove(c.org, c.window?.name ?? null, 'collection', c.removal.rule);
    else if (c.statusUnrecorded) tally.count(c.org, null, 'status_unrecorded');
  }
  for (const [org, n] of corpus.rejectedListings) tally.remove(org, null, 'collection', 'fetch_error', n);
  for (const [org, n] of corpus.listingCuts) tally.count(org, null, 'listing_cut_short', n);
}

/** The comment stage, with each hunk's facts computed (in the worker pool) as the hunk is formed. */
async function runCommentsWithFacts(
  store: CorpusStore,
  config: CorpusConfig,
  corpus: LoadedCorpus,
  protection: Protection,
  opts: BuildOptions,
): Promise<CommentStageResult> {
  const pool = new HunkFactsPool(config.rules, opts.hunkFactsWorker ?? true);
  try {
    const stage2 = await runCommentStage(
      store,
      corpus,
      opts.signal,
      (h) =>
        pool.add({
          before: h.hunk.beforeText,
          after: h.hunk.afterText,
          comments: h.comments.map((c) => c.unit.message),
        }),
      protection,
    );
    const facts = await pool.finish();
    stage2.hunks.forEach((h, i) => (h.facts = facts[i]));
    return stage2;
  } finally {
    pool.dispose();
  }
}

/** The comment rules' removals, and which bot_account removals a service user or a name pattern made. */
function tallyComments(corpus: LoadedCorpus, comments: readonly CommentRec[], tally: FunnelTally): void {
  for (const c of comments) {
    if (!c.removal) continue;
    tally.remove(c.change.org, c.change.window?.name ?? null, 'comments', c.removal.rule);
    if (c.removal.rule === 'bot_account' && corpus.serviceUsers.has(`${c.change.hostId}\0${c.unit.author}`))
      tally.count(c.change.org, null, 'bot_account_service_user');
    if (c.removal.rule === 'bot_account' && c.removal.evidence?.source === 'name_pattern')
      tally.count(c.change.org, null, 'bot_account_name_pattern');
  }
}

/** What the write step needs from the stages before it. */
interface WriteInputs {
  config: CorpusConfig;
  corpus: LoadedCorpus;
  tally: FunnelTally;
  stage2: CommentStageResult;
  examples: ExampleRec[];
  decontam: ReturnType<typeof decontaminationSetup>;
  flagDecisions: readonly FlagDecision[];
  halves: ReturnType<typeof assignHalves> | undefined;
  halvesRegistered: ReturnType<typeof registeredHalves>;
  startedAt: string;
  signal?: AbortSignal;
}

/** Writes the build row, its decisions and flags, and the funnel report it finishes with. */
function writeStep(store: CorpusStore, inputs: WriteInputs): BuildResult {
  const { config, corpus, tally, stage2, examples, decontam, flagDecisions, halves, halvesRegistered } = inputs;
  const decisions = buildDecisions([...corpus.changes.values()], stage2.comments, examples);
  const header = {
    configHash: configHash(config),
    rulesVersion: rulesVersion(config, decontam.sets),
    startedAt: inputs.startedAt,
    config: canonicalJson(redactConfig(config)),
  };
  const { report: decontamination, warnings } = decontaminationReport(config, decontam, examples, stage2.comments);
  let funnel: DatasetFunnel | undefined;
  let hash = '';
  let newFlags = 0;
  // The flag decisions it read and the flags it found are in the build's hash (writeBuild).
  const storeFlags = (id: number) => {
    recordBuildFlagDecisions(store, id, flagDecisions);
    newFlags = storeDetectedFlags(store, examples);
  };
  const buildId = writeBuild(
    store,
    header,
    decisions,
    examples,
    inputs.signal,
    (id, corpusHash) => {
      hash = corpusHash;
      const finishedAt = new Date().toISOString();
      funnel = tally.report(
        { corpus: config.name, build: id, rulesVersion: header.rulesVersion, createdAt: finishedAt },
        corpus.windows,
      );
      for (const [org, report] of halves ?? [])
        if (funnel.organizations[org]) funnel.organizations[org].halves = report;
      attachShareReports(funnel, examples, config, corpus.windows, halvesRegistered);
      funnel.decontamination = decontamination;
      if (warnings.length) funnel.warnings = warnings;
      return { finishedAt, funnel: JSON.stringify(funnel) };
    },
    storeFlags,
  );
  return {
    buildId,
    corpusHash: hash,
    rulesVersion: header.rulesVersion,
    configHash: header.configHash,
    kept: examples.filter((e) => e.rule === null).length,
    funnel: funnel as DatasetFunnel,
    newFlags,
  };
}
