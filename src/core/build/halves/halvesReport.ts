// The report comparing a window's two registered halves, as the funnel stores it. Its own module
// because the funnel report holds one, and halves.ts (which makes it) reads the example stage, which
// writes the funnel: with the types in halves.ts those three imported each other in a circle.

export interface HalfReport {
  examples: number;
  /** File suffix (".py", or the file name when it has none) → examples. */
  suffixes: Record<string, number>;
  target_in_comment: number;
}

export interface HalvesReport {
  window: string;
  by: 'projects' | 'hash';
  a: HalfReport;
  b: HalfReport;
  /** Kept examples of the window in neither half (a project on neither list). */
  unassigned: number;
  /** Total variation distance between the two halves' suffix mixes, 0 to 1. */
  suffixTvd: number;
  /** SHA-256 of the split definition (the config's canonical `halves`): what registering records. */
  definitionSha256: string;
  /** The suffix both halves hold most of (largest smaller count), for a suffix-matched reading; null: none in both. */
  matchedSuffix: MatchedSuffix | null;
}

export interface MatchedSuffix {
  suffix: string;
  a: number;
  b: number;
}
