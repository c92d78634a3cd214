// All the indexes of one group of protected references, and the question asked of each example:
// which reference does it overlap, by which policy, and where. The indexes are built once on the
// references; each example's texts are scanned against them (see substringIndex.ts, ngramIndex.ts,
// jaccardIndex.ts), never compared with every reference in turn.
import { createHash } from 'node:crypto';
import { JaccardIndex } from './jaccardIndex';
import { NgramIndex, type TokenText } from './ngramIndex';
import type { MatchingPolicy, PolicyName } from './policy';
import { SubstringIndex } from './substringIndex';
import {
  collapseWhitespace,
  isWordCode,
  rawSpan,
  whitespaceTokens,
  wordTokens,
  type CollapsedText,
  type Tokens,
} from './text';

/** One text of a reference item: its before or after side (code) or its comment. */
export interface ReferenceText {
  set: string;
  id: string;
  field: 'before' | 'after' | 'comment';
  text: string;
}

/** What an example offers for matching: its two sides, its kept comments, and (when known) its whole files' SHA-256. */
export interface ExampleTexts {
  before: string;
  after: string;
  comments: readonly { id: string; message: string }[];
  fileSha256?: { before: string | null; after: string | null };
}

export interface OverlapMatch {
  policy: PolicyName;
  set: string;
  id: string;
  referenceField: ReferenceText['field'];
  /** Which of the example's texts matched, and the span of it (raw offsets, end exclusive). */
  side: 'before' | 'after' | 'comment';
  /** The comment's Gerrit id, for a comment match. */
  commentId?: string;
  start: number;
  end: number;
  /** The part of the reference's text that matched (the whole of it for whole_side, side_substring, file_sha256, token_jaccard, whole_comment). */
  referenceMatched: string;
  /** For token_jaccard. */
  jaccard?: number;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * A complete reference side must not start or end in the middle of a word-like token of the example
 * ("x = 1" is not found in "max = 10"): that is what "a complete method or hunk found inside" means here.
 */
function onTokenBoundaries(text: string, start: number, length: number): boolean {
  const end = start + length;
  if (start > 0 && isWordCode(text, start - 1) && isWordCode(text, start)) return false;
  return !(end < text.length && isWordCode(text, end - 1) && isWordCode(text, end));
}

export class ProtectedMatcher {
  private readonly code: ReferenceText[];
  private readonly comments: ReferenceText[];
  private readonly codeCollapsed: string[];
  private readonly wholeCode = new Map<string, number>();
  private readonly wholeComment = new Map<string, number>();
  private readonly fileDigests = new Map<string, number>();
  private readonly substrings?: SubstringIndex;
  private readonly codeNgrams?: NgramIndex;
  private readonly commentRuns?: NgramIndex;
  private readonly jaccard?: JaccardIndex;

  /**
   * Reference texts that are empty or only whitespace are left out: under "no minimum length" they
   * would be found inside every text. Texts are taken in the order given (set name, then item id), and
   * the first reference found wins a tie, so the same references always name the same one.
   */
  constructor(
    references: readonly ReferenceText[],
    readonly policy: MatchingPolicy,
  ) {
    const usable = references.filter((r) => /\S/.test(r.text));
    this.code = usable.filter((r) => r.field !== 'comment');
    this.comments = usable.filter((r) => r.field === 'comment');
    this.codeCollapsed = this.code.map((r) => collapseWhitespace(r.text).text);
    const first = (map: Map<string, number>, key: string, i: number) => {
      if (!map.has(key)) map.set(key, i);
    };
    if (policy.wholeSide) this.codeCollapsed.forEach((t, i) => first(this.wholeCode, t, i));
    if (policy.sideSubstring && this.code.length > 0) this.substrings = new SubstringIndex(this.codeCollapsed);
    if (policy.fileSha256) this.code.forEach((r, i) => first(this.fileDigests, sha256(r.text), i));
    if (policy.ngramTokens > 0 && this.code.length > 0) {
      this.codeNgrams = new NgramIndex(
        this.code.map((r) => ({ text: r.text, tokens: whitespaceTokens(r.text) })),
        policy.ngramTokens,
      );
    }
    if (policy.tokenJaccard > 0 && this.code.length > 0) {
      this.jaccard = new JaccardIndex(
        this.code.map((r) => tokenStrings(r.text)),
        policy.tokenJaccard,
      );
    }
    if (policy.wholeComment)
      this.comments.forEach((r, i) => first(this.wholeComment, collapseWhitespace(r.text).text, i));
    if (policy.commentTokens > 0 && this.comments.length > 0) {
      this.commentRuns = new NgramIndex(
        this.comments.map((r) => ({ text: r.text, tokens: wordTokens(r.text) })),
        policy.commentTokens,
      );
    }
  }

  get empty(): boolean {
    return this.code.length === 0 && this.comments.length === 0;
  }

