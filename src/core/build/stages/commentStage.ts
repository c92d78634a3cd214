// Stage 2 and the forming of hunks: reads every comment of the kept changes, reads the stored diffs
// the anchorable ones need, decides `changedAround` and forms hunks from the diff, then runs the
// comment rules in funnel order on every comment.
//
// A comment is grouped by (change, path, patch set N) when it passes the structural rules (not a
// pseudo-file, has a line, not on the parent side, N + 1 exists). Comments of a group that N + 1
// changed around are ANCHORABLE and attach to a hunk, whichever comment rule later removes them
// (own_author, bot_account, acknowledgement, bot_template): they decide `nothing_left`,
// `suggested_edit` and `applied_fix` at the example stage.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { commentSpan } from '../../rules/comments/commentSpan';
import { noLine } from '../../rules/comments/noLine';
import { noSuccessor } from '../../rules/comments/noSuccessor';
import { parentSide } from '../../rules/comments/parentSide';
import { pseudoFile } from '../../rules/comments/pseudoFile';
import { COMMENT_RULES, firstRemoval } from '../../rules/funnel';
import type { CommentUnit, DiffState, Removal, Rule, RuleContext } from '../../rules/types';
import { checkpoint } from './abort';
import { anchorComments, type FormedHunk } from './anchoring';
import { diffInfoChunks, parseDiffInfo, type ParsedDiff } from './diffInfo';
import { createHash } from 'node:crypto';
import type { HunkFacts } from './hunkFacts';
import { authorBotFacts, storedIsoTime, type ChangeRec, type LoadedCorpus } from './loadCorpus';
import { eachRow } from './paged';
import { DiffTexts, diffBlobJoins, diffContentColumns } from '../../ground/store/diffText';
import type { SqlValue } from 'sql.js';
import { protectedComment } from '../../rules/comments/protectedComment';
import { findProtectedComments } from '../../rules/decontam/protectComments';
import type { Protection } from '../../rules/decontam/decontaminate';
import { matchingPolicy } from '../../rules/decontam/policy';
import { crossWindowQuote } from '../../rules/decontam/crossWindow';
import { commentKey } from './decisionKeys';

export interface CommentRec {
  id: number;
  change: ChangeRec;
  gerritId: string;
  unit: CommentUnit;
  removal: Removal | null;
}

export interface HunkRec {
  change: ChangeRec;
  path: string;
  psBefore: number;
  hunk: FormedHunk;
  comments: CommentRec[];
  /** Set by the build once the hunk facts are computed. */
  facts?: HunkFacts;
  /** SHA-256 of the whole file at N and N + 1 (only when rules.protectedFileSha256 asks; null: Gerrit skipped lines). */
  fileSha256?: { before: string | null; after: string | null };
}

interface Group {
  change: ChangeRec;
  path: string;
  ps: number;
  comments: CommentRec[];
  diff: DiffState;
}

export interface CommentStageResult {
  comments: CommentRec[];
  hunks: HunkRec[];
  /** Per org: stored diffs that could not be read as DiffInfo (their comments go under fetch_error). */
  unreadableDiffs: Map<string, number>;
}

/** Changes per block of the comment stage's reads (a block's comments and diffs are read together). */
const CHANGES_PER_BLOCK = 2000;

const groupKey = (changeId: number, path: string, ps: number) => `${changeId}\0${path}\0${ps}`;

/** The rules that say whether a comment could anchor an example at all, whatever its text or author. */
const STRUCTURAL_RULES: readonly Rule<CommentUnit>[] = [pseudoFile, noLine, parentSide, noSuccessor];

function isStructural(u: CommentUnit, ctx: RuleContext): boolean {
  return firstRemoval(STRUCTURAL_RULES, u, ctx) === null;
}

/** Paths a files list (`/revisions/{N+1}/files?base={N}`) says changed: its keys and the old paths of renames. */
export function changedPaths(json: string): Set<string> {
  const files = JSON.parse(json) as unknown;
  if (files === null || typeof files !== 'object' || Array.isArray(files))
    throw new Error('files list is not a path → FileInfo map');
  const paths = new Set<string>();
  for (const [path, info] of Object.entries(files as Record<string, unknown>)) {
    paths.add(path);
    const old = (info as { old_path?: unknown; status?: unknown } | null)?.old_path;
    if (typeof old === 'string' && (info as { status?: unknown }).status === 'R') paths.add(old);
  }
  return paths;
}

/**
 * SHA-256 of each side's whole file, for the whole-file match (file_sha256): the diff is fetched with
 * context=ALL, so its lines joined by "\n" are the file's bytes (diffInfo.ts); null when Gerrit skipped lines.
 */
