// Stages 3 to 7: hunk rules, example rules, duplicates per organization, decontamination, then windows. Every hunk that
// reached stage 3 becomes an ExampleRec carrying its unit ('hunks' when a hunk rule removed it,
// otherwise 'examples'), the stage and rule that removed it (rule null: kept), and its window.
import { findDuplicates, type DedupCandidate } from '../../rules/dedup';
import { findProtectedOverlaps, type Protection } from '../../rules/decontam/decontaminate';
import { crossWindowQuote } from '../../rules/decontam/crossWindow';
import type { OverlapMatch } from '../../rules/decontam/matcher';
import { examplePolicy, matchingPolicy } from '../../rules/decontam/policy';
import { DECONTAMINATION_RULES, DUPLICATE_RULES, EXAMPLE_RULES, HUNK_RULES, firstRemoval } from '../../rules/funnel';
import type { Evidence, ExampleUnit, HunkUnit, RuleContext, Stage } from '../../rules/types';
import type { CommentRec, HunkRec } from './commentStage';
import type { FunnelTally } from '../reports/funnelReport';
import { languageOf } from './language';
import type { ChangeRec } from './loadCorpus';
import type { HunkFacts } from './hunkFacts';
import { findTargetInComments } from './targetInComment';

export interface ExampleRec {
  key: string;
  change: ChangeRec;
  path: string;
  psBefore: number;
  language: string;
  beforeStart: number;
  afterStart: number;
  beforeText: string;
  afterText: string;
  comments: CommentRec[];
  unit: 'hunks' | 'examples';
  /** The stage of the rule that removed it; 'windows' for a kept example. */
  stage: Stage | 'windows';
  rule: string | null;
  /** What the removing rule's decision rests on (absent: kept, or the rule gives none). */
  evidence?: Evidence;
  /** The window of its change's created date (null: none), whether kept or not. */
  window: string | null;
  /** The registered half of the halves window it falls in, when halves are configured. */
  half?: 'a' | 'b' | null;
  /** Its hunk's facts, when computed ahead. */
  facts?: HunkFacts;
  /** Edited lines inside it that Gerrit marked due_to_rebase (upstream code, kept on the after side). */
  rebaseEditedLines: number;
  /** SHA-256 of its whole file at N and N + 1, when rules.protectedFileSha256 asks for them (null: not known). */
  fileSha256?: { before: string | null; after: string | null };
}

/** Stable across builds, so flags and labels survive a rebuild. */
export function exampleKey(
  org: string,
  changeNumber: number,
  psBefore: number,
  beforeStart: number,
  path: string,
): string {
  return `${org}/${changeNumber}/${psBefore}/${beforeStart}/${path}`;
}

function toExample(h: HunkRec, key: string): ExampleRec {
  return {
    key,
    change: h.change,
    path: h.path,
    psBefore: h.psBefore,
    language: languageOf(h.path),
    beforeStart: h.hunk.beforeStart,
    afterStart: h.hunk.afterStart,
    beforeText: h.hunk.beforeText,
    afterText: h.hunk.afterText,
    comments: h.comments,
    unit: 'examples',
    stage: 'windows',
    rule: null,
    window: h.change.window?.name ?? null,
    facts: h.facts,
    rebaseEditedLines: h.hunk.rebaseEditedLines,
    fileSha256: h.fileSha256,
  };
}

/** Keys in a stable order; a (never expected) repeat gets "#2", "#3"… so keys stay unique. */
function keyed(hunks: readonly HunkRec[]): { hunk: HunkRec; key: string }[] {
  const out = hunks.map((h) => ({
    hunk: h,
    key: exampleKey(h.change.org, h.change.number, h.psBefore, h.hunk.beforeStart, h.path),
  }));
  out.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : x.hunk.hunk.afterStart - y.hunk.hunk.afterStart));
  const seen = new Map<string, number>();
  for (const o of out) {
    const n = (seen.get(o.key) ?? 0) + 1;
    seen.set(o.key, n);
    if (n > 1) o.key = `${o.key}#${n}`;
  }
  return out;
}

