// The shapes the shares reports take in dataset-funnel.json (builtShares.ts, halvesRegistry.ts make
// them). Types only, in a module of their own, so the funnel report can name them without importing
// the code that reads the example stage (which writes the funnel).

export interface ShareCell {
  /** Built examples (the denominator). */
  built: number;
  suggested_edit: number;
  /** suggested_edit / built, 4 decimals; null when nothing was built. */
  share: number | null;
  /** Built examples the looser fence (or fix_suggestions) selects. */
  looser_fence: number;
  /** built − suggested_edit: target_in_comment's denominator. */
  without_suggested_edit: number;
  /** Of those, how many a kept comment holds the target of. */
  target_in_comment: number;
}

export interface WindowShares {
  /** Present (true) for a sealed window: nothing in it is built, every cell is null. */
  sealed?: true;
  all: ShareCell | null;
  /** Per registered half, when the config defines halves (they split every window the same way). */
  a?: ShareCell | null;
  b?: ShareCell | null;
}

/** The suggested-edit share of one window over the window before it (null: undefined). */
export interface ShareTrend {
  from: string;
  to: string;
  all: number | null;
  a?: number | null;
  b?: number | null;
}

export interface FenceSensitivity {
  built: number;
  /** Selected by the rule (fence on a line of its own, or fix_suggestions). */
  rule: number;
  looser: number;
  looser_only: number;
  rule_only: number;
  line: string;
}

export interface SharesReport {
  population: string;
  /** Every built example of the organization, windows or not. */
  all: ShareCell;
  windows: Record<string, WindowShares>;
  trend: ShareTrend[];
  fence: FenceSensitivity;
}

export interface HalvesCheck {
  registered: {
    window: string;
    definitionSha256: string;
    registeredAt: string;
    build: number;
    sizeFloor: number;
    suffixTvdCeiling: number;
    matchedSuffix: string | null;
  };
  pass: boolean;
  /** One line per criterion this build fails; empty when it passes. */
  failures: string[];
}
