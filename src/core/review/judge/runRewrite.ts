// CuREV and CuREV+ (the CuREV paper, section 4.1): reformulate comments to be civil, clear and concise
// without changing their intent. curev rewrites every relevant comment; curev+ only the low-quality
// ones, each prompt carrying 10 high-quality train-window comments sampled (seeded) per comment, so
// the style varies instead of converging. Rewrites go to comment_rewrites; the original stays.
import type { CorpusConfig } from '../../ground/config/types';
import { latestBuildId } from '../inspect/groups';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';
import { REWRITE_RESPONSE_FORMAT, parseRewriteAnswer } from './answerSchema';
import { judgeItems, seededSample, type JudgeItem } from './judgeItems';
import { judgmentCacheKey, readJudgments, rewriteByCacheKey, writeRewrite } from '../../build/judgments/judgmentStore';
import { REWRITE_PROMPT_VERSION, rewriteMessages } from './prompt';
import { dryRun, mergeTasks, runLoop, type LoopTask } from './requestLoop';
import type { JudgeRunOptions, JudgeRunResult } from './runJudge';
import { judgeSettings } from '../../build/judgments/settings';
import { qualityOf, type RewriteMode } from '../../build/judgments/types';

/** The CuREV paper: "we randomly sample 10 high-quality comments" per low-quality one. */
export const EXEMPLARS_PER_PROMPT = 10;
/** The window exemplars come from: train, so no dev or test comment leaks into another's prompt. */
export const EXEMPLAR_WINDOW = 'train';

export async function runRewrite(
  store: CorpusStore,
  config: CorpusConfig | undefined,
  opts: JudgeRunOptions & { mode: RewriteMode },
): Promise<JudgeRunResult> {
  const settings = judgeSettings(config, opts);
  const buildId = opts.buildId ?? latestBuildId(store);
  if (buildId === undefined)
    throw new UserError(`${store.file}: no build yet; run review-corpus build --db ${store.file}`);
  const model = settings.model ?? '';
  const judgments = readJudgments(store, settings.model ? { model: settings.model } : {});
  if (judgments.size === 0)
    throw new UserError(
      'reformulate: no judgments in this file for this model; run review-corpus judge first (relevance and quality decide what is rewritten)',
    );
  let items = judgeItems(store, buildId);
  const quality = new Map(
    items.map((it) => [it.commentKey, qualityOf(judgments.get(it.commentKey), settings.thresholds)]),
  );
  const pool = items.filter((it) => it.window === EXEMPLAR_WINDOW && quality.get(it.commentKey) === 'high');
  items = items.filter((it) =>
    opts.mode === 'curev'
      ? ['high', 'low'].includes(quality.get(it.commentKey)!)
      : quality.get(it.commentKey) === 'low',
  );
  if (opts.sample !== undefined) items = seededSample(items, opts.sample, opts.seed ?? '0');
  const base = {
    temperature: settings.temperature,
    max_tokens: settings.maxTokens,
    response_format: REWRITE_RESPONSE_FORMAT,
  };
  const tasks = rewriteTasks(store, items, pool, opts, model, base);
  // curev+ exemplars differ per comment, so only curev merges identical comments into one request.
  const pending = mergeTasks<string, LoopTask<string> & { exemplarKeys: string[] }>(
    tasks.filter((t) => !t.cached).map((t) => t.task),
  );
  if (opts.dryRun) return { dryRun: true, ...dryRun(pending, tasks.length, settings.maxTokens, settings.price) };
  if (!settings.endpoint)
    throw new UserError('reformulate: no endpoint: give --endpoint or set judge.endpoint in corpus.json');
  if (!settings.model) throw new UserError('reformulate: no model: give --model or set judge.model in corpus.json');
  const now = opts.now ?? (() => new Date().toISOString());
  const summary = await runLoop(
    pending,
    tasks.length,
    {
      client: { endpoint: settings.endpoint, apiKey: opts.apiKey, maxRps: settings.maxRps },
      model,
      params: base,
      maxTokensTotal: opts.maxTokensTotal,
      price: settings.price,
      signal: opts.signal,
      onProgress: opts.onProgress,
      checkpoint: opts.checkpoint,
      checkpointEveryMs: opts.checkpointEveryMs,
    },
    parseRewriteAnswer,
    (task, outcome, usage) => {
      if (!outcome.ok) return; // an invalid rewrite is counted, not stored: the original stands
      for (const commentKey of task.commentKeys)
        writeRewrite(store, {
          cacheKey: task.cacheKey,
          commentKey,
          mode: opts.mode,
          model,
          promptVersion: REWRITE_PROMPT_VERSION,
          text: outcome.value,
          exemplarKeys: (task as LoopTask<string> & { exemplarKeys: string[] }).exemplarKeys,
          promptTokens: usage.promptTokens,
          completionTokens: usage.completionTokens,
          latencyMs: usage.latencyMs,
          rewrittenAt: now(),
        });
    },
  );
  return { dryRun: false, ...summary };
}

type RewriteTask = LoopTask<string> & { exemplarKeys: string[] };

/** Each item's request (curev+: with its own seeded exemplars), and whether its rewrite is already stored. */
function rewriteTasks(
  store: CorpusStore,
  items: readonly JudgeItem[],
  pool: readonly JudgeItem[],
  opts: JudgeRunOptions & { mode: RewriteMode },
  model: string,
  base: Record<string, unknown>,
): { task: RewriteTask; cached: boolean }[] {
  const seed = opts.seed ?? '0';
  return items.map((it: JudgeItem) => {
    const exemplars =
      opts.mode === 'curev+'
        ? seededSample(
            pool.filter((p) => p.commentKey !== it.commentKey),
            EXEMPLARS_PER_PROMPT,
            `${seed}\0${it.commentKey}`,
          )
        : [];
    const exemplarKeys = exemplars.map((e) => e.commentKey);
    const cacheKey = judgmentCacheKey({
      model,
      promptVersion: REWRITE_PROMPT_VERSION,
      params: { ...base, mode: opts.mode, exemplars: exemplarKeys },
      comment: it.comment,
      hunk: it.hunk,
    });
    const task: RewriteTask = {
      cacheKey,
      commentKeys: [it.commentKey],
      messages: rewriteMessages(
        it.comment,
        it.hunk,
        exemplars.map((e) => e.comment),
      ),
      exemplarKeys,
    };
    return { task, cached: rewriteByCacheKey(store, cacheKey, it.commentKey)?.commentKey === it.commentKey };
  });
}