const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The order the inspector lists examples in: by change creation, change number, file, then position.
 * The build numbers examples in this order, so a page of a tree group is a walk of an index by id.
 */
export function treeOrder(x: ExampleRec, y: ExampleRec): number {
  return (
    compare(x.change.created, y.change.created) ||
    x.change.number - y.change.number ||
    compare(x.path, y.path) ||
    x.beforeStart - y.beforeStart ||
    compare(x.key, y.key)
  );
}

/** Every hunk's ExampleRec, in treeOrder. */
export function runExampleStages(
  hunks: readonly HunkRec[],
  ctx: RuleContext,
  confirmedFlags: ReadonlySet<string>,
  tally: FunnelTally,
  protection: Protection = { references: [] },
): ExampleRec[] {
  const examples: ExampleRec[] = [];
  const survivors: ExampleRec[] = [];
  for (const { hunk: h, key } of keyed(hunks)) {
    const e = toExample(h, key);
    examples.push(e);
    if (passesHunkAndExampleRules(e, h, ctx, confirmedFlags, tally)) survivors.push(e);
  }
  decontaminate(removeDuplicates(survivors, ctx, tally), ctx, tally, protection);
  return examples.sort(treeOrder);
}

/** The hunk rules, then the example rules; false (and tallied) when one removes the example. */
function passesHunkAndExampleRules(
  e: ExampleRec,
  h: HunkRec,
  ctx: RuleContext,
  confirmedFlags: ReadonlySet<string>,
  tally: FunnelTally,
): boolean {
  const org = e.change.org;
  const hunkUnit: HunkUnit = {
    beforeLines: h.hunk.beforeLines,
    afterLines: h.hunk.afterLines,
    editLinesBefore: h.hunk.editLinesBefore,
    editLinesAfter: h.hunk.editLinesAfter,
  };
  const hunkRemoval = firstRemoval(HUNK_RULES, hunkUnit, ctx);
  if (hunkRemoval) {
    Object.assign(e, { unit: 'hunks', stage: 'hunks', rule: hunkRemoval.rule, evidence: hunkRemoval.evidence });
    tally.remove(org, e.window, 'hunks', hunkRemoval.rule);
    return false;
  }
  const kindAfter = e.change.patchSets.get(e.psBefore + 1) ?? null;
  if (kindAfter === null) tally.count(org, e.window, 'kind_unrecorded');
  const exampleUnit: ExampleUnit = {
    kindAfter,
    comments: e.comments.map((c) => ({
      message: c.unit.message,
      hasFixSuggestion: c.unit.hasFixSuggestion,
      removedBy: c.removal?.rule ?? null,
    })),
    flagConfirmed: confirmedFlags.has(e.key),
  };
  const removal = firstRemoval(EXAMPLE_RULES, exampleUnit, ctx);
  if (removal) {
    Object.assign(e, { stage: 'examples', rule: removal.rule, evidence: removal.evidence });
    tally.remove(org, e.window, 'examples', removal.rule);
    if (removal.rule === 'nothing_left') tally.count(org, e.window, 'nothing_left_overlap', e.comments.length);
    return false;
  }
  return true;
}

/** The duplicate rules, per organization; returns the examples they keep. */
function removeDuplicates(survivors: ExampleRec[], ctx: RuleContext, tally: FunnelTally): ExampleRec[] {
  const undeduplicated: ExampleRec[] = [];
  for (const [, orgExamples] of groupByOrg(survivors)) {
    const candidates: DedupCandidate[] = orgExamples.map((e) => ({
      key: e.key,
      changeId: e.change.changeKey,
      changeNumber: e.change.number,
      created: e.change.created,
      before: e.beforeText,
      after: e.afterText,
      sketch: e.facts?.sketch,
    }));
    const found = findDuplicates(candidates, ctx.rules);
    orgExamples.forEach((e, i) => {
      const removal = firstRemoval(DUPLICATE_RULES, { duplicate: found.get(i) ?? null }, ctx);
      if (removal) {
        Object.assign(e, { stage: 'duplicates', rule: removal.rule, evidence: removal.evidence });
        tally.remove(e.change.org, e.window, 'duplicates', removal.rule);
        return;
      }
      undeduplicated.push(e);
    });
  }
  return undeduplicated;
}

