// Builds Gerrit's DiffInfo for two versions of a file. Lines carry no "\n" but keep a CRLF line's
// "\r", as real Gerrit does. A missing final newline is reported in the extra field
// `x_no_newline_at_end` (real Gerrit has none; clients must tolerate unknown fields).
import type { FileVersion } from './fixtureTypes';

export type DiffChunk = { ab: string[] } | { a?: string[]; b?: string[] } | { skip: number };

export interface DiffInfo {
  meta_a?: { name: string; content_type: string; lines: number };
  meta_b?: { name: string; content_type: string; lines: number };
  change_type: 'ADDED' | 'MODIFIED' | 'DELETED';
  diff_header: string[];
  content: DiffChunk[];
  x_no_newline_at_end?: { a: boolean; b: boolean };
}

type Op = { kind: 'same' | 'del' | 'add'; line: string };

/** Longest-common-subsequence line diff; deletions before insertions inside a changed run. */
export function lineDiff(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: 'same', line: a[i] });
      i++;
      j++;
    } else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      ops.push({ kind: 'del', line: a[i++] });
    } else {
      ops.push({ kind: 'add', line: b[j++] });
    }
  }
  return ops;
}

/** Groups diff operations into Gerrit chunks: `ab` for common runs, `a`/`b` for each changed run. */
export function diffChunks(a: string[], b: string[]): DiffChunk[] {
  const chunks: DiffChunk[] = [];
  let same: string[] = [];
  let del: string[] = [];
  let add: string[] = [];
  const flushEdit = () => {
    if (del.length === 0 && add.length === 0) return;
    const chunk: { a?: string[]; b?: string[] } = {};
    if (del.length > 0) chunk.a = del;
    if (add.length > 0) chunk.b = add;
    chunks.push(chunk);
    del = [];
    add = [];
  };
  for (const op of lineDiff(a, b)) {
    if (op.kind === 'same') {
      flushEdit();
      same.push(op.line);
      continue;
    }
    if (same.length > 0) {
      chunks.push({ ab: same });
      same = [];
    }
    (op.kind === 'del' ? del : add).push(op.line);
  }
  flushEdit();
  if (same.length > 0) chunks.push({ ab: same });
  return chunks;
}

/** Replaces the middle of long common runs by `skip` chunks, keeping `context` lines next to each edit. */
function withSkips(chunks: DiffChunk[], context: number): DiffChunk[] {
  if (!chunks.some((c) => !('ab' in c))) return chunks;
  const out: DiffChunk[] = [];
  chunks.forEach((chunk, index) => {
    if (!('ab' in chunk)) return void out.push(chunk);
    const lines = chunk.ab;
    const keepHead = index === 0 ? 0 : context;
    const keepTail = index === chunks.length - 1 ? 0 : context;
    if (lines.length <= keepHead + keepTail) return void out.push(chunk);
    if (keepHead > 0) out.push({ ab: lines.slice(0, keepHead) });
    out.push({ skip: lines.length - keepHead - keepTail });
    if (keepTail > 0) out.push({ ab: lines.slice(lines.length - keepTail) });
  });
  return out;
}

export function contentTypeOf(path: string): string {
  const suffix = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  const types: Record<string, string> = {
    py: 'text/x-python', cpp: 'text/x-c++src', h: 'text/x-c++hdr', qml: 'text/x-qml', php: 'text/x-php',
    js: 'text/javascript', json: 'application/json', yaml: 'text/x-yaml', md: 'text/x-gfm', bat: 'text/x-sh',
    rst: 'text/x-rst', cmake: 'text/x-cmake', less: 'text/x-less',
  };
  return types[suffix] ?? 'text/plain';
}

export function buildDiffInfo(path: string, a: FileVersion | null, b: FileVersion | null, context: 'ALL' | number, shas: [string, string]): DiffInfo {
  const aLines = a?.lines ?? [];
  const bLines = b?.lines ?? [];
  const chunks = diffChunks(aLines, bLines);
  const info: DiffInfo = {
    change_type: a === null ? 'ADDED' : b === null ? 'DELETED' : 'MODIFIED',
    diff_header: [
      `diff --git a/${path} b/${path}`,
      `index ${shas[0].slice(0, 7)}..${shas[1].slice(0, 7)} 100644`,
      a === null ? '--- /dev/null' : `--- a/${path}`,
      b === null ? '+++ /dev/null' : `+++ b/${path}`,
    ],
    content: context === 'ALL' ? chunks : withSkips(chunks, context),
  };
  if (a) info.meta_a = { name: path, content_type: contentTypeOf(path), lines: aLines.length };
  if (b) info.meta_b = { name: path, content_type: contentTypeOf(path), lines: bLines.length };
  if (a?.no_newline_at_end || b?.no_newline_at_end) {
    info.x_no_newline_at_end = { a: Boolean(a?.no_newline_at_end), b: Boolean(b?.no_newline_at_end) };
  }
  return info;
}
