// The shape of one org's committed fixture file (fixtures/<org>.json), shared by the generator
// and the server. `change` and `comments` are stored exactly as the server sends them with every
// option on; file contents are stored per patch set and diffed on request.

export const REVISION_KINDS = [
  'REWORK',
  'TRIVIAL_REBASE',
  'TRIVIAL_REBASE_WITH_MESSAGE_UPDATE',
  'MERGE_FIRST_PARENT_UPDATE',
  'NO_CODE_CHANGE',
  'NO_CHANGE',
] as const;
export type RevisionKind = (typeof REVISION_KINDS)[number];

export interface AccountJson {
  _account_id: number;
  name?: string;
  email?: string;
  username?: string;
  /** Only where the account set one (AccountLoader.DETAILED_OPTIONS has DISPLAY_NAME; Gerrit omits null). */
  display_name?: string;
  tags?: string[];
}

export interface RevisionJson {
  _number: number;
  kind?: RevisionKind;
  created: string;
  uploader: AccountJson;
  ref: string;
  [extra: string]: unknown;
}

export interface ChangeJson {
  id: string;
  triplet_id: string;
  project: string;
  branch: string;
  change_id: string;
  _number: number;
  status: 'NEW' | 'MERGED' | 'ABANDONED';
  created: string;
  updated: string;
  owner: AccountJson;
  total_comment_count: number;
  current_revision: string;
  revisions: Record<string, RevisionJson>;
  [extra: string]: unknown;
}

export interface CommentJson {
  id: string;
  patch_set: number;
  side?: 'PARENT';
  parent?: number;
  line?: number;
  range?: { start_line: number; start_character: number; end_line: number; end_character: number };
  in_reply_to?: string;
  message: string;
  updated: string;
  unresolved: boolean;
  author: AccountJson;
  commit_id: string;
  fix_suggestions?: { fix_id: string; description: string; replacements: { path: string; range: NonNullable<CommentJson['range']>; replacement: string }[] }[];
}

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
