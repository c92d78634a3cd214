// A loopback fake of an OpenAI-compatible POST /v1/chat/completions, for tests without network.
// Deterministic: the answer is a function of the request (the comment text in the prompt), so a rerun
// gets the same judgment. Faults are injected per request, in order, for comments matching a pattern.
//
// Shapes follow OpenAI's API reference:
// - the chat completion object, https://platform.openai.com/docs/api-reference/chat/object:
//   {id, object: 'chat.completion', created, model, choices: [{index, message: {role, content}, finish_reason}],
//   usage: {prompt_tokens, completion_tokens, total_tokens}};
// - errors, https://platform.openai.com/docs/guides/error-codes and the API reference's error object:
//   {error: {message, type, param, code}}, with 429 "rate_limit_exceeded" and a Retry-After header
//   (https://platform.openai.com/docs/guides/rate-limits).
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FaultKind = '429' | '500' | 'slow' | 'malformed' | 'schema' | 'cut';

export interface Fault {
  kind: FaultKind;
  /** Only requests whose comment matches; absent: any. */
  comment?: RegExp;
  /** How many matching requests it hits (default 1). */
  times?: number;
  /** 429: the Retry-After header's seconds (default 1). */
  retryAfterS?: number;
  /** slow: how long before answering. */
  delayMs?: number;
}

export interface SeenRequest {
  authorization: string | undefined;
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    response_format?: { json_schema?: { name?: string } };
    [k: string]: unknown;
  };
  comment: string;
  /** What it answered: a status, and for 200 whether the content was a valid answer. */
  status: number;
}

export interface FakeJudge {
  url: string;
  requests: SeenRequest[];
  faults: Fault[];
  close(): Promise<void>;
}

export interface FakeJudgeOptions {
  faults?: Fault[];
  /** The judgment for a comment; default: scores drawn from the comment's SHA-256. */
  answerFor?: (comment: string) => Partial<Record<string, unknown>>;
}

/** The given review comment, as prompt.ts places it between its two headings. */
export function commentOf(body: SeenRequest['body']): string {
  const user = body.messages?.find((m) => m.role === 'user')?.content ?? '';
  const m = /### Given review comment\n\n([\s\S]*?)\n\n### Code changes/.exec(user);
  return m ? m[1] : '';
}

/** Scores 1..10 from the comment's hash, so answers are the same on every run. */
export function defaultAnswer(comment: string): Record<string, unknown> {
  const h = createHash('sha256').update(comment).digest();
  const score = (i: number) => 1 + (h[i] % 10);
  return {
    exemplary_comment: 'Consider extracting this into a helper.',
    type: [(['Refactoring', 'Bugfix', 'Testing'] as const)[h[3] % 3]],
    nature: ['Prescriptive'],
    civility: h[4] % 7 === 0 ? 'Uncivil' : 'Civil',
    relevance: score(0),
    clarity: score(1),
    conciseness: score(2),
    rationale: 'fake judge: scores from the comment hash',
  };
}

export async function startFakeJudge(opts: FakeJudgeOptions = {}): Promise<FakeJudge> {
  const requests: SeenRequest[] = [];
  const faults = (opts.faults ?? []).map((f) => ({ ...f, left: f.times ?? 1 }));
  let serial = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/v1/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: { message: 'Unknown request URL', type: 'invalid_request_error', param: null, code: 'unknown_url' },
        }),
      );
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SeenRequest['body'];
    const comment = commentOf(body);
    const seen: SeenRequest = { authorization: req.headers.authorization, body, comment, status: 200 };
    requests.push(seen);
    const fault = faults.find((f) => f.left > 0 && (!f.comment || f.comment.test(comment)));
    if (fault) fault.left--;
    const kind = fault?.kind;
    if (kind === '429') {
      seen.status = 429;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(fault!.retryAfterS ?? 1) }).end(
        JSON.stringify({
          error: {
            message: 'Rate limit reached for requests',
            type: 'requests',
            param: null,
            code: 'rate_limit_exceeded',
          },
        }),
      );
      return;
    }
    if (kind === '500') {
      seen.status = 500;
      res.writeHead(500, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: {
            message: 'The server had an error while processing your request.',
            type: 'server_error',
            param: null,
            code: null,
          },
        }),
      );
      return;
    }
    if (kind === 'slow') await new Promise((r) => setTimeout(r, fault!.delayMs ?? 200));
    const rewrite = body.response_format?.json_schema?.name === 'review_comment_reformulation';
    let content: string;
    if (kind === 'malformed')
      content = '{"type": ["Refactoring"], "relevance": 8, '; // cut JSON
    else if (kind === 'schema')
      content = JSON.stringify({ ...defaultAnswer(comment), relevance: 12, civility: 'Polite' });
    else if (rewrite)
      content = JSON.stringify({
        reformulated_comment: `Please ${comment.trim().replace(/^please\s+/i, '')}`.slice(0, 400),
      });
    else content = JSON.stringify({ ...defaultAnswer(comment), ...(opts.answerFor?.(comment) ?? {}) });
    const promptTokens = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
    const completionTokens = Math.ceil(content.length / 4);
    const answer = {
      id: `chatcmpl-fake${++serial}`,
      object: 'chat.completion',
      created: 1_733_000_000 + serial,
      model: body.model ?? 'unknown',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      res.writeHead(500).end(String(e));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    faults,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
