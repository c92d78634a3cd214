// A client for one OpenAI-compatible POST /v1/chat/completions endpoint (OpenAI, or a local llama.cpp,
// vLLM or Ollama server). Polite like the Gerrit host client, and with its parts: one request at a
// time on one connection, paced by gerrit/pace.ts's Pacer (here from --max-rps), Retry-After honoured
// and a jittered exponential backoff otherwise (gerrit/retryPolicy.ts). The loop is ours for the
// reasons hostClient.ts gives for not using undici's RetryAgent.
//
// Request and response shapes: https://platform.openai.com/docs/api-reference/chat/create and
// https://platform.openai.com/docs/api-reference/chat/object (id, object 'chat.completion', created,
// model, choices[{index, message{role, content}, finish_reason}], usage{prompt_tokens,
// completion_tokens, total_tokens}).
import { Client } from 'undici';
import { Pacer } from '../../gerrit/pace';
import { RETRY_STATUSES, backoffMs, describeError, isRetryableError, retryAfterMs } from '../../gerrit/retryPolicy';
import { USER_AGENT } from '../../gerrit/userAgent';
import type { ChatMessage } from './prompt';

/** A model server's 500 is usually a worker that fell over (out of memory, a restart): worth a retry, unlike Gerrit's. */
const CHAT_RETRY_STATUSES: ReadonlySet<number> = new Set([...RETRY_STATUSES, 500]);

export interface ChatClientOptions {
  /** The endpoint: `…/v1/chat/completions`, or its base `…/v1` (then `/chat/completions` is added). */
  endpoint: string;
  /** The bearer key; absent for a local server that wants none. Never logged, never in a message. */
  apiKey?: string;
  /** The most requests started per second (the least interval between one answer and the next request). */
  maxRps?: number;
  maxRetries?: number;
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** A Retry-After longer than this ends the retries. Default 10 min. */
  maxRetryAfterMs?: number;
  /** Time for one whole attempt (a model may think for a while). Default 300 s. */
  requestDeadlineMs?: number;
  signal?: AbortSignal;
  /** Told of every retry (the wait and why); must not throw. */
  onRetry?: (e: { attempt: number; waitMs: number; cause: string }) => void;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Sent as is: response_format, temperature, max_tokens, seed. */
  params: Record<string, unknown>;
}

export type ChatResult =
  | {
      ok: true;
      content: string | null;
      finishReason: string | null;
      promptTokens?: number;
      completionTokens?: number;
      latencyMs: number;
    }
  | { ok: false; reason: 'http' | 'network' | 'malformed'; status?: number; message: string; latencyMs: number };

export interface ChatClientStats {
  requests: number;
  retries: number;
}

