// Long jobs (fetch, build, judge, verify, export) as one function each over a corpus file: fetchJob,
// buildJob, judgeJob, verifyJob, exportJob open the file, take its lock if they write, and run the work.
// The extension's job process calls them through runJob (which words the progress notification and
// the summary); the CLI's fetch, build, judge, verify and export commands call them directly, with their
// own lock name, wait and output. Neither orchestrates a job on its own.
import path from 'node:path';
import { CorpusStore, FETCH_RESERVE_BYTES, buildReserve } from '../ground/store/corpusStore';
import {
  DEFAULT_WRITER_WAIT_MS,
  withWriterLock,
  type LockHolder,
  type WriterLockOptions,
} from '../ground/store/writerLock';
import { corpusDbPath } from '../ground/config/configFile';
import { loadCorpusConfig } from '../rules/corpusJson/loadConfig';
import type { CorpusConfig } from '../ground/config/types';
import { fetchCorpus, storeConfig, type FetchSummary } from '../gerrit/fetchCorpus';
import type { HostProgress } from '../gerrit/fetchHost';
import { fetchProgressLine, formatBytes, formatDuration } from '../gerrit/fetchProgress';
import { planFetch, type FetchPlan } from '../gerrit/fetchPlan';
import { planLines } from '../gerrit/fetchPlanText';
import { performance } from 'node:perf_hooks';
import type { HostClientEvent } from '../gerrit/hostClientTypes';
import { runBuild, type BuildProgress, type BuildResult } from '../build/stages/runBuild';
import { exportCorpus, FUNNEL_FILE } from '../publish/export/exportJsonl';
import { checkFrozenOut, frozenTagOf, writeFrozenExport } from '../publish/export/frozenExport';
import { recordsStored } from '../build/records/buildRecords';
import { writeStaged } from '../publish/export/stagedExport';
import { exportSearchReplace, searchReplaceSummary } from '../publish/export/exportSearchReplace';
import { exportHub, type HubExportResult } from '../publish/export/hub/exportHub';
import { searchReplaceParameters } from '../rules/ruleParameters';
import { verifyReproduce, type ReproduceResult } from '../publish/verify/reproduce';
import { storedConfig } from '../build/stages/loadCorpus';
import { requireBuild } from '../review/inspect/groups';
import { checkBuildRef, resolveBuild } from '../publish/versions/tags';
import { staleRulesLine, staleRulesVersion } from '../publish/versions/recordedBuild';
import { runJudge, type JudgeRunResult } from '../review/judge/runJudge';
import { runRewrite } from '../review/judge/runRewrite';
import { qualityReport, type QualityReport } from '../review/judge/report';
import { judgeSettings, type JudgeSettings } from '../build/judgments/settings';
import type { RewriteMode } from '../build/judgments/types';
import type { LoopProgress } from '../review/judge/requestLoop';

export type JobRequest =
  | { kind: 'fetch'; configFile: string; salt: string | undefined }
  | { kind: 'plan'; configFile: string }
  | { kind: 'build'; configFile: string }
  | { kind: 'verify'; configFile: string }
  | { kind: 'export'; configFile: string; out: string; format?: ExportFormat; shardSizeMb?: number }
  /** The key travels to the job process only, from SecretStorage; it is never logged or stored. */
  | { kind: 'judge'; configFile: string; apiKey: string | undefined; sample?: number; seed?: string; dryRun?: boolean };

/** `log` lines go only to the output channel; the others also update the progress notification. */
export type JobProgress = { message: string; log?: boolean };

export interface JobResult {
  summary: string;
  /** False when the job ran but found a problem (verify that is not clean). */
  ok?: boolean;
  /** A report to show whole (the fetch plan). */
  lines?: string[];
}

/** What a job writes in the corpus file's lock, for another writer's message. */
const LOCK_COMMAND = {
  fetch: 'Review Corpus: Fetch from Hosts',
  build: 'Review Corpus: Rebuild',
  judge: 'Review Corpus: Judge Comments',
} as const;

export interface JobOptions {
  /** How long a fetch or build waits for another writer of the corpus file; default DEFAULT_WRITER_WAIT_MS. */
  lockWaitMs?: number;
}

