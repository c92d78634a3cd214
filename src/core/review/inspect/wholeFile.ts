// An example's two whole files, patch set N and N + 1 of its file, rebuilt byte for byte from the
// stored DiffInfo (Gerrit sends whole files: test/fake-gerrit/README.md), and where its hunk lies in
// them, so the inspector can show the file with comments on their real lines. The rebuilding is the
// Search/Replace export's (wholeFiles, locateHunk): one reading of a DiffInfo's sides for both.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { diffContentById } from '../../ground/store/diffText';
import { parseDiffInfo, textLineCount, type ParsedDiff } from '../../build/stages/diffInfo';
import { locateHunk, wholeFiles, type StoredHunk } from '../../build/stages/wholeFiles';

/** 0-based lines [from, to) of a document; from === to: an empty side, placed before line `from`. */
export interface LineSpan {
  from: number;
  to: number;
}

export interface ExampleWholeFiles {
  /** Patch set N's file and N + 1's, exactly as stored. */
  before: string;
  after: string;
  /** The example's hunk in each. */
  beforeHunk: LineSpan;
  afterHunk: LineSpan;
}

export type WholeFilesOutcome = ({ ok: true } & ExampleWholeFiles) | { ok: false; reason: string };

/** Both whole files of the example's stored diff, or why they cannot be shown (then: the hunk alone). */
export function exampleWholeFiles(diff: ParsedDiff | string | null, hunk: StoredHunk): WholeFilesOutcome {
  if (diff === null) return { ok: false, reason: 'no diff of the file is stored' };
  let parsed: ParsedDiff;
  try {
    parsed = typeof diff === 'string' ? parseDiffInfo(diff) : diff;
  } catch (e) {
    return { ok: false, reason: `the stored diff is not DiffInfo (${(e as Error).message})` };
  }
  const files = wholeFiles(parsed);
  if (!files) return { ok: false, reason: 'the stored diff leaves lines out' };
  const located = locateHunk(parsed, hunk);
  if (!located) return { ok: false, reason: 'the hunk is not in the stored diff' };
  // The lines the hunk's texts cover as an editor counts them: not the "" Gerrit adds after a final newline.
  const bFrom = hunk.afterStart - 1;
  return {
    ok: true,
    before: files.base.join('\n'),
    after: files.after.join('\n'),
    beforeHunk: { from: located.aFrom, to: located.aFrom + textLineCount(hunk.beforeText) },
    afterHunk: { from: bFrom, to: bFrom + textLineCount(hunk.afterText) },
  };
}

/** The stored DiffInfo JSON the example was built from (its file, patch set N → N + 1); null: none stored. */
export function storedDiffOf(store: CorpusStore, exampleId: number): string | null {
  const id = store.scalar(
    `SELECT d.id FROM examples e JOIN diffs d ON d.change_id = e.change_id AND d.path = e.path AND d.ps_base = e.ps_before AND d.ps_target = e.ps_after
     WHERE e.id = ?`,
    [exampleId],
  );
  return id === null || id === undefined ? null : diffContentById(store, Number(id));
}
