// The corpus config (`corpus.json`), as loadConfig returns it: validated against
// schemas/corpus.schema.json (generated from ./corpusSchema.ts) and completed with its defaults.

export interface WindowConfig {
  name: string;
  /** Inclusive, YYYY-MM-DD, on the change's `created` date. */
  from: string;
  /** Exclusive, YYYY-MM-DD. */
  to: string;
  sealed?: boolean;
}

export interface HostConfig {
  org: string;
  url: string;
  query: string;
  minIntervalMs: number;
  /** Account ids treated as bots, decided before pseudonymizing. */
  botAccounts?: number[];
  /** Regexes over comment text; a match removes the comment under `bot_template`. */
  botTemplates?: string[];
  /**
   * Regexes (case-insensitive) over an account's names that make it a bot, decided at fetch; absent:
   * DEFAULT_BOT_NAME_PATTERNS (gerrit/botNames.ts), [] turns name matching off for the host.
   */
  botNamePatterns?: string[];
  /** Patterns added to `botNamePatterns` (or to the defaults). */
  extraBotNamePatterns?: string[];
  /** Changes per listing page. */
  pageSize?: number;
  /** Listing pages one fetch reads at most (a never-ending listing is cut and counted). */
  maxListingPages?: number;
  /** One request's whole time, headers and body, in ms. */
  requestDeadlineMs?: number;
  /** Fetches that try a failed change or diff again, counted per record. */
  maxFetchAttempts?: number;
  /** The comment-count probe (gerrit/commentCountProbe.ts); absent: DEFAULT_PROBE. */
  probe?: { sample?: number; seed?: number };
}

/** The rule parameters; each is declared (type, bounds, default, meaning) by the rule that owns it (`parameters`). */
export interface RulesConfig {
  aroundLines: number;
  contextLines: number;
  maxLinesPerSide: number;
  maxGrowthRatio: number;
  acknowledgements: string[];
  nearDuplicateJaccard: number;
  minhashPermutations: number;
  lshBands: number;
  lshRows: number;
  shingleTokens: number;
  boilerplateMinChanges: number;
  /** Decontamination policy (rules/decontamination/protectedOverlap.ts says what each does). */
  protectedWholeSide: boolean;
  protectedSideSubstring: boolean;
  protectedWholeComment: boolean;
  protectedCommentTokens: number;
  protectedFileSha256: boolean;
  protectedNgramTokens: number;
  protectedTokenJaccard: number;
  protectedCommentLevel: boolean;
  projectBlocklist: string[];
  /** target_in_comment (reported, never filtered): the shortest normalised target that counts. */
  targetInCommentMinChars: number;
  /**
   * Rule id → false switches that rule off (its funnel rows read "off"); absent or true: on. Not a
   * parameter: the schema's `rules.enabled` is generated from the funnel's rules (ruleSwitches.ts).
   */
  enabled?: Readonly<Record<string, boolean>>;
}

/** The rule parameters proper: every field of RulesConfig but the switches. */
export type RuleParameterFields = Omit<RulesConfig, 'enabled'>;

/**
 * Cross-window decontamination (`decontam.crossWindow`): train examples checked against the examples of
 * every other window, under a matching policy of its own (rules/decontam/crossWindow.ts declares each
 * field's meaning and default). Off by default.
 */
export interface CrossWindowConfig {
  enabled: boolean;
  wholeSide: boolean;
  sideSubstring: boolean;
  wholeComment: boolean;
  commentTokens: number;
  fileSha256: boolean;
  ngramTokens: number;
  tokenJaccard: number;
}

export interface DecontamConfig {
  crossWindow: CrossWindowConfig;
}

export interface SearchReplaceConfig {
  /** Edit regions separated by at most this many unchanged lines become one Search/Replace block. */
  mergeGapLines: number;
}

export interface HalvesConfig {
  /** Which window the halves split (normally "train"). */
  window: string;
  /** Either project lists per half, or a salted hash of the change number. */
  by: 'projects' | 'hash';
  a?: string[];
  b?: string[];
  /** For `by: "hash"`: a public string mixed into the hash of the change number (not the pseudonym salt). */
  salt?: string;
}

export interface CorpusConfig {
  name: string;
  db: string;
  start: string;
  /**
   * Who runs this corpus: an e-mail address or an https URL, sent in the User-Agent of every request
   * (gerrit/userAgent.ts). Required to fetch any host that is not loopback.
   */
  contact?: string;
  salt: { env: string };
  windows: WindowConfig[];
  hosts: HostConfig[];
  rules: RulesConfig;
  halves?: HalvesConfig;
  /** Decontamination across the corpus's own windows; absent: off (rules/decontam/crossWindow.ts). */
  decontam?: DecontamConfig;
  /** The Search/Replace export's parameters; absent: their defaults (ruleParameters.ts). */
  searchReplace?: SearchReplaceConfig;
  /** What the dataset card (export's README.md) says that the build cannot know; not in the config hash. */
  card?: CardConfig;
  /** The comment-quality judge (src/core/review/judge); absent: no judge, its counts read "not counted". */
  judge?: JudgeConfig;
}

/** An OpenAI-compatible judge (CuREV's framework, docs/judge.md). Not in the config hash; irrelevantComment is in the rules version. */
export interface JudgeConfig {
  /** …/v1 or …/v1/chat/completions; absent: no judge configured. */
  endpoint?: string;
  model?: string;
  /** The environment variable holding the API key (the extension keeps it in SecretStorage). */
  apiKeyEnv: string;
  /** Price per 1,000 tokens, for the estimated cost; absent: cost not estimated. */
  pricePer1kTokens?: { prompt: number; completion: number };
  thresholds: { irrelevantBelow: number; clarityMin: number; concisenessMin: number };
  /** The irrelevant_comment rule (off by default: the rules are fixed before any outcome is read, docs/rules.md). */
  irrelevantComment: boolean;
  temperature: number;
  maxTokens: number;
  maxRps?: number;
}

/** The dataset card's license, language and title (publish/export/cardHeader.ts). */
export interface CardConfig {
  /** A Hugging Face license id; absent: the card says "unknown" and export warns. */
  license?: string;
  /** ISO 639 codes of the comments' natural language(s). */
  language?: string[];
  /** The card's title (`pretty_name`); absent: the corpus name. */
  prettyName?: string;
  /**
   * Window name → the Hub split name its examples are published under; a window not listed keeps its
   * own name. Absent: DEFAULT_SPLIT_NAMES. A given map replaces the default whole.
   */
  splits?: Readonly<Record<string, string>>;
}

/**
 * The split names a corpus.json without `card.splits` publishes under: the Hub's and `datasets`'s
 * usual names (train, validation, test), so the default "dev" window reads as "validation".
 */
/** What the `datasets` library accepts as a split name (`^\w+(\.\w+)*$`: a "-" is refused). */
export const SPLIT_NAME_PATTERN = '^\\w+(\\.\\w+)*$';

export const DEFAULT_SPLIT_NAMES: Readonly<Record<string, string>> = { dev: 'validation' };

/** The default corpus start and windows (docs/rules.md, "Windows"; a new corpus.json starts from these). */
export const PRODUCT_START = '2024-10-01';
export const PRODUCT_WINDOWS: readonly WindowConfig[] = [
  { name: 'pilot', from: '2024-10-01', to: '2024-11-01' },
  { name: 'train', from: '2024-11-01', to: '2025-09-01' },
  { name: 'dev', from: '2025-09-01', to: '2025-11-01' },
  { name: 'test', from: '2025-11-01', to: '2026-11-01', sealed: true },
];