/** The extension's worker runs a request; the CLI calls the job functions below with its own options. */
export async function runJob(
  req: JobRequest,
  signal: AbortSignal,
  progress: (p: JobProgress) => void,
  opts: JobOptions = {},
): Promise<JobResult> {
  const config = loadCorpusConfig(req.configFile);
  const dbFile = corpusDbPath(req.configFile, config);
  if (req.kind === 'verify' || req.kind === 'export') return readJob(req, config, dbFile, signal, progress);
  if (req.kind === 'plan') {
    progress({ message: "counting each host's listing at its own pace" });
    const { plan, lines } = await planJob({ dbFile, config, signal, onEvent: logEvents(progress) });
    const planned = plan.hosts.filter((h) => h.error === undefined);
    const summary = plan.hosts
      .map((h) =>
        h.error === undefined
          ? `${h.org} about ${formatDuration(h.timeMs)}, ${h.requests.toLocaleString('en-US')} requests, ${formatBytes(h.bytes)}`
          : `${h.org} not planned`,
      )
      .join('; ');
    return { summary: `Fetch plan: ${summary}`, ok: planned.length === plan.hosts.length, lines };
  }
  const writer: WriterOptions = {
    signal,
    command: LOCK_COMMAND[req.kind],
    waitMs: opts.lockWaitMs ?? DEFAULT_WRITER_WAIT_MS,
    onWait: (message) => progress({ message: `waiting: ${message}` }),
  };
  if (req.kind === 'judge') {
    const { run } = await judgeJob({
      ...writer,
      dbFile,
      config,
      run: { apiKey: req.apiKey, sample: req.sample, seed: req.seed, dryRun: req.dryRun },
      onProgress: (p) => progress({ message: judgeProgressLine(p) }),
    });
    return { summary: judgeSummaryLine(run!) };
  }
  if (req.kind === 'build') {
    // The build reads the config just stored (redacted), the same one verify --reproduce reads.
    const result = await buildJob({
      ...writer,
      dbFile,
      config,
      onProgress: (p) => progress({ message: `${p.stage}: ${p.done}/${p.total}` }),
    });
    return {
      summary: `Build ${result.buildId}: ${result.kept} examples kept${result.newFlags ? `, ${result.newFlags} new flags` : ''}${(result.funnel.warnings ?? []).map((w) => `. Warning: ${w}`).join('')}`,
    };
  }
  const { summary } = await fetchJob({
    ...writer,
    dbFile,
    config,
    salt: req.salt,
    onProgress: fetchNotification((message) => progress({ message })),
    onEvent: logEvents(progress),
  });
  const done = summary.hosts.map((h) => `${h.org} ${h.changesDone} changes`).join(', ');
  return { summary: `Fetched ${done}${summary.failures.length ? `; failed: ${summary.failures.join('; ')}` : ''}` };
}

/** Each host's pace, retries and errors, for the log channel. */
function logEvents(progress: (p: JobProgress) => void): (e: HostClientEvent) => void {
  return (e) => {
    const line = fetchEventLine(e);
    if (line) progress({ log: true, message: line });
  };
}

export interface PlanJob {
  dbFile: string;
  config: CorpusConfig;
  signal?: AbortSignal;
  onEvent?: (e: HostClientEvent) => void;
}

/** Plans the next fetch: reads the corpus file if there is one (no lock: nothing is written) and counts each host's listing. */
export async function planJob(job: PlanJob): Promise<{ plan: FetchPlan; lines: string[] }> {
  const plan = await planFetch(job.config, job.dbFile, { signal: job.signal, onEvent: job.onEvent });
  return { plan, lines: planLines(plan, job.config.name) };
}

/** What every writer of the corpus file (fetch, build) is given: it holds the file's lock from before reading it to after its last save. */
export interface WriterOptions {
  signal?: AbortSignal;
  /** Written into the lock, for another writer's message ("review-corpus build", "Review Corpus: Rebuild"). */
  command: string;
  waitMs: number;
  /** Called once, when another writer holds the file and this one starts waiting for it. */
  onWait?: (message: string, holder: LockHolder | undefined) => void;
}

const lockOptions = (w: WriterOptions, mustExist: boolean): WriterLockOptions => ({
  command: w.command,
  waitMs: w.waitMs,
  signal: w.signal,
  onWait: w.onWait,
  mustExist,
});

export { fetchProgressLine } from '../gerrit/fetchProgress';

