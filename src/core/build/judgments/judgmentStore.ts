// Judgments, rewrites and hand quality labels in the corpus file (tables from the judge migration in
// store/schema.ts). Judgments and rewrites are raw records like fetched ones: a rebuild reads them and
// never calls the endpoint. No row holds an API key or an account identity; the rater is a pseudonym.
import { createHash } from 'node:crypto';
import type { CorpusStore } from '../../ground/store/corpusStore';
import type { CommentJudgment, CommentRewrite, JudgeAnswer, QualityLabel, RewriteMode } from './types';

/** What a judgment (or rewrite) depends on; its SHA-256 is the cache key, so a change to any part asks again. */
export interface CacheKeyInput {
  model: string;
  promptVersion: string;
  /** Request parameters that change the answer (temperature, max_tokens, mode, exemplars…). */
  params: Record<string, unknown>;
  comment: string;
  hunk: string;
}

/** JSON with sorted object keys, so the same parameters always hash alike. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

export function judgmentCacheKey(input: CacheKeyInput): string {
  return createHash('sha256').update(canonical(input)).digest('hex');
}

/** A judgment as stored: the record plus its cache key, parameters and the last error of an unjudged one. */
export interface StoredJudgment extends CommentJudgment {
  cacheKey: string;
  params: Record<string, unknown>;
  /** Why it is unjudged (one line, from our validator or the HTTP status; never the endpoint's raw body). */
  error?: string;
}

interface JudgmentRow {
  cache_key: string;
  comment_key: string;
  model: string;
  prompt_version: string;
  params: string;
  status: string;
  answer: string | null;
  error: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  latency_ms: number | null;
  judged_at: string;
}

const opt = (v: number | null): number | undefined => (v === null ? undefined : v);

function fromRow(r: JudgmentRow): StoredJudgment {
  return {
    cacheKey: r.cache_key,
    commentKey: r.comment_key,
    model: r.model,
    promptVersion: r.prompt_version,
    params: JSON.parse(r.params) as Record<string, unknown>,
    status: r.status === 'judged' ? 'judged' : 'unjudged',
    answer: r.answer ? (JSON.parse(r.answer) as JudgeAnswer) : undefined,
    error: r.error ?? undefined,
    promptTokens: opt(r.prompt_tokens),
    completionTokens: opt(r.completion_tokens),
    latencyMs: opt(r.latency_ms),
    judgedAt: r.judged_at,
  };
}

/** Writes (or replaces) the judgment under its cache key. The caller saves the file. */
export function writeJudgment(store: CorpusStore, j: StoredJudgment): void {
  store.run(
    `INSERT INTO judgments(cache_key, comment_key, model, prompt_version, params, status, answer, error, prompt_tokens, completion_tokens, latency_ms, judged_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(cache_key, comment_key) DO UPDATE SET status = excluded.status, answer = excluded.answer,
       error = excluded.error, prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
       latency_ms = excluded.latency_ms, judged_at = excluded.judged_at`,
    [
      j.cacheKey,
      j.commentKey,
      j.model,
      j.promptVersion,
      canonical(j.params),
      j.status,
      j.answer ? JSON.stringify(j.answer) : null,
      j.error ?? null,
      j.promptTokens ?? null,
      j.completionTokens ?? null,
      j.latencyMs ?? null,
      j.judgedAt,
    ],
  );
}

/**
 * The stored judgment under a cache key: this comment's, else another comment's with the same text on
 * the same hunk (its answer applies as is), else undefined.
 */
export function judgmentByCacheKey(
  store: CorpusStore,
  cacheKey: string,
  commentKey?: string,
): StoredJudgment | undefined {
  const r = store.get<JudgmentRow>(
    'SELECT * FROM judgments WHERE cache_key = ? ORDER BY comment_key = ? DESC, judged_at DESC LIMIT 1',
    [cacheKey, commentKey ?? ''],
  );
  return r ? fromRow(r) : undefined;
}

export interface ReadJudgmentsOptions {
  /** Only this model's judgments (default: any model). */
  model?: string;
  promptVersion?: string;
  /** Only judged ones: an unjudged row then never hides an older judged one. */
  judgedOnly?: boolean;
}

/** Every stored judgment matching `opts`, oldest first (judge against judge needs them all). */
export function readAllJudgments(store: CorpusStore, opts: ReadJudgmentsOptions = {}): StoredJudgment[] {
  const where: string[] = [];
  const params: string[] = [];
  if (opts.model !== undefined) {
    where.push('model = ?');
    params.push(opts.model);
  }
  if (opts.promptVersion !== undefined) {
    where.push('prompt_version = ?');
    params.push(opts.promptVersion);
  }
  if (opts.judgedOnly) where.push("status = 'judged'");
  const sql = `SELECT * FROM judgments${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY judged_at, rowid`;
  return store.all<JudgmentRow>(sql, params).map(fromRow);
}