  /** The first overlap of the example with a reference, policies in POLICY_NAMES order; null: none. */
  match(e: ExampleTexts): OverlapMatch | null {
    if (this.empty) return null;
    return this.matchCode(e) ?? this.matchComments(e);
  }

  /** The first overlap of a side of the example with a reference's code. */
  private matchCode(e: ExampleTexts): OverlapMatch | null {
    const sides = [
      ['before', e.before],
      ['after', e.after],
    ] as const;
    const collapsed = new Map<string, CollapsedText>();
    const collapsedOf = (side: 'before' | 'after', raw: string) => {
      let c = collapsed.get(side);
      if (!c) collapsed.set(side, (c = collapseWhitespace(raw)));
      return c;
    };
    if (this.wholeCode.size > 0) {
      for (const [side, raw] of sides) {
        const c = collapsedOf(side, raw);
        const i = c.text === '' ? undefined : this.wholeCode.get(c.text);
        if (i !== undefined) return hit('whole_side', this.code[i], side, ...spanOf(c, 0, c.text.length));
      }
    }
    if (this.substrings) {
      for (const [side, raw] of sides) {
        const c = collapsedOf(side, raw);
        const [found] = this.substrings.find(c.text, (h, length) => onTokenBoundaries(c.text, h.start, length));
        if (found)
          return hit(
            'side_substring',
            this.code[found.pattern],
            side,
            ...spanOf(c, found.start, found.start + this.codeCollapsed[found.pattern].length),
          );
      }
    }
    if (this.fileDigests.size > 0 && e.fileSha256) {
      for (const [side, raw] of sides) {
        const digest = e.fileSha256[side];
        const i = digest === null ? undefined : this.fileDigests.get(digest);
        if (i !== undefined) return hit('file_sha256', this.code[i], side, 0, raw.length);
      }
    }
    if (this.codeNgrams) {
      for (const [side, raw] of sides) {
        const t: TokenText = { text: raw, tokens: whitespaceTokens(raw) };
        const run = this.codeNgrams.find(t);
        if (run) {
          const ref = this.code[run.reference];
          return hit(
            'shared_ngram',
            ref,
            side,
            t.tokens.starts[run.textFirst],
            t.tokens.ends[run.textFirst + run.length - 1],
            { referenceMatched: runText(ref.text, whitespaceTokens(ref.text), run.refFirst, run.length) },
          );
        }
      }
    }
    if (this.jaccard) {
      for (const [side, raw] of sides) {
        const found = this.jaccard.find(tokenStrings(raw));
        if (found)
          return hit('token_jaccard', this.code[found.reference], side, 0, raw.length, { jaccard: found.jaccard });
      }
    }
    return null;
  }

  /** The first overlap of one of the example's comments with a reference comment. */
  private matchComments(e: ExampleTexts): OverlapMatch | null {
    for (const comment of e.comments) {
      if (this.wholeComment.size === 0) break;
      const c = collapseWhitespace(comment.message);
      const i = c.text === '' ? undefined : this.wholeComment.get(c.text);
      if (i !== undefined)
        return {
          ...hit('whole_comment', this.comments[i], 'before', ...spanOf(c, 0, c.text.length)),
          side: 'comment',
          commentId: comment.id,
        };
    }
    if (this.commentRuns) {
      for (const comment of e.comments) {
        const t: TokenText = { text: comment.message, tokens: wordTokens(comment.message) };
        const run = this.commentRuns.find(t);
        if (run) {
          const ref = this.comments[run.reference];
          return {
            ...hit(
              'comment_substring',
              ref,
              'before',
              t.tokens.starts[run.textFirst],
              t.tokens.ends[run.textFirst + run.length - 1],
              { referenceMatched: runText(ref.text, wordTokens(ref.text), run.refFirst, run.length) },
            ),
            side: 'comment',
            commentId: comment.id,
          };
        }
      }
    }
    return null;
  }
}

/** An overlap found by `policy` on `ref`, at [start, end) of the example's side. */
function hit(
  policy: PolicyName,
  ref: ReferenceText,
  side: 'before' | 'after',
  start: number,
  end: number,
  extra: Partial<OverlapMatch> = {},
): OverlapMatch {
  return {
    policy,
    set: ref.set,
    id: ref.id,
    referenceField: ref.field,
    side,
    start,
    end,
    referenceMatched: ref.text.trim(),
    ...extra,
  };
}

/** Tokens [first, first + length) of `text`, with what lies between them. */
function runText(text: string, tokens: Tokens, first: number, length: number): string {
  return text.slice(tokens.starts[first], tokens.ends[first + length - 1]);
}

function spanOf(c: CollapsedText, from: number, to: number): [number, number] {
  const { start, end } = rawSpan(c, from, to);
  return [start, end];
}

function tokenStrings(text: string): string[] {
  const t = whitespaceTokens(text);
  const out: string[] = [];
  for (let i = 0; i < t.count; i++) out.push(text.slice(t.starts[i], t.ends[i]));
  return out;
}
