// The loop judge and rewrite runs share: send each missing request once at the client's pace, retry an
// invalid answer once, store every outcome as it comes (the caller's checkpoint saves the file, so a
// killed run resumes), stop cleanly at the token budget, and report progress.
import { UserError } from '../../ground/store/errors';
import { ChatClient, type ChatClientOptions, type ChatResult } from './chatClient';
import { estimateTokens, type ChatMessage } from './prompt';
import type { Parsed } from './answerSchema';

export interface LoopTask<T> {
  cacheKey: string;
  /** The comments this one request answers: the same text on the same hunk is asked once. */
  commentKeys: string[];
  messages: ChatMessage[];
  /** Phantom: the parsed answer's type. */
  readonly answer?: T;
}

/** Tasks with the same cache key merged into one, in first-seen order. */
export function mergeTasks<T, K extends LoopTask<T>>(tasks: readonly K[]): K[] {
  const byKey = new Map<string, K>();
  for (const t of tasks) {
    const seen = byKey.get(t.cacheKey);
    if (seen) seen.commentKeys.push(...t.commentKeys);
    else byKey.set(t.cacheKey, { ...t, commentKeys: [...t.commentKeys] });
  }
  return [...byKey.values()];
}

export interface LoopProgress {
  total: number;
  done: number;
  cacheHits: number;
  /** Requests sent (retries of an invalid answer included; the client's HTTP retries not). */
  sent: number;
  stored: number;
  /** Answers invalid twice, stored as unjudged. */
  invalid: number;
  /** Requests the endpoint did not answer (after its retries); nothing stored, a rerun sends them again. */
  failed: number;
  promptTokens: number;
  completionTokens: number;
  /** tokens × pricePer1kTokens; null: no price configured. */
  estimatedCost: number | null;
  retries: number;
}

export interface LoopSummary extends LoopProgress {
  /** Why the loop ended before the last task; absent: it did not. */
  stopped?: 'max-tokens-total';
}

export interface DryRunSummary {
  total: number;
  cacheHits: number;
  requests: number;
  estimatedPromptTokens: number;
  /** An upper bound: max_tokens per request. */
  estimatedCompletionTokens: number;
  estimatedCost: number | null;
}

export interface LoopOptions {
  client: Omit<ChatClientOptions, 'signal'>;
  model: string;
  params: Record<string, unknown>;
  maxTokensTotal?: number;
  price?: { prompt: number; completion: number };
  signal?: AbortSignal;
  onProgress?: (p: LoopProgress) => void;
  /** Saves what is stored so far (atomically, under the writer lock the caller holds). */
  checkpoint: () => void;
  /** Least time between two checkpoints; 0 saves after every answer. Default 2000. */
  checkpointEveryMs?: number;
}

export const cost = (
  promptTokens: number,
  completionTokens: number,
  price?: { prompt: number; completion: number },
): number | null => (price ? (promptTokens * price.prompt + completionTokens * price.completion) / 1000 : null);

export function dryRun<T>(
  pending: readonly LoopTask<T>[],
  total: number,
  maxTokens: number,
  price?: { prompt: number; completion: number },
): DryRunSummary {
  const prompt = pending.reduce((n, t) => n + estimateTokens(t.messages), 0);
  const completion = pending.length * maxTokens;
  const asked = pending.reduce((n, t) => n + t.commentKeys.length, 0);
  return {
    total,
    cacheHits: total - asked,
    requests: pending.length,
    estimatedPromptTokens: prompt,
    estimatedCompletionTokens: completion,
    estimatedCost: cost(prompt, completion, price),
  };
}

/** Statuses that no retry mends: the key, the model or the URL is wrong. The run stops with one line. */
const FATAL = new Set([401, 403, 404]);