function wholeFileDigests(diff: ParsedDiff): { before: string | null; after: string | null } {
  if (diff.chunks.some((c) => c.skipped)) return { before: null, after: null };
  const side = (pick: 'a' | 'b') => {
    const h = createHash('sha256');
    let first = true;
    for (const c of diff.chunks) {
      for (const line of c[pick]) {
        h.update(first ? line : `\n${line}`);
        first = false;
      }
    }
    return h.digest('hex');
  };
  return { before: side('a'), after: side('b') };
}

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** What the comment stage gathers as it reads the blocks. */
interface Gathered {
  comments: CommentRec[];
  groups: Map<string, Group>;
  hunks: HunkRec[];
  unreadableDiffs: Map<string, number>;
  fileLists: Map<string, Set<string>>;
}

/** `onHunk` sees each hunk as it is formed (the build starts computing its facts at once). */
/** `protection`: the references protected_comment reads (only when rules.protectedCommentLevel is on). */
export async function runCommentStage(
  store: CorpusStore,
  corpus: LoadedCorpus,
  signal?: AbortSignal,
  onHunk?: (h: HunkRec) => void,
  protection?: Protection,
): Promise<CommentStageResult> {
  const { changes, ctx } = corpus;
  const gathered: Gathered = {
    comments: [],
    groups: new Map(),
    hunks: [],
    unreadableDiffs: new Map(),
    fileLists: new Map(),
  };
  const readComment = commentReader(corpus, gathered);
  const readDiff = diffReader(ctx, gathered, new DiffTexts(store), onHunk);
  const readFileList = ([changeId, psBase, content]: SqlValue[]) => {
    try {
      gathered.fileLists.set(`${changeId}\0${psBase}`, changedPaths(String(content)));
    } catch {
      // Unreadable: its files' diffs decide, and a missing one is a fetch_error.
    }
  };

  // The kept changes in blocks of ids, each block's comments then its diffs (a group's comments are
  // all read before its diff, as the anchoring needs): hunks, and their facts in the worker, start
  // with the first block instead of after the last of 237k comments.
  const kept = [...changes.values()]
    .filter((c) => !c.removal)
    .map((c) => c.id)
    .sort((x, y) => x - y);
  for (let i = 0; i < kept.length; i += CHANGES_PER_BLOCK) {
    const range = [kept[i], kept[Math.min(i + CHANGES_PER_BLOCK, kept.length) - 1]];
    eachRow(
      store,
      `SELECT id, change_id, gerrit_id, path, patch_set, side, line, start_line, end_line, end_character, author, message, fix_suggestions, autogenerated,
        deleted_on_host, updated
      FROM comments WHERE change_id BETWEEN ? AND ?`,
      range,
      readComment,
    );
    eachRow(
      store,
      `SELECT d.id, d.change_id, d.path, d.ps_base, d.fetch_error, ${diffContentColumns('d')} FROM diffs d ${diffBlobJoins('d')}
      WHERE d.change_id BETWEEN ? AND ? ORDER BY d.change_id, d.path, d.ps_base`,
      range,
      readDiff,
    );
    eachRow(
      store,
      'SELECT change_id, ps_base, content FROM file_lists WHERE change_id BETWEEN ? AND ? AND content IS NOT NULL',
      range,
      readFileList,
    );
    await checkpoint(signal);
  }
  settleGroupDiffs(gathered);
  await checkpoint(signal);

  const { comments, hunks, unreadableDiffs } = gathered;
  for (const c of comments) c.removal = firstRemoval(COMMENT_RULES, c.unit, ctx);
  if (ctx.rules.protectedCommentLevel && protection) protectComments(comments, protection, ctx);
  return { comments, hunks, unreadableDiffs };
}

