import { DB_OPTION, lockWaitMs, WAIT_OPTION, waitingLine, type CliCommand, type CliIo } from '../command';
import { UserError } from '../../core/ground/store/errors';
import { loadCorpusConfig } from '../../core/rules/corpusJson/loadConfig';
import { judgeJob } from '../../core/jobs/jobs';
import { qualityTable } from '../../core/review/judge/report';
import type { RewriteMode } from '../../core/build/judgments/types';
import type { DryRunSummary, LoopProgress, LoopSummary } from '../../core/review/judge/requestLoop';
import { printableJson } from '../printable';

const MODES = ['curev', 'curev+'];

function whole(cmd: string, name: string, v: string | boolean | undefined, min = 0): number | undefined {
  if (v === undefined) return undefined;
  const s = String(v);
  if (!/^\d+$/.test(s) || Number(s) < min)
    throw new UserError(`${cmd}: --${name} ${s}: must be a whole number${min ? ` ≥ ${min}` : ''}`);
  return Number(s);
}

function positive(cmd: string, name: string, v: string | boolean | undefined): number | undefined {
  if (v === undefined) return undefined;
  const s = String(v);
  if (!/^\d+(\.\d+)?$/.test(s) || Number(s) <= 0)
    throw new UserError(`${cmd}: --${name} ${s}: must be a number above 0`);
  return Number(s);
}

const money = (c: number | null) =>
  c === null ? 'cost not estimated (no judge.pricePer1kTokens)' : `estimated cost ${c.toFixed(4)}`;

function progressLine(label: string, p: LoopProgress): string {
  return (
    `${label}: ${p.done}/${p.total} done, ${p.cacheHits} cache hits, ${p.sent} sent, ${p.invalid} invalid, ${p.failed} failed, ` +
    `${p.promptTokens + p.completionTokens} tokens (${p.promptTokens} prompt, ${p.completionTokens} completion), ${money(p.estimatedCost)}`
  );
}

function printDryRun(io: CliIo, label: string, d: DryRunSummary): void {
  io.out(
    `${label} (dry run, nothing sent): ${d.total} comments, ${d.cacheHits} already stored, ${d.requests} requests to send`,
  );
  io.out(
    `estimated tokens: ${d.estimatedPromptTokens} prompt, at most ${d.estimatedCompletionTokens} completion; ${money(d.estimatedCost)}`,
  );
}

function printSummary(io: CliIo, label: string, s: LoopSummary): void {
  io.out(progressLine(label, s));
  if (s.stopped === 'max-tokens-total')
    io.out(`${label}: stopped at --max-tokens-total; ${s.total - s.done} comments not sent (a rerun continues)`);
  if (s.failed > 0)
    io.out(
      `${label}: ${s.failed} requests got no answer after retries; nothing stored for them (a rerun sends them again)`,
    );
}