/**
 * The progress notification's message for a fetch: every host's latest line, sent at most once per
 * `everyMs`. A line that arrives sooner waits (a timer), so the last state of each host is always shown.
 */
export function fetchNotification(send: (message: string) => void, everyMs = 1000): (p: HostProgress) => void {
  const lines = new Map<string, string>();
  let sentAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    sentAt = performance.now();
    send([...lines.values()].join(' · '));
  };
  return (p) => {
    lines.set(p.org, fetchProgressLine(p));
    if (timer) return;
    const wait = sentAt + everyMs - performance.now();
    if (wait <= 0) flush();
    else (timer = setTimeout(flush, wait)).unref();
  };
}

/** A host client's pace, retry, error or refusal as one log line; undefined for events not logged. */
export function fetchEventLine(e: HostClientEvent): string | undefined {
  if (e.type === 'pace')
    return `${e.host}: pace ${e.intervalMs} ms (robots.txt Crawl-delay ${e.crawlDelayMs} ms, minIntervalMs ${e.minIntervalMs} ms)`;
  if (e.type === 'retry') return `${e.host}: retry ${e.attempt} of ${e.path} in ${e.waitMs} ms (${e.cause})`;
  if (e.type === 'error')
    return `${e.host}: error ${e.reason}${e.status ? ` ${e.status}` : ''} on ${e.path}: ${e.message}`;
  if (e.type === 'disallowed') return `${e.host}: robots.txt disallows ${e.path}; not fetched`;
  return undefined;
}

export interface FetchJob extends WriterOptions {
  dbFile: string;
  config: CorpusConfig;
  salt: string | undefined;
  onProgress?: (p: HostProgress) => void;
  onEvent?: (e: HostClientEvent) => void;
  /** How often the file is written while fetching (fetchCorpus's default when absent). */
  checkpointEveryMs?: number;
  /** Work on the opened file under the same lock before fetching (the CLI's --seal and --unseal). */
  before?: (store: CorpusStore) => void;
}

export interface FetchJobResult {
  summary: FetchSummary;
  /** Changes in the file afterwards, per organization and collection rule (null: fetched). */
  changes: { org: string; rule: string | null; n: number }[];
}

/** Fetches every host of the config into the corpus file, creating it if need be. */
export async function fetchJob(job: FetchJob): Promise<FetchJobResult> {
  return withWriterLock(job.dbFile, lockOptions(job, false), async () => {
    const store = await CorpusStore.openOrCreate(job.dbFile, { reserveBytes: FETCH_RESERVE_BYTES }); // checkpoints stay journal appends
    try {
      job.before?.(store);
      const summary = await fetchCorpus(store, job.config, {
        salt: job.salt,
        signal: job.signal,
        checkpointEveryMs: job.checkpointEveryMs,
        onProgress: job.onProgress,
        onEvent: job.onEvent,
      });
      const changes = store.all<{ org: string; rule: string | null; n: number }>(
        `SELECT h.org, c.collection_rule AS rule, count(*) AS n FROM changes c JOIN hosts h ON h.id = c.host_id GROUP BY h.org, c.collection_rule ORDER BY h.org, rule`,
      );
      return { summary, changes };
    } finally {
      store.close();
    }
  });
}

export interface BuildJob extends WriterOptions {
  dbFile: string;
  /** Stored before building, and so the config the build (and a later verify --reproduce) reads; absent: the stored one. */
  config?: CorpusConfig;
  onProgress?: (p: BuildProgress) => void;
}

/** Builds from the stored records only (never the network) and saves the file. */
export async function buildJob(job: BuildJob): Promise<BuildResult> {
  return withWriterLock(job.dbFile, lockOptions(job, true), async () => {
    const store = await CorpusStore.open(job.dbFile, { reserveBytes: buildReserve(job.dbFile) });
    try {
      if (job.config) storeConfig(store, job.config);
      const result = await runBuild(store, { signal: job.signal, onProgress: job.onProgress });
      job.signal?.throwIfAborted(); // cancelled at the end: the file stays as it was
      // Always whole, folding the journal: a build rewrites much of the file anyway, and afterwards a
      // reader that ignores the journal (the sqlite3 CLI) sees everything.
      store.save({ full: true });
      return result;
    } finally {
      store.close();
    }
  });
}

