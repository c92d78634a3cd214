// The shape of a rule, and of the units each stage's rules decide on.
// Modelled on datatrove's filters: a rule returns null to keep a unit, or the reason it removes it.
// A rule reads only its unit and the shared context; the build prepares both from stored records.
import type { RulesConfig } from '../ground/config/types';
import type { ParameterOwner } from './parameters';

export type Stage = 'collection' | 'comments' | 'hunks' | 'examples' | 'duplicates' | 'decontamination';
export type UnitKind = 'changes' | 'comments' | 'hunks' | 'examples';

export const STAGES: readonly Stage[] = [
  'collection',
  'comments',
  'hunks',
  'examples',
  'duplicates',
  'decontamination',
];

/**
 * What a removal rests on, stored with its decision (decisions.evidence, JSON): flat, so a reader can
 * show it as "name: value" lines and a query can read one field. Derived from records and rules only.
 */
export type Evidence = Readonly<Record<string, string | number | boolean | null>>;

/**
 * Why a rule removed a unit. `rule` is the rule's id; `evidence`, when present, is stored in the file
 * with the decision and is what the inspector shows ("name: value" lines, core/review/inspect/evidence.ts), so
 * there is one account of a removal and no separate display text. Keys are short (they are stored for
 * every removal that has them) and name what the value is.
 */
export interface Removal {
  rule: string;
  evidence?: Evidence;
}

/** Everything rules share; built once per build from the corpus config. */
export interface RuleContext {
  /** Corpus start date, YYYY-MM-DD, on a change's created date. */
  start: string;
  rules: RulesConfig;
  /** Acknowledgements, already normalised (see normaliseAcknowledgement). */
  acknowledgements: ReadonlySet<string>;
  /** Per organization, the host's configured bot templates, compiled. */
  hostBotTemplates: ReadonlyMap<string, readonly RegExp[]>;
}

/** A rule; the parameters it declares (ParameterOwner) are the corpus.json `rules` fields it owns. */
export interface Rule<U> extends ParameterOwner {
  readonly id: string;
  readonly stage: Stage;
  readonly unit: UnitKind;
  readonly description: string;
  /**
   * Why `rules.enabled` cannot switch this rule off, as a clause the config error and the schema show;
   * absent: it can (rules/ruleSwitches.ts).
   */
  readonly notSwitchable?: string;
  decide(unit: U, ctx: RuleContext): Removal | null;
}

/** A listed change, as the fetch stored it. */
export interface ChangeUnit {
  org: string;
  number: number;
  /** ISO 8601 UTC. */
  created: string;
  /** Gerrit's status (MERGED, NEW, ABANDONED); null when stored before the fetch kept it. */
  status: string | null;
  /** The collection rule the fetch applied (NULL when it fetched the change). */
  collectionRule: string | null;
  fetchError: string | null;
  /** Whether the window holding the change's created date is sealed now. */
  inSealedWindow: boolean;
  /** Gerrit's project name (blocklisted_project); absent: not known, never blocklisted. */
  project?: string;
}

/** Whether the diff a comment needs (patch set N against N + 1 of its file) is stored. */
/** 'unchanged': no diff was needed, because N + 1's files list leaves the file out. */
export type DiffState = 'ok' | 'missing' | 'error' | 'unchanged';

export interface CommentUnit {
  org: string;
  path: string;
  patchSet: number | null;
  side: string | null;
  line: number | null;
  startLine: number | null;
  endLine: number | null;
  /** The range's end character (0-based, exclusive); 0 takes nothing of endLine. */
  endCharacter: number | null;
  author: string | null;
  message: string;
  /** The comment carries Gerrit's structured fix_suggestions. */
  hasFixSuggestion: boolean;
  /** The change owner's pseudonym. */
  owner: string | null;
  /** The author's account is a bot (service user, on the host's bot list, or named by a bot-name pattern). */
  authorIsBot: boolean;
  /** The author's account was tagged SERVICE_USER; null: not recorded (an account stored before schema 2). */
  authorServiceUser: boolean | null;
  /** The bot-name pattern that made the author's account a bot at fetch (null: none; the tag and the list come first). */
  authorBotPattern: string | null;
  /** Patch set N + 1 exists. */
  hasNextPatchSet: boolean;
  diff: DiffState;
  /** Whether N + 1 changed anything near the comment; null when it cannot be decided (no diff). */
  changedAround: boolean | null;
  /**
   * The protected reference comment it overlaps (protected_comment), found only when
   * rules.protectedCommentLevel is on and the rules before protected_comment kept it; absent or null: none.
   * Offsets are into the comment's message (end exclusive).
   */
  protectedMatch?: {
    set: string;
    id: string;
    policy: string;
    start: number;
    end: number;
    /** A cross-window match's matched text, in this comment and in the other window's (evidence shows both). */
    quote?: CrossWindowQuote;
  } | null;
  /**
   * The judge's relevance score (irrelevant_comment), set only when judge.irrelevantComment is on and the
   * rules before irrelevant_comment kept the comment; absent or null: not judged, so kept.
   */
  judgeRelevance?: { relevance: number; below: number; model: string } | null;
}

/** A hunk: the region of one file around the edits its comments sit near. */
export interface HunkUnit {
  /** Lines on each side, context included (what the example stores). */
  beforeLines: number;
  afterLines: number;
  /** Lines of the author's edit alone (the changed chunks without context or due_to_rebase edits). */
  editLinesBefore: number;
  editLinesAfter: number;
}

/** A comment attached to an example, with the comment rule that removed it (null: survived). */
export interface AttachedComment {
  message: string;
  /** It carries Gerrit's structured fix_suggestions (a suggested edit without a fence); absent: it does not. */
  hasFixSuggestion?: boolean;
  removedBy: string | null;
}

export interface ExampleUnit {
  /** Revision kind of patch set N + 1; null when Gerrit did not record it. */
  kindAfter: string | null;
  /** Every comment anchored in the example, including those the comment rules removed. */
  comments: readonly AttachedComment[];
  /** A user confirmed a flag on this example's key. */
  flagConfirmed: boolean;
}

/** An example after stage 4, with what the dedup pass found for it (null: not a duplicate). */
export interface DuplicateUnit {
  duplicate: {
    rule: string;
    /** The example it duplicates (absent for boilerplate). */
    keptKey?: string;
    /** Exact Jaccard of the two examples' shingle sets. */
    jaccard?: number;
    /** boilerplate: the normalised before-hunk's SHA-256 and how many distinct changes carry it. */
    boilerplate?: { sha256: string; changes: number };
  } | null;
}

/**
 * An example after the duplicates, with the protected reference it overlaps (null: none), as the
 * decontamination pass found it (src/core/rules/decontam). Offsets are into the example's text named by `side`.
 */
export interface ProtectedUnit {
  overlap: {
    set: string;
    id: string;
    referenceField: 'before' | 'after' | 'comment';
    policy: string;
    side: 'before' | 'after' | 'comment';
    commentId?: string;
    start: number;
    end: number;
    jaccard?: number;
    /** A cross-window match's matched text, in this example and in the other window's (evidence shows both). */
    quote?: CrossWindowQuote;
  } | null;
}

/** The matched text on both sides of a cross-window match, each cut to a few hundred characters. */
export interface CrossWindowQuote {
  matched: string;
  reference: string;
}