/** The URL requests go to, from an endpoint as the user gave it; a one-line Error for anything else. */
export function completionsUrl(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`the judge endpoint ${JSON.stringify(endpoint)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`the judge endpoint must be http(s), not ${url.protocol}`);
  if (url.username || url.password)
    throw new Error(
      'the judge endpoint must not carry a user or password; the key comes from its environment variable',
    );
  if (!/\/chat\/completions\/?$/.test(url.pathname))
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  return url;
}

export class ChatClient {
  readonly stats: ChatClientStats = { requests: 0, retries: 0 };
  private readonly url: URL;
  private readonly client: Client;
  private readonly pacer = new Pacer();
  private readonly intervalMs: number;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ChatClientOptions) {
    this.url = completionsUrl(options.endpoint);
    this.intervalMs = options.maxRps && options.maxRps > 0 ? 1000 / options.maxRps : 0;
    const deadline = options.requestDeadlineMs ?? 300_000;
    this.client = new Client(this.url.origin, {
      pipelining: 1,
      headersTimeout: deadline,
      bodyTimeout: deadline,
      connect: { timeout: 30_000 },
    });
  }

  /** One completion, after retries; resolves with a failure for anything the server does, rejects only when aborted. */
  complete(req: ChatRequest): Promise<ChatResult> {
    const run = this.tail.then(() => this.completeNow(req));
    this.tail = run.catch(() => undefined);
    return run;
  }

  close(): Promise<void> {
    return this.tail.then(() => this.client.close());
  }

  private async completeNow(req: ChatRequest): Promise<ChatResult> {
    const { signal } = this.options;
    const maxRetries = this.options.maxRetries ?? 4;
    const body = JSON.stringify({ model: req.model, messages: req.messages, ...req.params });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': USER_AGENT,
    };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let notBefore = Pacer.now();
    for (let attempt = 1; ; attempt++) {
      await this.pacer.turn(this.intervalMs, notBefore, signal);
      const started = Pacer.now();
      this.stats.requests++;
      const answer = await this.requestOnce(headers, body, started);
      if ('final' in answer) return answer.final;
      const { status, text, retryAfter, failure } = answer;
      const latencyMs = Math.round(Pacer.now() - started);
      if (status !== undefined && status >= 200 && status < 300) return parseCompletion(text, latencyMs);
      if (status !== undefined && !CHAT_RETRY_STATUSES.has(status)) {
        return { ok: false, reason: 'http', status, message: `HTTP ${status}`, latencyMs };
      }
      const cause = status !== undefined ? `HTTP ${status}` : (failure ?? 'no answer');
      if (attempt > maxRetries)
        return {
          ok: false,
          reason: status !== undefined ? 'http' : 'network',
          status,
          message: `${cause} after ${attempt} attempt(s)`,
          latencyMs,
        };
      if (retryAfter !== undefined && retryAfter > (this.options.maxRetryAfterMs ?? 600_000)) {
        return {
          ok: false,
          reason: 'http',
          status,
          message: `${cause}; the endpoint asks to wait ${Math.round(retryAfter / 1000)} s, more than allowed`,
          latencyMs,
        };
      }
      const waitMs =
        retryAfter ?? backoffMs(attempt, this.options.baseBackoffMs ?? 1000, this.options.maxBackoffMs ?? 60_000);
      notBefore = Pacer.now() + waitMs;
      this.stats.retries++;
      try {
        this.options.onRetry?.({ attempt, waitMs, cause });
      } catch {
        // a faulty log hook must not stop the run
      }
    }
  }

  /** One request and its answer; `final` when a network error is one a retry cannot help. */
  private async requestOnce(
    headers: Record<string, string>,
    body: string,
    started: number,
  ): Promise<{ final: ChatResult } | { status?: number; text: string; retryAfter?: number; failure?: string }> {
    const { signal } = this.options;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.options.requestDeadlineMs ?? 300_000);
    let status: number | undefined;
    let text = '';
    let retryAfter: number | undefined;
    let failure: string | undefined;
    try {
      const res = await this.client.request({
        path: this.url.pathname + this.url.search,
        method: 'POST',
        headers,
        body,
        signal: signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal,
      });
      status = res.statusCode;
      retryAfter = retryAfterMs(res.headers['retry-after']);
      text = await res.body.text();
    } catch (e) {
      signal?.throwIfAborted();
      if (!deadline.signal.aborted && !isRetryableError(e)) {
        return {
          final: {
            ok: false,
            reason: 'network',
            message: describeError(e),
            latencyMs: Math.round(Pacer.now() - started),
          },
        };
      }
      failure = deadline.signal.aborted ? 'no complete answer in time' : describeError(e);
    } finally {
      clearTimeout(timer);
      this.pacer.answered();
    }
    return { status, text, retryAfter, failure };
  }
}

/** The first choice's content and the usage of a chat.completion body; `malformed` when it is not one. */
export function parseCompletion(text: string, latencyMs: number): ChatResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'malformed', message: 'the response body is not JSON', latencyMs };
  }
  const r = json as {
    choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
  };
  const choice = Array.isArray(r?.choices) ? r.choices[0] : undefined;
  if (!choice || typeof choice !== 'object' || !choice.message)
    return { ok: false, reason: 'malformed', message: 'the response has no choices[0].message', latencyMs };
  const content = choice.message.content;
  const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
  return {
    ok: true,
    content: typeof content === 'string' ? content : null,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    promptTokens: int(r.usage?.prompt_tokens),
    completionTokens: int(r.usage?.completion_tokens),
    latencyMs,
  };
}