export interface JudgeJob extends WriterOptions {
  dbFile: string;
  /** The judge section; absent: the stored config's, if the file has one. */
  config?: CorpusConfig;
  /** Over the judge section (the CLI's --endpoint, --model, --max-rps); the model also picks the report's judgments. */
  overrides?: { endpoint?: string; model?: string; maxRps?: number };
  /** Judge (and report) this build's kept comments; absent: the latest build's. */
  buildId?: number;
  /** What to send; absent: nothing is sent, only the report is made (judge --report). */
  run?: JudgeJobRun;
  /** Called with the settings before anything is sent: the caller's own check (the CLI's "no endpoint" line). */
  before?: (settings: JudgeSettings) => void;
  /** Also count the quality per organization, window and half afterwards. */
  report?: boolean;
  onProgress?: (p: LoopProgress) => void;
}

export interface JudgeJobRun {
  /** The key itself (the extension's, from SecretStorage), or `env` to read it from the variable the judge section names; never logged or stored. */
  apiKey?: string;
  env?: NodeJS.ProcessEnv;
  sample?: number;
  seed?: string;
  maxTokensTotal?: number;
  dryRun?: boolean;
  retryUnjudged?: boolean;
  /** Reformulate instead of judging (judge --reformulate). */
  mode?: RewriteMode;
  checkpointEveryMs?: number;
}

export interface JudgeJobResult {
  run: JudgeRunResult | undefined;
  quality: QualityReport | undefined;
}

/**
 * Judges (or reformulates) a build's kept comments, saving each answer as it comes (a cancelled or
 * killed run resumes), under the file's lock. A dry run or a report only reads: no lock.
 */
export async function judgeJob(job: JudgeJob): Promise<JudgeJobResult> {
  const work = async (): Promise<JudgeJobResult> => {
    const store = await CorpusStore.open(job.dbFile);
    try {
      const config = job.config ?? (store.getMeta('config') !== undefined ? storedConfig(store) : undefined);
      const settings = judgeSettings(config, job.overrides);
      let run: JudgeRunResult | undefined;
      if (job.run) {
        job.before?.(settings);
        const { env, mode, ...r } = job.run;
        const apiKey = r.apiKey ?? (env?.[settings.apiKeyEnv] || undefined);
        const opts = {
          ...job.overrides,
          ...r,
          apiKey,
          buildId: job.buildId,
          signal: job.signal,
          onProgress: job.onProgress,
          checkpoint: () => store.save(),
        };
        run = mode ? await runRewrite(store, config, { ...opts, mode }) : await runJudge(store, config, opts);
      }
      const quality = job.report
        ? qualityReport(store, config, { buildId: job.buildId, model: settings.model })
        : undefined;
      return { run, quality };
    } finally {
      store.close();
    }
  };
  if (!job.run || job.run.dryRun) return work();
  return withWriterLock(job.dbFile, lockOptions(job, true), work);
}

export function judgeProgressLine(p: LoopProgress): string {
  const cost = p.estimatedCost === null ? '' : `, estimated cost ${p.estimatedCost.toFixed(4)}`;
  return `${p.done}/${p.total} comments, ${p.cacheHits} cache hits, ${p.promptTokens + p.completionTokens} tokens${cost}`;
}

function judgeSummaryLine(r: JudgeRunResult): string {
  if (r.dryRun)
    return `Dry run: ${r.requests} requests to send for ${r.total} comments (${r.cacheHits} already judged), about ${r.estimatedPromptTokens} prompt tokens`;
  const stop = r.stopped === 'max-tokens-total' ? '; stopped at the token budget' : '';
  return `Judged ${r.stored} comments (${r.cacheHits} already judged, ${r.invalid} unjudged after a retry, ${r.failed} not answered), ${judgeProgressLine(r)}${stop}`;
}