/** Reads one comment row into its unit, and into its group when the structural rules let it anchor. */
function commentReader(corpus: LoadedCorpus, { comments, groups }: Gathered): (row: SqlValue[]) => void {
  const { changes, bots, ctx } = corpus;
  return ([
    id,
    changeId,
    gerritId,
    pathValue,
    ps,
    side,
    line,
    startLine,
    endLine,
    endCharacter,
    authorValue,
    message,
    fixes,
    autogenerated,
    deletedOnHost,
    written,
  ]: SqlValue[]) => {
    const change = changes.get(Number(changeId));
    if (!change || change.removal) return; // a removed change's comments are not units of this build
    const patchSet = num(ps);
    const author = str(authorValue);
    const path = String(pathValue);
    const unit: CommentUnit = {
      org: change.org,
      path,
      patchSet,
      side: str(side),
      line: num(line),
      startLine: num(startLine),
      endLine: num(endLine),
      endCharacter: num(endCharacter),
      author,
      message: String(message),
      hasFixSuggestion: fixes !== null,
      owner: change.owner,
      authorIsBot: author !== null && bots.has(`${change.hostId}\0${author}`),
      autogenerated: autogenerated === null ? null : Number(autogenerated) === 1,
      ...authorBotFacts(corpus, change.hostId, author),
      deletedOnHost: str(deletedOnHost),
      written: storedIsoTime(written),
      changeMerged: change.merged,
      hasNextPatchSet: patchSet !== null && change.patchSets.has(patchSet + 1),
      diff: 'missing',
      changedAround: null,
    };
    const rec: CommentRec = { id: Number(id), change, gerritId: String(gerritId), unit, removal: null };
    comments.push(rec);
    if (isStructural(unit, ctx)) {
      const key = groupKey(change.id, path, patchSet as number);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { change, path, ps: patchSet as number, comments: [], diff: 'missing' }));
      g.comments.push(rec);
    }
  };
}

/** Reads one stored diff row: anchors its group's comments and forms the group's hunks. */
function diffReader(
  ctx: RuleContext,
  { groups, hunks, unreadableDiffs }: Gathered,
  diffTexts: DiffTexts,
  onHunk?: (h: HunkRec) => void,
): (row: SqlValue[]) => void {
  return (row: SqlValue[]) => {
    const [, changeId, path, psBase, fetchError] = row;
    const g = groups.get(groupKey(Number(changeId), String(path), Number(psBase)));
    if (!g) return;
    const stored = fetchError === null ? diffTexts.read(row.slice(5)) : null;
    if (fetchError !== null || stored === null) {
      g.diff = 'error';
      return;
    }
    let diff;
    try {
      diff = typeof stored === 'string' ? parseDiffInfo(stored) : diffInfoChunks(stored);
    } catch {
      g.diff = 'error';
      unreadableDiffs.set(g.change.org, (unreadableDiffs.get(g.change.org) ?? 0) + 1);
      return;
    }
    g.diff = 'ok';
    const anchoring = anchorComments(
      diff,
      g.comments.map((c) => commentSpan(c.unit)),
      ctx.rules,
    );
    g.comments.forEach((c, i) => (c.unit.changedAround = anchoring.changedAround[i]));
    const fileSha256 = ctx.rules.protectedFileSha256 && anchoring.hunks.length > 0 ? wholeFileDigests(diff) : undefined;
    for (const hunk of anchoring.hunks) {
      const rec: HunkRec = {
        change: g.change,
        path: g.path,
        psBefore: g.ps,
        hunk,
        comments: hunk.comments.map((i) => g.comments[i]),
        fileSha256,
      };
      hunks.push(rec);
      onHunk?.(rec);
    }
  };
}

/** Sets each group's diff state on its comments, once every block is read. */
function settleGroupDiffs({ groups, fileLists }: Gathered): void {
  for (const g of groups.values()) {
    // No diff stored, but N + 1's files list leaves the file out: the next patch set did not touch it.
    const changed = g.diff === 'missing' ? fileLists.get(`${g.change.id}\0${g.ps}`) : undefined;
    if (changed && !changed.has(g.path)) {
      g.diff = 'unchanged';
      for (const c of g.comments) c.unit.changedAround = false;
    }
    for (const c of g.comments) c.unit.diff = g.diff;
  }
}

/**
 * protected_comment: the comments the rules before it kept are matched against the protected reference
 * comments; each match is set on its unit and the comment decided again, so the first rule that removes
 * it still names the removal (and a rule after protected_comment no longer does).
 */
function protectComments(comments: readonly CommentRec[], protection: Protection, ctx: RuleContext): void {
  const position = COMMENT_RULES.indexOf(protectedComment);
  const reached = comments.filter(
    (c) => c.removal === null || COMMENT_RULES.findIndex((r) => r.id === c.removal!.rule) > position,
  );
  const found = findProtectedComments(
    reached.map((c) => ({
      key: commentKey(c.change.org, c.change.number, c.gerritId),
      window: c.change.window?.name ?? null,
      message: c.unit.message,
      kept: c.removal === null,
    })),
    protection.references,
    matchingPolicy(ctx.rules),
    protection.crossWindow,
  );
  for (const [i, match] of found) {
    const c = reached[i];
    const { referenceMatched, ...where } = match;
    const quote = crossWindowQuote(match.set, c.unit.message.slice(match.start, match.end), referenceMatched);
    c.unit.protectedMatch = { ...where, ...(quote ? { quote } : {}) };
    c.removal = firstRemoval(COMMENT_RULES, c.unit, ctx);
  }
}
