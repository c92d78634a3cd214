// In-host probes for the inspector benchmark: time spent in the tree provider and in the comment
// decorations (by wrapping the live instances' methods, not by editing src/), memory, and small helpers.
import { readFileSync, statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { ReviewCorpusApi } from '../../../src/extension';
import type { CorpusNode } from '../../../src/extension/tree/nodes';

export interface Call {
  /** 'root', 'org', 'window', 'group', … : the node whose children were asked for. */
  of: string;
  start: number;
  end: number;
  children: number;
}

/** Records every provider.getChildren call (VS Code's and ours) until `restore()`. */
export class ProviderProbe {
  calls: Call[] = [];
  private readonly original: ReviewCorpusApi['tree']['provider']['getChildren'];

  constructor(private readonly a: ReviewCorpusApi) {
    const provider = a.tree.provider;
    this.original = provider.getChildren;
    const original = this.original.bind(provider);
    provider.getChildren = (n?: CorpusNode) => {
      const start = performance.now();
      const children = original(n);
      this.calls.push({ of: n?.type ?? 'root', start, end: performance.now(), children: children.length });
      return children;
    };
  }

  /** Total ms spent in getChildren for nodes of one kind, among calls that started at or after `since`. */
  spent(of: string, since: number): number {
    return this.calls.filter((c) => c.of === of && c.start >= since).reduce((ms, c) => ms + c.end - c.start, 0);
  }

  /** When the first call for a node of this kind ended, after `since`. */
  firstEnd(of: string, since: number): number | undefined {
    return this.calls.find((c) => c.of === of && c.start >= since)?.end;
  }

  restore(): void {
    this.a.tree.provider.getChildren = this.original;
  }
}

/** One decorate call: when it finished, how long it took, the documents it covered, when the host's next task ran. */
interface DecorateCall {
  at: number;
  ms: number;
  uris: string[];
  nextTaskAt?: number;
}

/** Records when CommentDecorations.decorate finished for a visible before side (it runs on every editor change). */
export class DecorateProbe {
  applied: DecorateCall[] = [];
  private readonly original: ReviewCorpusApi['comments']['decorate'];

  constructor(private readonly a: ReviewCorpusApi) {
    const comments = a.comments;
    this.original = comments.decorate;
    const original = this.original.bind(comments);
    comments.decorate = (editors: readonly vscode.TextEditor[]) => {
      const start = performance.now();
      original(editors);
      const end = performance.now();
      const entry: DecorateCall = { at: end, ms: end - start, uris: editors.map((e) => e.document.uri.toString(true)) };
      this.applied.push(entry);
      // When the host's next task runs: the soonest its RPC writer (a 0 ms timer) can send what decorate queued.
      setTimeout(() => {
        entry.nextTaskAt = performance.now();
      }, 0);
    };
  }

  /** The first decorate call after `since` that covered a document whose URI contains `part`. */
  firstFor(part: string, since: number): DecorateCall | undefined {
    return this.applied.find((d) => d.at >= since && d.uris.some((u) => u.includes(part)));
  }

  restore(): void {
    this.a.comments.decorate = this.original;
  }
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

let gc: (() => void) | undefined;
/**
 * A full garbage collection, so a snapshot tells memory still held from garbage not yet collected (a closed
 * store's buffer, say). The host runs without --expose-gc; the flag set now applies to a context made now.
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** The extension host's memory, in MB; with the open corpus, its file and in-memory database sizes. */
export function memorySnapshot(a: ReviewCorpusApi): Record<string, number | string> {
  const m = process.memoryUsage();
  const snap: Record<string, number | string> = {
    rssMb: mb(m.rss),
    heapUsedMb: mb(m.heapUsed),
    heapTotalMb: mb(m.heapTotal),
    externalMb: mb(m.external),
    arrayBuffersMb: mb(m.arrayBuffers),
    maxRssMb: mb(process.resourceUsage().maxRSS * 1024),
    // OS threads of the host process: every live worker thread adds some (Linux only).
    threads: Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN),
  };
  const c = a.session.corpus;
  if (c) {
    const pages = Number(c.store.scalar('PRAGMA page_count'));
    const pageSize = Number(c.store.scalar('PRAGMA page_size'));
    snap.dbMb = mb(pages * pageSize);
    snap.fileMb = mb(statSync(c.dbFile).size);
  }
  return snap;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export const round = (ms: number) => Math.round(ms * 10) / 10;

/** Polls `probe` every 10 ms (in-host state only, no DOM) until it returns something. */
export async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 60000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined && v !== false) return v;
    if (performance.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