export const judgeCommand: CliCommand = {
  name: 'judge',
  summary:
    "judge the kept comments of a build with an OpenAI-compatible model on CuREV's framework (type, nature, civility, " +
    'relevance, clarity, conciseness; docs/judge.md), storing each answer in the file; a rerun sends only what is missing. Prints quality counts per organization, window and half',
  options: {
    db: DB_OPTION,
    config: {
      type: 'string',
      arg: '<corpus.json>',
      description: 'the judge section from this config instead of the stored one',
    },
    endpoint: {
      type: 'string',
      arg: '<url>',
      description: 'the OpenAI-compatible endpoint (…/v1); default judge.endpoint',
    },
    model: { type: 'string', arg: '<name>', description: 'the model; default judge.model' },
    build: { type: 'string', arg: '<id>', description: "judge this build's kept comments (default the latest build)" },
    sample: { type: 'string', arg: '<n>', description: 'judge a seeded sample of n comments' },
    seed: { type: 'string', arg: '<s>', description: "the sample's seed (default 0)" },
    'max-rps': {
      type: 'string',
      arg: '<r>',
      description: 'at most r requests per second (default judge.maxRps, else one at a time unpaced)',
    },
    'max-tokens-total': {
      type: 'string',
      arg: '<t>',
      description: 'stop cleanly once t tokens (prompt + completion) are spent',
    },
    'dry-run': { type: 'boolean', description: 'count the requests and estimate tokens and cost; send nothing' },
    'retry-unjudged': { type: 'boolean', description: 'ask again for comments whose stored answer was invalid twice' },
    reformulate: {
      type: 'string',
      arg: MODES.join('|'),
      description:
        'rewrite comments instead: curev every relevant one, curev+ the low-quality ones with seeded high-quality train exemplars',
    },
    report: { type: 'boolean', description: 'only print the quality counts; send nothing' },
    json: { type: 'boolean', description: 'print the run summary and the quality counts as JSON' },
    wait: WAIT_OPTION,
    quiet: { type: 'boolean', description: 'no progress lines on stderr' },
  },
  async run(values, io) {
    const db = String(values.db);
    const buildId = whole('judge', 'build', values.build, 1);
    const sample = whole('judge', 'sample', values.sample, 1);
    const maxTokensTotal = whole('judge', 'max-tokens-total', values['max-tokens-total'], 1);
    const maxRps = positive('judge', 'max-rps', values['max-rps']);
    const mode = values.reformulate === undefined ? undefined : String(values.reformulate);
    if (mode !== undefined && !MODES.includes(mode))
      throw new UserError(`judge: --reformulate ${mode}: must be one of ${MODES.join(', ')}`);
    const fileConfig = values.config ? loadCorpusConfig(String(values.config)) : undefined;
    const waitMs = lockWaitMs('judge', values.wait);
    const label = mode ? `reformulate ${mode}` : 'judge';
    let last = 0;
    const showProgress = !values.quiet && io.errIsTTY;
    // One writer: the judgments are saved as they come, like fetch's checkpoints (a dry run or --report only reads).
    const { run, quality } = await judgeJob({
      dbFile: db,
      config: fileConfig,
      overrides: {
        endpoint: values.endpoint === undefined ? undefined : String(values.endpoint),
        model: values.model === undefined ? undefined : String(values.model),
        maxRps,
      },
      buildId,
      // The key only from the environment; never printed, never stored.
      run: values.report
        ? undefined
        : {
            env: io.env,
            sample,
            seed: values.seed === undefined ? undefined : String(values.seed),
            maxTokensTotal,
            dryRun: values['dry-run'] === true,
            retryUnjudged: values['retry-unjudged'] === true,
            mode: mode as RewriteMode | undefined,
            checkpointEveryMs: checkpointMs(io),
          },
      before: (settings) => {
        if (!settings.endpoint && !values['dry-run']) {
          throw new UserError(
            'judge: no endpoint: give --endpoint or set judge.endpoint in corpus.json (there is no local default judge; --report prints the counts, which read "not counted")',
          );
        }
      },
      report: true,
      signal: io.signal,
      command: 'review-corpus judge',
      waitMs,
      onWait: (_, holder) => io.err(waitingLine(db, holder, waitMs)),
      onProgress: (p: LoopProgress) => {
        if (!showProgress || (Date.now() - last < 1000 && p.done < p.total)) return;
        last = Date.now();
        io.err(progressLine(label, p));
      },
    });
    if (values.json) io.out(printableJson({ run: run ?? null, quality }));
    else {
      if (run?.dryRun) printDryRun(io, label, run);
      else if (run) printSummary(io, label, run);
      for (const line of qualityTable(quality!)) io.out(line);
    }
    return 0;
  },
};

/** How often the file is written while judging; tests of kill-and-resume set REVIEW_CORPUS_CHECKPOINT_MS low. */
function checkpointMs(io: CliIo): number | undefined {
  const every = Number(io.env.REVIEW_CORPUS_CHECKPOINT_MS);
  return io.env.REVIEW_CORPUS_CHECKPOINT_MS !== undefined && Number.isFinite(every) && every >= 0 ? every : undefined;
}
