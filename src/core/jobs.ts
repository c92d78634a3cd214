// Long jobs (fetch, rebuild, verify) as plain functions over a corpus file, so the CLI, the
// extension's job process and the tests run the very same code.
import { CorpusStore, buildReserve } from './store/corpusStore';
import { DEFAULT_WRITER_WAIT_MS, withWriterLock, type WriterLockOptions } from './store/writerLock';
import { corpusDbPath, loadCorpusConfig } from './config/loadConfig';
import type { CorpusConfig } from './config/types';
import { fetchCorpus, storeConfig } from './gerrit/fetchCorpus';
import { runBuild } from './corpusBuild/runBuild';
import { exportCorpus } from './export/exportJsonl';
import { exportSearchReplace, searchReplaceSummary } from './export/exportSearchReplace';
import { searchReplaceParameters } from './config/ruleParameters';
import { verifyReproduce } from './verify/reproduce';

export type JobRequest =
  | { kind: 'fetch'; configFile: string; salt: string | undefined }
  | { kind: 'build'; configFile: string }
  | { kind: 'verify'; configFile: string }
  | { kind: 'export'; configFile: string; out: string; format?: 'jsonl' | 'search-replace' };

/** `log` lines go only to the output channel; the others also update the progress notification. */
export type JobProgress = { message: string; log?: boolean };

export interface JobResult {
  summary: string;
  /** False when the job ran but found a problem (verify that is not clean). */
  ok?: boolean;
}

/** What a job writes in the corpus file's lock, for another writer's message. */
const LOCK_COMMAND = { fetch: 'Review Corpus: Fetch from Hosts', build: 'Review Corpus: Rebuild' } as const;

export interface JobOptions {
  /** How long a fetch or build waits for another writer of the corpus file; default DEFAULT_WRITER_WAIT_MS. */
  lockWaitMs?: number;
}

export async function runJob(req: JobRequest, signal: AbortSignal, progress: (p: JobProgress) => void, opts: JobOptions = {}): Promise<JobResult> {
  const config = loadCorpusConfig(req.configFile);
  const dbFile = corpusDbPath(req.configFile, config);
  if (req.kind === 'verify' || req.kind === 'export') return readJob(req, config, dbFile, signal, progress);
  // Fetch and build write the file: each holds its lock from before reading it to after its last save.
  const lock: WriterLockOptions = {
    command: LOCK_COMMAND[req.kind],
    waitMs: opts.lockWaitMs ?? DEFAULT_WRITER_WAIT_MS,
    signal,
    mustExist: req.kind === 'build',
    onWait: (message) => progress({ message: `waiting: ${message}` }),
  };
  return withWriterLock(dbFile, lock, () => (req.kind === 'fetch' ? fetchJob(req, config, dbFile, signal, progress) : buildJob(config, dbFile, signal, progress)));
}

async function fetchJob(req: Extract<JobRequest, { kind: 'fetch' }>, config: CorpusConfig, dbFile: string, signal: AbortSignal, progress: (p: JobProgress) => void): Promise<JobResult> {
  const store = await CorpusStore.openOrCreate(dbFile);
  try {
    const summary = await fetchCorpus(store, config, {
      salt: req.salt,
      signal,
      onProgress: (p) => progress({
        message: `${p.org}: ${p.phase}, ${p.listed} listed, ${p.changesDone}/${p.changesTotal} changes, ${p.requests} requests, ${p.errors} errors, pace ${p.intervalMs} ms`,
      }),
      // Each host's pace, retries and errors, for the log channel.
      onEvent: (e) => {
        if (e.type === 'pace') progress({ log: true, message: `${e.host}: pace ${e.intervalMs} ms (robots.txt Crawl-delay ${e.crawlDelayMs} ms, minIntervalMs ${e.minIntervalMs} ms)` });
        else if (e.type === 'retry') progress({ log: true, message: `${e.host}: retry ${e.attempt} of ${e.path} in ${e.waitMs} ms (${e.cause})` });
        else if (e.type === 'error') progress({ log: true, message: `${e.host}: error ${e.reason}${e.status ? ` ${e.status}` : ''} on ${e.path}: ${e.message}` });
        else if (e.type === 'disallowed') progress({ log: true, message: `${e.host}: robots.txt disallows ${e.path}; not fetched` });
      },
    });
    const done = summary.hosts.map((h) => `${h.org} ${h.changesDone} changes`).join(', ');
    return { summary: `Fetched ${done}${summary.failures.length ? `; failed: ${summary.failures.join('; ')}` : ''}` };
  } finally {
    store.close();
  }
}

/** Verify and export only read the file (verify rebuilds into a scratch copy in memory): no lock. */
async function readJob(req: Extract<JobRequest, { kind: 'verify' | 'export' }>, config: CorpusConfig, dbFile: string, signal: AbortSignal, progress: (p: JobProgress) => void): Promise<JobResult> {
  const store = await CorpusStore.open(dbFile);
  try {
    if (req.kind === 'export' && req.format === 'search-replace') {
      // The parameters of the corpus.json open in the editor: changing them needs no rebuild.
      const { report, reportFile } = exportSearchReplace(store, req.out, searchReplaceParameters(config));
      return { summary: `Exported Search/Replace to ${req.out}: ${searchReplaceSummary(report)} (report: ${reportFile})` };
    }
    if (req.kind === 'export') {
      // The card's license and language from the corpus.json open in the editor: changing them needs no rebuild.
      const r = exportCorpus(store, req.out, { config });
      const written = `${r.examples} examples to ${req.out}, with dataset-funnel.json, ${r.splits.filter((x) => x.examples > 0).length} split files, counts.csv, curation_audit.jsonl and the dataset card README.md beside it`;
      return { summary: `Exported ${written}${r.warnings.map((w) => `. Warning: ${w}`).join('')}` };
    }
    progress({ message: 'rebuilding into a scratch copy' });
    const r = await verifyReproduce(store, signal);
    return { summary: r.clean ? `Reproducible: build ${r.buildId} is clean (corpus ${r.corpusHash.slice(0, 12)})` : `Not reproducible: ${r.firstDifference}`, ok: r.clean };
  } finally {
    store.close();
  }
}

async function buildJob(config: CorpusConfig, dbFile: string, signal: AbortSignal, progress: (p: JobProgress) => void): Promise<JobResult> {
  const store = await CorpusStore.open(dbFile, { reserveBytes: buildReserve(dbFile) });
  try {
    storeConfig(store, config);
    // The build reads the config just stored (redacted), the same one verify --reproduce reads.
    const result = await runBuild(store, {
      signal,
      onProgress: (p) => progress({ message: `${p.stage}: ${p.done}/${p.total}` }),
    });
    signal.throwIfAborted();
    store.save();
    return { summary: `Build ${result.buildId}: ${result.kept} examples kept${result.newFlags ? `, ${result.newFlags} new flags` : ''}` };
  } finally {
    store.close();
  }
}