/** The latest judgment per comment key among those matching `opts`. */
export function readJudgments(store: CorpusStore, opts: ReadJudgmentsOptions = {}): Map<string, StoredJudgment> {
  const out = new Map<string, StoredJudgment>();
  for (const j of readAllJudgments(store, opts)) out.set(j.commentKey, j);
  return out;
}

/** A rewrite as stored, with its cache key. */
export interface StoredRewrite extends CommentRewrite {
  cacheKey: string;
}

interface RewriteRow {
  cache_key: string;
  comment_key: string;
  mode: string;
  model: string;
  prompt_version: string;
  text: string;
  exemplar_keys: string;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  latency_ms: number | null;
  rewritten_at: string;
}

export function writeRewrite(store: CorpusStore, r: StoredRewrite): void {
  store.run(
    `INSERT INTO comment_rewrites(cache_key, comment_key, mode, model, prompt_version, text, exemplar_keys, prompt_tokens, completion_tokens, latency_ms, rewritten_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(cache_key, comment_key) DO UPDATE SET text = excluded.text, prompt_tokens = excluded.prompt_tokens,
       completion_tokens = excluded.completion_tokens, latency_ms = excluded.latency_ms, rewritten_at = excluded.rewritten_at`,
    [
      r.cacheKey,
      r.commentKey,
      r.mode,
      r.model,
      r.promptVersion,
      r.text,
      JSON.stringify(r.exemplarKeys),
      r.promptTokens ?? null,
      r.completionTokens ?? null,
      r.latencyMs ?? null,
      r.rewrittenAt,
    ],
  );
}

export function rewriteByCacheKey(
  store: CorpusStore,
  cacheKey: string,
  commentKey?: string,
): StoredRewrite | undefined {
  const r = store.get<RewriteRow>(
    'SELECT * FROM comment_rewrites WHERE cache_key = ? ORDER BY comment_key = ? DESC, rewritten_at DESC LIMIT 1',
    [cacheKey, commentKey ?? ''],
  );
  return r ? rewriteFromRow(r) : undefined;
}

function rewriteFromRow(r: RewriteRow): StoredRewrite {
  return {
    cacheKey: r.cache_key,
    commentKey: r.comment_key,
    mode: r.mode as RewriteMode,
    model: r.model,
    promptVersion: r.prompt_version,
    text: r.text,
    exemplarKeys: JSON.parse(r.exemplar_keys) as string[],
    promptTokens: opt(r.prompt_tokens),
    completionTokens: opt(r.completion_tokens),
    latencyMs: opt(r.latency_ms),
    rewrittenAt: r.rewritten_at,
  };
}

/** The latest rewrite per comment key, of one mode and/or model if given. */
export function readRewrites(
  store: CorpusStore,
  opts: { mode?: RewriteMode; model?: string } = {},
): Map<string, StoredRewrite> {
  const where: string[] = [];
  const params: string[] = [];
  if (opts.mode !== undefined) {
    where.push('mode = ?');
    params.push(opts.mode);
  }
  if (opts.model !== undefined) {
    where.push('model = ?');
    params.push(opts.model);
  }
  const out = new Map<string, StoredRewrite>();
  const sql = `SELECT * FROM comment_rewrites${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY rewritten_at, rowid`;
  for (const r of store.all<RewriteRow>(sql, params)) out.set(r.comment_key, rewriteFromRow(r));
  return out;
}

/** Stores a hand label (one per comment and rater; a new one replaces the old). The caller saves the file. */
export function setQualityLabel(store: CorpusStore, label: QualityLabel): void {
  store.run(
    `INSERT INTO quality_labels(comment_key, rater, answer, labelled_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(comment_key, rater) DO UPDATE SET answer = excluded.answer, labelled_at = excluded.labelled_at`,
    [label.commentKey, label.rater, JSON.stringify(label.answer), label.labelledAt],
  );
}

/** Hand labels, of one rater or all, in (rater, comment key) order. */
export function readQualityLabels(store: CorpusStore, rater?: string): QualityLabel[] {
  const rows = store.all<{ comment_key: string; rater: string; answer: string; labelled_at: string }>(
    `SELECT comment_key, rater, answer, labelled_at FROM quality_labels${rater === undefined ? '' : ' WHERE rater = ?'} ORDER BY rater, comment_key`,
    rater === undefined ? [] : [rater],
  );
  return rows.map((r) => ({
    commentKey: r.comment_key,
    rater: r.rater,
    answer: JSON.parse(r.answer) as JudgeAnswer,
    labelledAt: r.labelled_at,
  }));
}
