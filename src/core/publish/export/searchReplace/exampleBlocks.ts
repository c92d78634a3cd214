// One example as verified Search/Replace blocks, from the stored diff of its file.
//
// What the blocks turn the base file into (the target): patch set N's file with this example's hunk
// replaced by patch set N + 1's text of it, every edit inside the hunk applied (those Gerrit marked
// due_to_rebase too, as the example's `after` holds them) and none outside it. When the hunk holds
// every edit of the file (editsOutside 0) the target is patch set N + 1's whole file, and target_sha256
// equals after_sha256. Edits elsewhere in the file answer other comments or none; putting them into
// this example's blocks would teach edits its comments never asked for.
import { parseDiffInfo, type ParsedDiff } from '../../../build/stages/diffInfo';
import { makeBlocks, type SearchReplaceBlock } from './blocks';
import { sha256Hex, verifyBlocks, type SearchReplaceFailure } from './verify';
import { locateHunk, wholeFiles, type StoredHunk, type WholeFiles } from '../../../build/stages/wholeFiles';
import { visibleEscapes } from '../../../ground/text/visibleEscapes';

/** Why an example has no verified blocks: the three checks, or no stored diff that gives its files and hunk. */
export type SearchReplaceReason = SearchReplaceFailure | 'sr_no_diff';

export const SEARCH_REPLACE_REASONS: readonly SearchReplaceReason[] = [
  'sr_not_unique',
  'sr_overlap',
  'sr_mismatch',
  'sr_no_diff',
];

export interface ExampleSearchReplace {
  /** Patch set N's whole file. */
  base: string;
  base_sha256: string;
  target_sha256: string;
  /** Patch set N + 1's whole file's SHA-256. */
  after_sha256: string;
  /** Edits of the file outside the example's hunk (not applied; 0: the target is N + 1's file). */
  edits_outside_hunk: number;
  blocks: SearchReplaceBlock[];
}

export type SearchReplaceOutcome =
  | ({ ok: true } & ExampleSearchReplace)
  | ({ ok: false; reason: SearchReplaceFailure; detail: string } & ExampleSearchReplace)
  | { ok: false; reason: 'sr_no_diff'; detail: string };

export function exampleSearchReplace(
  diff: ParsedDiff | string | null,
  hunk: StoredHunk,
  mergeGapLines: number,
): SearchReplaceOutcome {
  if (diff === null) return { ok: false, reason: 'sr_no_diff', detail: 'no diff of the file is stored' };
  let parsed: ParsedDiff;
  try {
    parsed = typeof diff === 'string' ? parseDiffInfo(diff) : diff;
  } catch (e) {
    return { ok: false, reason: 'sr_no_diff', detail: `the stored diff is not DiffInfo (${(e as Error).message})` };
  }
  const file = fileFacts(parsed);
  if (!file)
    return {
      ok: false,
      reason: 'sr_no_diff',
      detail: 'the stored diff leaves lines out (skip), so the whole files are unknown',
    };
  const located = locateHunk(parsed, hunk);
  if (!located) return { ok: false, reason: 'sr_no_diff', detail: "the example's hunk is not in the stored diff" };
  const { files, base } = file;
  const target = [...files.base.slice(0, located.aFrom), ...located.lines, ...files.base.slice(located.aTo)].join('\n');
  const blocks = makeBlocks(files.base, located.edits, mergeGapLines);
  const facts: ExampleSearchReplace = {
    base,
    base_sha256: file.baseSha256,
    target_sha256: sha256Hex(target),
    after_sha256: file.afterSha256,
    edits_outside_hunk: located.editsOutside,
    blocks,
  };
  if (blocks.length === 0) return { ok: false, reason: 'sr_no_diff', detail: "the example's hunk holds no edit" };
  const verdict = verifyBlocks(base, blocks, facts.target_sha256);
  return verdict.ok ? { ok: true, ...facts } : { ok: false, reason: verdict.reason, detail: verdict.detail, ...facts };
}

/** A file's whole texts and hashes, once per parsed diff (a file's examples share them). */
const FILE_FACTS = new WeakMap<
  ParsedDiff,
  { files: WholeFiles; base: string; baseSha256: string; afterSha256: string } | null
>();

function fileFacts(diff: ParsedDiff) {
  let facts = FILE_FACTS.get(diff);
  if (facts === undefined) {
    const files = wholeFiles(diff);
    const base = files ? files.base.join('\n') : '';
    facts = files && { files, base, baseSha256: sha256Hex(base), afterSha256: sha256Hex(files.after.join('\n')) };
    FILE_FACTS.set(diff, facts);
  }
  return facts;
}

/**
 * The blocks under a `### path` header, in the usual markers (aider, Agentless, Clean-PR), for reading
 * and prompting; `blocks` is the exact form. A text not ending in "\n" (a file's last line without
 * one) gets a line break before the next marker, and the path's control characters are shown escaped,
 * so a host path cannot add lines of its own.
 */
export function renderBlocks(path: string, blocks: readonly SearchReplaceBlock[]): string {
  const part = (text: string) => (text === '' || text.endsWith('\n') ? text : text + '\n');
  return (
    `### ${visibleEscapes(path)}\n` +
    blocks.map((b) => `<<<<<<< SEARCH\n${part(b.search)}=======\n${part(b.replace)}>>>>>>> REPLACE\n`).join('\n')
  );
}
