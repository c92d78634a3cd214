// Builds Gerrit's DiffInfo for two versions of a file, in the shape real Gerrit sends (README.md,
// "DiffInfo", cites the Gerrit source of each point): each side is the file's text split on "\n", so a
// file ending in "\n" has a last line "" that meta_*.lines counts, and a CRLF line keeps its "\r".
import type { DiffInfo as GerritDiffInfo } from '../../src/core/gerrit/types';
import type { FileVersion } from './fixtureTypes';

/** The shape is Gerrit's (src/core/gerrit/types.ts); the fake always sends `diff_header`. */
export type DiffInfo = GerritDiffInfo & { diff_header: string[] };
export type DiffChunk = DiffInfo['content'][number];

/** GetDiff's `whitespace` values (DiffPreferencesInfo.Whitespace). */
export type Whitespace = 'IGNORE_NONE' | 'IGNORE_TRAILING' | 'IGNORE_LEADING_AND_TRAILING' | 'IGNORE_ALL';

/**
 * What a line is compared by under each whitespace setting: JGit's comparators as Gerrit maps them
 * (IGNORE_LEADING_AND_TRAILING is WS_IGNORE_CHANGE: whitespace runs count as one, trailing ones not at
 * all, so new indentation where there was none is still a change). "\r" is whitespace to JGit.
 */
const COMPARE_KEY: Record<Whitespace, (line: string) => string> = {
  IGNORE_NONE: (l) => l,
  IGNORE_TRAILING: (l) => l.replace(/\s+$/, ''),
  IGNORE_LEADING_AND_TRAILING: (l) => l.replace(/\s+/g, ' ').replace(/ $/, ''),
  IGNORE_ALL: (l) => l.replace(/\s+/g, ''),
};

type Op = { kind: 'same'; a: string; b: string } | { kind: 'del'; a: string } | { kind: 'add'; b: string };

/** Longest-common-subsequence line diff on compare keys; deletions before insertions inside a changed run. */
export function lineDiff(a: string[], b: string[], key: (line: string) => string = (l) => l): Op[] {
  const ka = a.map(key);
  const kb = b.map(key);
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = ka[i] === kb[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && ka[i] === kb[j]) ops.push({ kind: 'same', a: a[i++], b: b[j++] });
    else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push({ kind: 'del', a: a[i++] });
    else ops.push({ kind: 'add', b: b[j++] });
  }
  return ops;
}

/**
 * Groups diff operations into Gerrit's entries: `ab` for a common run, `a`/`b` for a changed run, and
 * `{a, b, common: true}` for a run the whitespace setting calls common although its bytes differ.
 */
export function diffChunks(a: string[], b: string[], whitespace: Whitespace = 'IGNORE_NONE'): DiffChunk[] {
  const chunks: DiffChunk[] = [];
  let run: { kind: 'ab' | 'ws' | 'edit'; a: string[]; b: string[] } | undefined;
  const flush = () => {
    if (!run) return;
    if (run.kind === 'ab') chunks.push({ ab: run.a });
    else if (run.kind === 'ws') chunks.push({ a: run.a, b: run.b, common: true });
    else chunks.push({ ...(run.a.length > 0 ? { a: run.a } : {}), ...(run.b.length > 0 ? { b: run.b } : {}) });
    run = undefined;
  };
  for (const op of lineDiff(a, b, COMPARE_KEY[whitespace])) {
    const kind = op.kind !== 'same' ? 'edit' : op.a === op.b ? 'ab' : 'ws';
    if (run?.kind !== kind) {
      flush();
      run = { kind, a: [], b: [] };
    }
    if (op.kind !== 'add') run.a.push(op.a);
    if (op.kind !== 'del' && kind !== 'ab') run.b.push(op.b);
  }
  flush();
  return chunks;
}

/**
 * Marks the edits a rebase brought in. Gerrit maps the edits between the two patch sets' parents onto
 * the patch-set diff (EditTransformer); the fake marks an edit `due_to_rebase` when it is, line for
 * line, one of the parents' edits. Fixtures keep upstream edits apart from the author's.
 */
