// The funnel's counters: numbers the build reports beside the rules' removals, each declared once here
// with the rule it reports on (none: the build's own), whether windows carry it too, and what it counts.
// The funnel (build/reports/funnelReport.ts) counts these names, in this order, and docs/rules.md lists
// each under its rule (`npm run docs`). A counter changes no decision; one the build could not count
// reads `not counted` with why, never 0 (docs/counting.md).

export interface CounterDeclaration {
  readonly name: string;
  /** The rule (or parameter group) whose work it reports on; absent: the build's own bookkeeping. */
  readonly rule?: string;
  /** Each window carries it as well as the organization. */
  readonly perWindow: boolean;
  readonly description: string;
}

export const COUNTERS = [
  {
    name: 'kind_unrecorded',
    rule: 'rebase_only',
    perWindow: true,
    description: 'examples that reached rebase_only with no revision kind recorded for N + 1 (kept by it)',
  },
  {
    name: 'nothing_left_overlap',
    rule: 'nothing_left',
    perWindow: true,
    description:
      'comments a comment rule removed that belong to an example nothing_left removed: the overlap between the comment rules and nothing_left',
  },
  {
    name: 'target_in_comment',
    rule: 'target_in_comment',
    perWindow: true,
    description: 'kept examples whose target one of their comments holds verbatim (reported, never filtered)',
  },
  {
    name: 'outside_windows',
    perWindow: false,
    description: 'kept examples whose change falls in no window (kept, in the examples file only)',
  },
  {
    name: 'diff_unreadable',
    rule: 'fetch_error',
    perWindow: false,
    description: 'stored diffs that were not a readable DiffInfo (their comments go under fetch_error)',
  },
  {
    name: 'rebase_edited_examples',
    perWindow: true,
    description:
      'kept examples holding edits Gerrit marked due_to_rebase (kept on the after side, never counted as an answer)',
  },
  {
    name: 'status_unrecorded',
    rule: 'not_merged',
    perWindow: false,
    description: 'changes stored before the fetch kept their status, which not_merged cannot check',
  },
  {
    name: 'bot_account_service_user',
    rule: 'bot_account',
    perWindow: false,
    description:
      'comments bot_account removed whose author the host tagged SERVICE_USER; not counted for a host that could not send tags (before Gerrit 3.3) or whose tags were not recorded',
  },
  {
    name: 'listing_cut_short',
    perWindow: false,
    description:
      'listings the fetch ended before the host said it had no more (a page with no new change, or maxListingPages), so the host may hold changes never listed',
  },
  {
    name: 'bot_account_name_pattern',
    rule: 'bot_account',
    perWindow: false,
    description:
      'comments bot_account removed because a bot-name pattern named their author (neither tagged nor listed); not counted for a host holding an account no fetch has matched against the patterns yet',
  },
  {
    name: 'irrelevant_unjudged',
    rule: 'irrelevant_comment',
    perWindow: false,
    description:
      'comments irrelevant_comment kept because no judgment of them is stored; not counted while the rule is off',
  },
] as const satisfies readonly CounterDeclaration[];

export type CounterName = (typeof COUNTERS)[number]['name'];

/** The counters of every organization, in order. */
export const ORG_COUNTERS: readonly CounterName[] = COUNTERS.map((c) => c.name);

/** The counters each window carries too, in order. */
export const WINDOW_COUNTERS: readonly CounterName[] = COUNTERS.filter((c) => c.perWindow).map((c) => c.name);