/** The decontamination rules; the examples they keep are kept in their window. */
function decontaminate(
  undeduplicated: ExampleRec[],
  ctx: RuleContext,
  tally: FunnelTally,
  protection: Protection,
): void {
  // Decontamination: across organizations, since windows and references are the corpus's.
  const overlaps = findProtectedOverlaps(
    undeduplicated.map((e) => ({
      key: e.key,
      window: e.window,
      texts: {
        before: e.beforeText,
        after: e.afterText,
        comments: e.comments
          .filter((c) => c.removal === null)
          .map((c) => ({ id: c.gerritId, message: c.unit.message })),
        fileSha256: e.fileSha256,
      },
    })),
    protection.references,
    examplePolicy(matchingPolicy(ctx.rules)),
    protection.crossWindow && { ...protection.crossWindow, policy: examplePolicy(protection.crossWindow.policy) },
  );
  undeduplicated.forEach((e, i) => {
    const found = overlaps.get(i);
    const overlap = found
      ? { ...found, quote: crossWindowQuote(found.set, matchedText(e, found), found.referenceMatched) }
      : null;
    const removal = firstRemoval(DECONTAMINATION_RULES, { overlap }, ctx);
    if (removal) {
      Object.assign(e, { stage: 'decontamination', rule: removal.rule, evidence: removal.evidence });
      tally.remove(e.change.org, e.window, 'decontamination', removal.rule);
      return;
    }
    keepInWindow(e, tally, ctx.rules.targetInCommentMinChars);
  });
}

/** The part of the example's text a match names (a side's span, or the span of one of its comments). */
function matchedText(e: ExampleRec, m: OverlapMatch): string {
  const text =
    m.side === 'comment'
      ? (e.comments.find((c) => c.gerritId === m.commentId)?.unit.message ?? '')
      : m.side === 'before'
        ? e.beforeText
        : e.afterText;
  return text.slice(m.start, m.end);
}

function groupByOrg(examples: readonly ExampleRec[]): Map<string, ExampleRec[]> {
  const byOrg = new Map<string, ExampleRec[]>();
  for (const e of examples) {
    const list = byOrg.get(e.change.org);
    if (list) list.push(e);
    else byOrg.set(e.change.org, [e]);
  }
  return byOrg;
}

/**
 * Stage 6. The example goes to its change's window. A change in no window (the config's windows do
 * not cover its created date) stays kept but in no window: counted as `outside_windows`. Sealed
 * windows never get here: their changes are removed at collection (sealed_window).
 */
function keepInWindow(e: ExampleRec, tally: FunnelTally, minChars: number | undefined): void {
  const org = e.change.org;
  if (e.window === null) tally.count(org, null, 'outside_windows');
  else tally.keep(org, e.window);
  if (targetInComment(e, minChars)) tally.count(org, e.window, 'target_in_comment');
  if (e.rebaseEditedLines > 0) tally.count(org, e.window, 'rebase_edited_examples');
}

/**
 * target_in_comment: a comment that survived the comment rules holds the example's target. The facts
 * were computed with the build's rules.targetInCommentMinChars; `minChars` is for an example without them.
 */
export function targetInComment(e: ExampleRec, minChars?: number): boolean {
  if (e.facts) return e.facts.targetComments.some((i) => e.comments[i].removal === null);
  return (
    findTargetInComments(
      e.beforeText,
      e.afterText,
      e.comments.filter((c) => c.removal === null).map((c) => c.unit.message),
      minChars,
    ) !== null
  );
}