export async function runLoop<T>(
  pending: readonly LoopTask<T>[],
  total: number,
  opts: LoopOptions,
  parse: (content: string | null) => Parsed<T>,
  store: (
    task: LoopTask<T>,
    outcome: { ok: true; value: T } | { ok: false; problem: string },
    usage: { promptTokens?: number; completionTokens?: number; latencyMs: number },
  ) => void,
): Promise<LoopSummary> {
  const asked = pending.reduce((n, t) => n + t.commentKeys.length, 0);
  const p: LoopSummary = {
    total,
    done: total - asked,
    cacheHits: total - asked,
    sent: 0,
    stored: 0,
    invalid: 0,
    failed: 0,
    promptTokens: 0,
    completionTokens: 0,
    estimatedCost: cost(0, 0, opts.price),
    retries: 0,
  };
  const client = new ChatClient({ ...opts.client, signal: opts.signal });
  const every = opts.checkpointEveryMs ?? 2000;
  let saved = Date.now();
  let unreported = 0;
  const report = () => {
    p.estimatedCost = cost(p.promptTokens, p.completionTokens, opts.price);
    p.retries = client.stats.retries;
    opts.onProgress?.({ ...p });
  };
  report();
  try {
    for (const task of pending) {
      if (
        opts.maxTokensTotal !== undefined &&
        p.promptTokens + p.completionTokens + unreported >= opts.maxTokensTotal
      ) {
        p.stopped = 'max-tokens-total';
        break;
      }
      const { outcome, usage, answered, unreportedTokens } = await askTask(client, task, opts, parse, p);
      unreported += unreportedTokens;
      p.done += task.commentKeys.length;
      if (!answered) {
        p.failed += task.commentKeys.length;
      } else {
        if (!outcome.ok) p.invalid += task.commentKeys.length;
        p.stored += task.commentKeys.length;
        store(task, outcome, {
          promptTokens: usage.counted ? usage.promptTokens : undefined,
          completionTokens: usage.counted ? usage.completionTokens : undefined,
          latencyMs: usage.latencyMs,
        });
        if (Date.now() - saved >= every) {
          opts.checkpoint();
          saved = Date.now();
        }
      }
      report();
    }
  } catch (e) {
    // Cancelled or stopped: what was answered so far is kept, so the next run resumes after it.
    if (p.stored > 0) opts.checkpoint();
    throw e;
  } finally {
    await client.close();
  }
  opts.checkpoint();
  report();
  return p;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * Asks the endpoint for one task, counting what was sent and spent in `p`. `answered` is false when
 * nothing came back (nothing is stored); `unreportedTokens` estimates what a server without usage spent.
 */
async function askTask<T>(
  client: ChatClient,
  task: LoopTask<T>,
  opts: LoopOptions,
  parse: (content: string | null) => Parsed<T>,
  p: LoopSummary,
): Promise<{
  outcome: Outcome<T>;
  usage: { promptTokens: number; completionTokens: number; latencyMs: number; counted: boolean };
  answered: boolean;
  unreportedTokens: number;
}> {
  let outcome: Outcome<T> = { ok: false, problem: 'not asked' };
  const usage = { promptTokens: 0, completionTokens: 0, latencyMs: 0, counted: false };
  let answered = false;
  let unreportedTokens = 0;
  // The first answer and, when it is invalid, one retry that says what was wrong (the same request
  // again would, at temperature 0, most often get the same answer).
  let messages = task.messages;
  for (let attempt = 1; attempt <= 2; attempt++) {
    p.sent++;
    const res: ChatResult = await client.complete({ model: opts.model, messages, params: opts.params });
    usage.latencyMs += res.latencyMs;
    if (!res.ok) {
      if (res.reason === 'http' && res.status !== undefined && FATAL.has(res.status)) {
        throw new UserError(
          `judge: the endpoint answered HTTP ${res.status} (${res.status === 404 ? 'wrong endpoint URL or model' : 'the key is missing or refused'}); nothing more was sent`,
        );
      }
      answered = res.reason === 'malformed'; // not answered at all: nothing stored, a rerun asks again
      if (!answered) break;
      outcome = { ok: false, problem: res.message };
      continue;
    }
    answered = true;
    if (res.promptTokens !== undefined || res.completionTokens !== undefined) usage.counted = true;
    usage.promptTokens += res.promptTokens ?? 0;
    usage.completionTokens += res.completionTokens ?? 0;
    p.promptTokens += res.promptTokens ?? 0;
    p.completionTokens += res.completionTokens ?? 0;
    // A server that reports no usage still spends: the budget counts an estimate for it.
    unreportedTokens += res.promptTokens === undefined ? estimateTokens(messages) : 0;
    outcome =
      res.finishReason === 'length' ? { ok: false, problem: 'the answer was cut at max_tokens' } : parse(res.content);
    if (outcome.ok) break;
    messages = [
      ...task.messages,
      { role: 'assistant', content: res.content ?? '' },
      {
        role: 'user',
        content: `That answer is not valid: ${outcome.problem}. Answer again with one JSON object that matches the schema.`,
      },
    ];
  }
  return { outcome, usage, answered, unreportedTokens };
}
