// What the two documents of an example diff hold and how their lines map to the file's: both whole
// files (patch set N and N + 1, comments on their real lines, as Gerrit and the PR extension show
// them) or the hunk alone. Pure: no vscode, so the mapping is unit-tested under Node.
import { createHash } from 'node:crypto';
import type { ExampleRecord } from '../../core/review/inspect/example';
import { exampleWholeFiles, type LineSpan } from '../../core/review/inspect/wholeFile';
import { groupThreads, type CommentThreadModel } from './threads';

export type ViewMode = 'whole' | 'hunk';

export interface ExampleView {
  example: ExampleRecord;
  /** Whole files are shown (false: the hunk alone, asked for or fallen back to). */
  whole: boolean;
  /** Why the hunk alone is shown although whole files were asked for. */
  fallback: string | undefined;
  /** The whole files could not be read (their pack is missing or cut short): the tree marks the example. */
  unreadable?: boolean;
  before: string;
  after: string;
  /** The file line (1-based, patch set N and N + 1) of each document's first line. */
  beforeFirstLine: number;
  afterFirstLine: number;
  /** The hunk's 0-based lines in each document. */
  beforeHunk: LineSpan;
  afterHunk: LineSpan;
}

const lineCount = (text: string) => text.split('\n').length;

export function exampleView(example: ExampleRecord, mode: ViewMode, storedDiff: () => string | null): ExampleView {
  const hunkOnly = (fallback: string | undefined): ExampleView => ({
    example,
    whole: false,
    fallback,
    before: example.before,
    after: example.after,
    beforeFirstLine: example.beforeStart,
    afterFirstLine: example.afterStart,
    beforeHunk: { from: 0, to: lineCount(example.before) },
    afterHunk: { from: 0, to: lineCount(example.after) },
  });
  if (mode === 'hunk') return hunkOnly(undefined);
  let diff: string | null;
  try {
    diff = storedDiff();
  } catch (e) {
    // The whole files are in the blob pack beside the corpus: a pack removed or cut short after the
    // corpus opened. The hunk is in the corpus file itself, so the diff shows it, and says why.
    return hunkOnly(
      `the whole files cannot be read (${e instanceof Error ? e.message : String(e)}); restore the corpus's .blobs file beside it`,
    );
  }
  const files = exampleWholeFiles(diff, {
    beforeStart: example.beforeStart,
    afterStart: example.afterStart,
    beforeText: example.before,
    afterText: example.after,
  });
  if (!files.ok) return hunkOnly(files.reason);
  return { example, whole: true, fallback: undefined, ...files, beforeFirstLine: 1, afterFirstLine: 1 };
}

/** The example's comment threads on the lines of the view's before document. */
export function viewThreads(view: ExampleView): CommentThreadModel[] {
  return groupThreads({ comments: view.example.comments, beforeStart: view.beforeFirstLine, before: view.before });
}

/** A short digest of an example key for its documents' URIs: the id addresses the record, the digest tells a rebuild's new example under the same id. */
export function keyDigest(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}