/** The extension's Verify and Export: exportJob and verifyJob below, each caller printing the result its own way. */
async function readJob(
  req: Extract<JobRequest, { kind: 'verify' | 'export' }>,
  config: CorpusConfig,
  dbFile: string,
  signal: AbortSignal,
  progress: (p: JobProgress) => void,
): Promise<JobResult> {
  if (req.kind === 'export') {
    // The card's license and language, and the Search/Replace parameters, from the corpus.json open in
    // the editor: changing them needs no rebuild.
    const r = await exportJob({
      dbFile,
      out: req.out,
      format: req.format,
      config,
      shardSizeMb: req.shardSizeMb,
      signal,
      onProgress: (p) => progress({ message: `${p.split}: ${p.done}/${p.total} examples` }),
    });
    const note = r.staleNote ? `. Note: ${r.staleNote}` : '';
    if (r.format === 'hub') return { summary: `Exported for the Hub to ${req.out}: ${hubSummary(r.written)}${note}` };
    if (r.format === 'search-replace') {
      const { report, reportFile } = r.written;
      return {
        summary: `Exported Search/Replace to ${req.out}: ${searchReplaceSummary(report)} (report: ${reportFile})${note}`,
      };
    }
    const w = r.written;
    const written = `${w.examples} examples to ${req.out}, with dataset-funnel.json, ${w.splits.filter((x) => x.examples > 0).length} split files, counts.csv, curation_audit.jsonl and the dataset card README.md beside it`;
    return { summary: `Exported ${written}${w.warnings.map((x) => `. Warning: ${x}`).join('')}${note}` };
  }
  progress({ message: 'rebuilding into a scratch copy' });
  const r = await verifyJob({ dbFile, signal });
  if ('stale' in r) return { summary: `Not reproducible by this code: ${r.stale}`, ok: false };
  return {
    summary: r.clean
      ? `Reproducible: build ${r.buildId} is clean (corpus ${r.corpusHash.slice(0, 12)})`
      : `Not reproducible: ${differenceLines(r).slice(0, 6).join('; ')}`,
    ok: r.clean,
  };
}

