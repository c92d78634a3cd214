// Groups an example's comments into Gerrit-style threads (by in_reply_to) and maps them onto the
// before side of the hunk. Pure: no vscode, so the grouping is unit-tested under Node.
import type { ExampleComment, ExampleRecord } from '../../core/review/inspect/example';

export interface CommentThreadModel {
  root: ExampleComment;
  replies: ExampleComment[];
  /** 0-based lines/characters in the before document. */
  startLine: number;
  startCharacter: number;
  endLine: number;
  endCharacter: number | undefined;
}

export function groupThreads(
  example: Pick<ExampleRecord, 'comments' | 'beforeStart' | 'before'>,
): CommentThreadModel[] {
  const byId = new Map(example.comments.map((c) => [c.gerritId, c]));
  const rootOf = (c: ExampleComment): ExampleComment => {
    let cur = c;
    const seen = new Set<string>();
    while (cur.inReplyTo && byId.has(cur.inReplyTo) && !seen.has(cur.gerritId)) {
      seen.add(cur.gerritId);
      cur = byId.get(cur.inReplyTo)!;
    }
    return cur;
  };
  const threads = new Map<string, CommentThreadModel>();
  const lineCount = example.before.split('\n').length;
  const clamp = (n: number) => Math.max(0, Math.min(lineCount - 1, n));
  for (const c of example.comments) {
    const root = rootOf(c);
    let t = threads.get(root.gerritId);
    if (!t) {
      const { first, last, startCharacter, endCharacter } = exactRange(root, example.beforeStart);
      t = {
        root,
        replies: [],
        startLine: clamp(first - example.beforeStart),
        startCharacter,
        endLine: clamp(last - example.beforeStart),
        endCharacter,
      };
      threads.set(root.gerritId, t);
    }
    if (c !== root) t.replies.push(c);
  }
  return [...threads.values()].sort((a, b) => a.startLine - b.startLine);
}

/** A character offset from the host: a whole number of at least 0 (VS Code throws on a negative one). */
const character = (n: number | null | undefined): number | undefined =>
  typeof n === 'number' && Number.isFinite(n) ? Math.max(0, Math.floor(n)) : undefined;

/**
 * The 1-based lines a comment covers and its 0-based characters, as Gerrit means them (CommentRange:
 * the end is exclusive, so a range ending at character 0 takes nothing of its end line and ends at the
 * end of the line before). endCharacter undefined: to the end of the last line.
 */
export function exactRange(
  c: Pick<ExampleComment, 'range' | 'line'>,
  fallbackLine: number,
): { first: number; last: number; startCharacter: number; endCharacter: number | undefined } {
  if (!c.range) {
    const line = c.line ?? fallbackLine;
    return { first: line, last: line, startCharacter: 0, endCharacter: undefined };
  }
  const first = c.range.startLine;
  let last = Math.max(c.range.endLine, first);
  let endCharacter = character(c.range.endCharacter);
  if (endCharacter === 0 && last > first) {
    last--;
    endCharacter = undefined;
  }
  return { first, last, startCharacter: character(c.range.startCharacter) ?? 0, endCharacter };
}

/** `<pseudonym>: <first ~60 characters>` on one line, for the inline after-text. */
export function inlineSummary(c: ExampleComment, max = 60): string {
  const text = c.message.replace(/\s+/g, ' ').trim();
  const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return `${c.author ?? 'unknown'}: ${short}`;
}
