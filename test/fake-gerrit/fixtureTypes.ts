// The shape of one org's committed fixture file (fixtures/<org>.json), shared by the generator
// and the server. `change` and `comments` are stored exactly as the server sends them with every
// option on; file contents are stored per patch set and diffed on request.

// The wire shapes are src/core/gerrit/types.ts (Gerrit's own, from @gerritcodereview/typescript-api);
// the aliases below only narrow them to what every stored fixture record carries.
import type { AccountInfo, ChangeInfo, CommentInfo, RevisionInfo } from '../../src/core/gerrit/types';

export type { RevisionKind } from '../../src/core/gerrit/types';

/** Fixture accounts always have an id (Gerrit leaves it out only for a CC by email). */
export type AccountJson = AccountInfo & { _account_id: number };

/** A revision as the fixtures list it: no COMMIT_FOOTERS option is asked, so no `commit_with_footers` (RevisionInfo.java). */
export type RevisionJson = Omit<RevisionInfo, 'uploader'> & { uploader: AccountJson };

export type ChangeJson = Omit<
  ChangeInfo,
  'owner' | 'submitter' | 'revisions' | 'total_comment_count' | 'current_revision'
> & {
  owner: AccountJson;
  submitter?: AccountJson;
  total_comment_count: number;
  current_revision: string;
  revisions: Record<string, RevisionJson>;
};

/** As GET /changes/{id}/comments sends a published comment, authors detailed (no `path` inside the map). */
export type CommentJson = Omit<CommentInfo, 'author' | 'path'> &
  Required<Pick<CommentInfo, 'patch_set' | 'message' | 'updated' | 'unresolved' | 'commit_id'>> & {
    author: AccountJson;
  };

/** One version of a file: its lines without "\n" ("\r" of a CRLF line stays), and whether the last line lacks "\n". */
export interface FileVersion {
  lines: string[];
  no_newline_at_end?: true;
}

export interface FixtureChange {
  change: ChangeJson;
  /** path → comments, as GET /changes/{id}/comments returns them (no `path` inside). */
  comments: Record<string, CommentJson[]>;
  /** path → versions indexed by patch set; index 0 is the parent commit. null: the file does not exist there. */
  files: Record<string, (FileVersion | null)[]>;
  /** Files renamed by a patch set: `from` exists up to ps − 1, `to` from ps on. */
  renames?: { ps: number; from: string; to: string }[];
  /** Patch sets rebased onto a newer parent: the parent's version of each file that changed upstream. */
  rebases?: { ps: number; parent: Record<string, FileVersion | null> }[];
}

export interface OrgFixture {
  _fabricated: string;
  org: string;
  changes: FixtureChange[];
}

export function fileVersionFromText(text: string): FileVersion {
  if (text === '') return { lines: [] };
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  return endsWithNewline ? { lines } : { lines, no_newline_at_end: true };
}

export function fileVersionToText(v: FileVersion): string {
  if (v.lines.length === 0) return '';
  return v.lines.join('\n') + (v.no_newline_at_end ? '' : '\n');
}
