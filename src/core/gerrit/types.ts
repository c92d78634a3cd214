// Gerrit REST entities as they arrive over the wire.
//
// The shapes come from @gerritcodereview/typescript-api (Gerrit's own definitions, `import type`
// only, so nothing of it is bundled). That package brands its ids and timestamps
// (`AccountId = number & {_accountId: never}`, `Timestamp = string & {...}`) and uses enums; parsed
// JSON never carries brands, and a test or a fake server could not write `{ _account_id: 5 }`
// without casts. `Plain<T>` therefore maps the package's types to the same shapes with plain
// numbers and strings, keeping enums as unions of their string values ('TRIVIAL_REBASE' | ...).
import type * as Api from '@gerritcodereview/typescript-api/rest-api';
import type * as Diff from '@gerritcodereview/typescript-api/diff';

/** A branded string or number becomes plain; a string enum becomes the union of its values. */
export type Plain<T> = T extends string
  ? [Exclude<keyof T, keyof string>] extends [never]
    ? `${T}`
    : string
  : T extends number
    ? number
    : T extends boolean
      ? T
      : T extends readonly (infer U)[]
        ? Plain<U>[]
        : T extends object
          ? { [K in keyof T]: Plain<T[K]> }
          : T;

/** What a patch set did relative to the one before; the rebase-only kinds drive `rebase_only`. */
export type RevisionKind = `${Api.RevisionKind}`;

export type AccountInfo = Plain<Api.AccountInfo>;
export type FileInfo = Plain<Api.FileInfo>;

/**
 * Patch set numbers are plain numbers here: the package also allows 'edit' and 'PARENT', but we
 * never request change edits, and the base side of a comment is told by `side`, not by the number.
 */
export type RevisionInfo = Omit<Plain<Api.RevisionInfo>, '_number' | 'kind'> & {
  _number: number;
  /** Optional, as a host may leave it out; an example whose kind was not sent is counted `kind_unrecorded`. */
  kind?: RevisionKind;
};

export type CommentInfo = Omit<Plain<Api.CommentInfo>, 'patch_set'> & { patch_set?: number };

/**
 * Fields the package marks required that a host leaves out: `reviewers` comes only with the label
 * options, `current_revision_number` is not in Gerrit's ChangeInfo.java, and `insertions`/`deletions`
 * only when ChangeJson could compute the changed lines (ChangeInfo.java: "Many fields are actually
 * nullable"; Gerrit omits a null field).
 */
type SometimesAbsent = 'reviewers' | 'current_revision_number' | 'insertions' | 'deletions';

export type ChangeInfo = Omit<Plain<Api.ChangeInfo>, 'revisions' | SometimesAbsent> &
  Partial<Pick<Plain<Api.ChangeInfo>, SometimesAbsent>> & {
    revisions?: { [revisionId: string]: RevisionInfo };
    /** Gerrit fields the package lacks (ChangeInfo.java `tripletId`, `metaRevId`): `project~branch~Change-Id`, the NoteDb meta ref's sha. */
    triplet_id?: string;
    meta_rev_id?: string;
  };

/** `intraline_status` only when the request asked for intraline edits (rest-api-changes.txt, DiffInfo). */
export type DiffInfo = Omit<Plain<Diff.DiffInfo>, 'intraline_status'> &
  Partial<Pick<Plain<Diff.DiffInfo>, 'intraline_status'>>;

/** GET /changes/{id}/revisions/{rev}/files: files by path (includes /COMMIT_MSG). */
export type FilesByPath = { [path: string]: FileInfo };
