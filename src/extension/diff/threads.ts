// Groups an example's comments into Gerrit-style threads (by in_reply_to) and maps them onto the
// before side of the hunk. Pure: no vscode, so the grouping is unit-tested under Node.
import type { ExampleComment, ExampleRecord } from '../../core/inspect/example';

export interface CommentThreadModel {
  root: ExampleComment;
  replies: ExampleComment[];
  /** 0-based lines/characters in the before document. */
  startLine: number;
  startCharacter: number;
  endLine: number;
  endCharacter: number | undefined;
}

export function groupThreads(example: Pick<ExampleRecord, 'comments' | 'beforeStart' | 'before'>): CommentThreadModel[] {
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
      const first = root.range?.startLine ?? root.line ?? example.beforeStart;
      const last = root.range?.endLine ?? root.line ?? first;
      t = {
        root, replies: [],
        startLine: clamp(first - example.beforeStart), startCharacter: root.range?.startCharacter ?? 0,
        endLine: clamp(last - example.beforeStart), endCharacter: root.range?.endCharacter,
      };
      threads.set(root.gerritId, t);
    }
    if (c !== root) t.replies.push(c);
  }
  return [...threads.values()].sort((a, b) => a.startLine - b.startLine);
}

/** `<pseudonym>: <first ~60 characters>` on one line, for the inline after-text. */
export function inlineSummary(c: ExampleComment, max = 60): string {
  const text = c.message.replace(/\s+/g, ' ').trim();
  const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return `${c.author ?? 'unknown'}: ${short}`;
}
