// `review-corpus judge` and "Judge Comments…": judge every kept comment of a build (or a seeded
// sample) that has no stored judgment for this model, prompt version and parameters.
import type { CorpusConfig } from '../../ground/config/types';
import { latestBuildId } from '../inspect/groups';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';
import { JUDGE_RESPONSE_FORMAT, parseJudgeAnswer } from './answerSchema';
import { judgeItems, seededSample, type JudgeItem } from './judgeItems';
import {
  judgmentByCacheKey,
  judgmentCacheKey,
  writeJudgment,
  type StoredJudgment,
} from '../../build/judgments/judgmentStore';
import { PROMPT_VERSION, judgeMessages } from './prompt';
import {
  dryRun,
  mergeTasks,
  runLoop,
  type DryRunSummary,
  type LoopOptions,
  type LoopSummary,
  type LoopTask,
} from './requestLoop';
import { judgeSettings, type JudgeSettings } from '../../build/judgments/settings';
import type { JudgeAnswer } from '../../build/judgments/types';

export interface JudgeRunOptions {
  /** Overrides of the config's judge section (the CLI's flags). */
  endpoint?: string;
  model?: string;
  apiKey?: string;
  maxRps?: number;
  buildId?: number;
  sample?: number;
  seed?: string;
  maxTokensTotal?: number;
  dryRun?: boolean;
  /** Ask again for comments whose stored answer was invalid twice (default: they count as unjudged and are not re-sent). */
  retryUnjudged?: boolean;
  signal?: AbortSignal;
  onProgress?: LoopOptions['onProgress'];
  checkpoint: () => void;
  checkpointEveryMs?: number;
  now?: () => string;
}

export type JudgeRunResult = ({ dryRun: true } & DryRunSummary) | ({ dryRun: false } & LoopSummary);

/** The request parameters that shape an answer: in the cache key and sent with every request. */
export function judgeParams(s: Pick<JudgeSettings, 'temperature' | 'maxTokens'>): Record<string, unknown> {
  return { temperature: s.temperature, max_tokens: s.maxTokens, response_format: JUDGE_RESPONSE_FORMAT };
}

export interface PlannedJudgment {
  item: JudgeItem;
  task: LoopTask<JudgeAnswer>;
  /** This comment's own judgment is stored. */
  cached: boolean;
  /** Another comment's judgment of the same text on the same hunk, to copy without a request. */
  copyFrom?: StoredJudgment;
}

/** The comments a run covers, each with its cache key and whether a stored judgment already answers it. */
export function planJudgments(
  store: CorpusStore,
  settings: JudgeSettings,
  opts: Pick<JudgeRunOptions, 'buildId' | 'sample' | 'seed' | 'retryUnjudged'>,
): PlannedJudgment[] {
  const buildId = opts.buildId ?? latestBuildId(store);
  if (buildId === undefined)
    throw new UserError(`${store.file}: no build yet; run review-corpus build --db ${store.file}`);
  let items = judgeItems(store, buildId);
  if (opts.sample !== undefined) items = seededSample(items, opts.sample, opts.seed ?? '0');
  const params = judgeParams(settings);
  const model = settings.model ?? '';
  return items.map((item) => {
    const cacheKey = judgmentCacheKey({
      model,
      promptVersion: PROMPT_VERSION,
      params,
      comment: item.comment,
      hunk: item.hunk,
    });
    const stored = judgmentByCacheKey(store, cacheKey, item.commentKey);
    const usable = stored !== undefined && (stored.status === 'judged' || !opts.retryUnjudged);
    const task = { cacheKey, commentKeys: [item.commentKey], messages: judgeMessages(item.comment, item.hunk) };
    return {
      item,
      task,
      cached: usable && stored.commentKey === item.commentKey,
      copyFrom: usable && stored.commentKey !== item.commentKey ? stored : undefined,
    };
  });
}

export async function runJudge(
  store: CorpusStore,
  config: CorpusConfig | undefined,
  opts: JudgeRunOptions,
): Promise<JudgeRunResult> {
  const settings = judgeSettings(config, opts);
  const plan = planJudgments(store, settings, opts);
  const pending = mergeTasks<JudgeAnswer, LoopTask<JudgeAnswer>>(
    plan.filter((p) => !p.cached && !p.copyFrom).map((p) => p.task),
  );
  if (opts.dryRun) return { dryRun: true, ...dryRun(pending, plan.length, settings.maxTokens, settings.price) };
  // The same comment text on the same hunk, judged under another comment's key: the answer is the same.
  for (const p of plan) if (p.copyFrom) writeJudgment(store, { ...p.copyFrom, commentKey: p.item.commentKey });
  if (!settings.endpoint)
    throw new UserError(
      'judge: no endpoint: give --endpoint or set judge.endpoint in corpus.json (there is no local default judge)',
    );
  if (!settings.model) throw new UserError('judge: no model: give --model or set judge.model in corpus.json');
  const model = settings.model;
  const params = judgeParams(settings);
  const now = opts.now ?? (() => new Date().toISOString());
  const summary = await runLoop(
    pending,
    plan.length,
    {
      client: { endpoint: settings.endpoint, apiKey: opts.apiKey, maxRps: settings.maxRps },
      model,
      params,
      maxTokensTotal: opts.maxTokensTotal,
      price: settings.price,
      signal: opts.signal,
      onProgress: opts.onProgress,
      checkpoint: opts.checkpoint,
      checkpointEveryMs: opts.checkpointEveryMs,
    },
    parseJudgeAnswer,
    (task, outcome, usage) => {
      for (const commentKey of task.commentKeys)
        writeJudgment(store, {
          cacheKey: task.cacheKey,
          commentKey,
          model,
          promptVersion: PROMPT_VERSION,
          params,
          status: outcome.ok ? 'judged' : 'unjudged',
          answer: outcome.ok ? outcome.value : undefined,
          error: outcome.ok ? undefined : outcome.problem,
          promptTokens: usage.promptTokens,
          completionTokens: usage.completionTokens,
          latencyMs: usage.latencyMs,
          judgedAt: now(),
        });
    },
  );
  return { dryRun: false, ...summary };
}