/** What `export --format` writes: the JSONL and its publishing set, Search/Replace blocks, or the Hub's Parquet folder. */
export const EXPORT_FORMATS = ['jsonl', 'search-replace', 'hub'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportJob {
  dbFile: string;
  /** The examples file; for `hub`, the folder. */
  out: string;
  format?: ExportFormat;
  /** `hub`: the most MB (10^6 bytes) one shard holds; default DEFAULT_SHARD_MB. */
  shardSizeMb?: number;
  /** `hub`: cancels between records; the folder is left as it was. */
  signal?: AbortSignal;
  onProgress?: (p: { split: string; done: number; total: number }) => void;
  /** The dataset card's license and language, and the Search/Replace parameters; absent: the stored config's. */
  config?: CorpusConfig;
  /** A build id or tag name, exported as the file recorded it (export --build v3); absent: the latest build. */
  build?: string;
}

export type ExportJobResult = {
  buildId: number;
  /** Set when the build's rules version is not what this code builds now: the caller says so. */
  staleNote: string | undefined;
} & (
  | { format: 'jsonl'; written: ReturnType<typeof exportCorpus> }
  | { format: 'search-replace'; written: ReturnType<typeof exportSearchReplace> }
  | { format: 'hub'; written: HubExportResult }
);

/** A Hub export in one line: splits, shards, what was read. */
export function hubSummary(w: HubExportResult): string {
  const shards = w.splits.reduce((n, s) => n + s.shards.length, 0);
  const splits = w.splits.map((s) => `${s.split} ${s.rows}`).join(', ');
  const from = w.frozenTag ? `tag ${w.frozenTag}'s frozen records` : `build ${w.buildId}'s stored records`;
  const outside = w.outsideWindows ? `; ${w.outsideWindows} outside every window are in no split` : '';
  return `${w.examples - w.outsideWindows} examples in ${shards} Parquet shards (${splits || 'no split'}) from ${from}, with README.md, counts.csv, curation_audit.jsonl and dataset-funnel.json${outside}${w.warnings.map((x) => `. Warning: ${x}`).join('')}`;
}

/**
 * Export only reads the file: no lock. The Hub export reads it page by page where it can (it streams,
 * so the file's size is not held; on Windows, untested paged, whole).
 */
export async function exportJob(job: ExportJob): Promise<ExportJobResult> {
  if (job.build !== undefined) checkBuildRef(job.build, '--build');
  const paged = job.format === 'hub' && process.platform !== 'win32';
  const store = await CorpusStore.open(job.dbFile, paged ? { paged: true } : {});
  try {
    const buildId = job.build !== undefined ? resolveBuild(store, job.build, '--build') : requireBuild(store);
    const stale = staleRulesVersion(store, buildId);
    const staleNote = stale
      ? staleRulesLine(store, stale, 'exporting what the file recorded, not a rebuild')
      : undefined;
    if (job.format === 'hub') {
      const written = await exportHub(store, job.out, buildId, {
        config: job.config,
        shardBytes: job.shardSizeMb === undefined ? undefined : job.shardSizeMb * 1e6,
        signal: job.signal,
        onProgress: job.onProgress,
      });
      return { buildId, staleNote: written.frozenTag ? undefined : staleNote, format: 'hub', written };
    }
    // Every file is written to a staging folder first (stagedExport.ts): a damaged page met halfway leaves no file changed.
    if (job.format === 'search-replace') {
      const params = searchReplaceParameters(job.config ?? storedConfig(store));
      const written = writeStaged(
        job.out,
        (out) => exportSearchReplace(store, out, params, buildId),
        (w, final) => ({ ...w, reportFile: final(w.reportFile), funnelFile: final(w.funnelFile) }),
      );
      return { buildId, staleNote, format: 'search-replace', written };
    }
    // A tagged build writes the files frozen when it was tagged (publish/export/frozenExport.ts).
    const frozen = frozenTagOf(store, buildId);
    if (frozen) checkFrozenOut(frozen, job.out); // before staging, so the line names the user's --out
    const written = writeStaged(
      job.out,
      (out) =>
        frozen
          ? frozenWritten(writeFrozenExport(store, frozen, out), out)
          : exportCorpus(store, out, { config: job.config }, buildId),
      (w, final) => ({ ...w, funnelFile: final(w.funnelFile), files: w.files.map(final) }),
    );
    return { buildId, staleNote: frozen ? undefined : staleNote, format: 'jsonl', written };
  } finally {
    store.close();
  }
}

/**
 * What a failed reproduction says, one line each: every example whose published bytes would differ
 * (organization, change, file, line, fields), and whether the build's tagged exports are affected.
 */
export function differenceLines(r: Extract<ReproduceResult, { clean: false }>): string[] {
  if (!r.differences.length) return [`first difference: ${r.firstDifference}`];
  const lines = [`${r.differences.length} published example(s) would differ:`];
  for (const d of r.differences) {
    const what =
      d.fields === 'left' ? 'no longer published' : d.fields === 'entered' ? 'newly published' : d.fields.join(', ');
    lines.push(`  ${d.org} change ${d.change} ${d.file} line ${d.line ?? '?'}: ${what}`);
  }
  if (r.tags.length)
    lines.push(
      `the export of ${r.tags.join(', ')} is unaffected: a tag's files are frozen (export --build ${r.tags[0]})`,
    );
  return lines;
}

/** A frozen export's result in exportCorpus's shape. */
function frozenWritten(w: ReturnType<typeof writeFrozenExport>, out: string): ReturnType<typeof exportCorpus> {
  const dir = path.dirname(path.resolve(out));
  return { ...w, funnelFile: path.join(dir, FUNNEL_FILE), auditLines: 0 };
}

export interface VerifyJob {
  dbFile: string;
  /** A build id or tag name whose corpus hash the rebuild must give (verify --build v3); absent: the latest build's. */
  build?: string;
  signal?: AbortSignal;
  onProgress?: (p: BuildProgress) => void;
}

/** Verify only reads the file (it rebuilds into a scratch copy in memory): no lock. */
export async function verifyJob(job: VerifyJob): Promise<ReproduceResult | { stale: string }> {
  if (job.build !== undefined) checkBuildRef(job.build, '--build');
  const store = await CorpusStore.open(job.dbFile);
  try {
    const buildId = job.build !== undefined ? resolveBuild(store, job.build, '--build') : undefined;
    // A build of other rules cannot be reproduced by this code: say so rather than rebuild and report a difference.
    const stale = buildId !== undefined ? staleRulesVersion(store, buildId) : undefined;
    if (stale) return { stale: staleRulesLine(store, stale, 'not rebuilt; its record in the file stands as it is') };
    const id = buildId ?? requireBuild(store);
    // Its corpus hash was made before hashes covered the published records: no rebuild can give it again.
    if (!recordsStored(store, id))
      return {
        stale: `build ${id} was written before builds stored their published records, so its corpus hash does not cover them and no rebuild can give it again; rebuild, and verify or tag the new build`,
      };
    return await verifyReproduce(store, job.signal, job.onProgress, buildId);
  } finally {
    store.close();
  }
}