function markRebaseEdits(chunks: DiffChunk[], parentA: string[], parentB: string[]): DiffChunk[] {
  const upstream = new Set(
    diffChunks(parentA, parentB)
      .filter((c) => !c.ab)
      .map((c) => JSON.stringify([c.a ?? [], c.b ?? []])),
  );
  return chunks.map((c) =>
    !c.ab && !c.common && upstream.has(JSON.stringify([c.a ?? [], c.b ?? []])) ? { ...c, due_to_rebase: true } : c,
  );
}

/**
 * Gerrit sends the whole file whatever `context` says (PatchScriptBuilder forces full context). The one
 * `skip` it sends is for a file whose every difference the whitespace setting ignored: with no edit to
 * pack, the content is a single skip over side A (DiffContentCalculator, SparseFileContent).
 */
function wholeFile(chunks: DiffChunk[], aLines: number): DiffChunk[] {
  const edited = chunks.some((c) => !c.ab && !c.common);
  const ignoredOnly = !edited && chunks.some((c) => c.common);
  return ignoredOnly ? [{ skip: aLines }] : chunks;
}

export function contentTypeOf(path: string): string {
  const suffix = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  const types: Record<string, string> = {
    py: 'text/x-python',
    cpp: 'text/x-c++src',
    h: 'text/x-c++hdr',
    qml: 'text/x-qml',
    php: 'text/x-php',
    js: 'text/javascript',
    json: 'application/json',
    yaml: 'text/x-yaml',
    md: 'text/x-gfm',
    bat: 'text/x-sh',
    rst: 'text/x-rst',
    cmake: 'text/x-cmake',
    less: 'text/x-less',
  };
  return types[suffix] ?? 'text/plain';
}

/** A side as Gerrit sends it: the text split on "\n" (a file ending in "\n" ends with ""). */
export function gerritLines(v: FileVersion | null): string[] {
  if (v === null) return [];
  const text = v.lines.length === 0 ? '' : v.lines.join('\n') + (v.no_newline_at_end ? '' : '\n');
  return text === '' ? [] : text.split('\n');
}

export interface DiffRequest {
  /** The file's path at the base (its old path when renamed) and at the revision. */
  pathA: string;
  pathB: string;
  a: FileVersion | null;
  b: FileVersion | null;
  whitespace: Whitespace;
  shas: [string, string];
  /** The file in the parents of the base and of the revision, when the revision was rebased. */
  parents?: [FileVersion | null, FileVersion | null];
}

export function buildDiffInfo(r: DiffRequest): DiffInfo {
  const aLines = gerritLines(r.a);
  const bLines = gerritLines(r.b);
  let chunks = diffChunks(aLines, bLines, r.whitespace);
  if (r.parents) chunks = markRebaseEdits(chunks, gerritLines(r.parents[0]), gerritLines(r.parents[1]));
  const renamed = r.a !== null && r.b !== null && r.pathA !== r.pathB;
  const info: DiffInfo = {
    change_type: r.a === null ? 'ADDED' : r.b === null ? 'DELETED' : renamed ? 'RENAMED' : 'MODIFIED',
    diff_header: [
      `diff --git a/${r.pathA} b/${r.pathB}`,
      ...(renamed ? [`rename from ${r.pathA}`, `rename to ${r.pathB}`] : []),
      `index ${r.shas[0].slice(0, 7)}..${r.shas[1].slice(0, 7)} 100644`,
      r.a === null ? '--- /dev/null' : `--- a/${r.pathA}`,
      r.b === null ? '+++ /dev/null' : `+++ b/${r.pathB}`,
    ],
    content: wholeFile(chunks, aLines.length),
  };
  if (r.a) info.meta_a = { name: r.pathA, content_type: contentTypeOf(r.pathA), lines: aLines.length };
  if (r.b) info.meta_b = { name: r.pathB, content_type: contentTypeOf(r.pathB), lines: bLines.length };
  return {
    ...(info.meta_a ? { meta_a: info.meta_a } : {}),
    ...(info.meta_b ? { meta_b: info.meta_b } : {}),
    change_type: info.change_type,
    diff_header: info.diff_header,
    content: info.content,
  };
}
