// Cross-window decontamination (`decontam.crossWindow` in corpus.json), an explicit choice, off by
// default: the examples of the window named "train" are checked against those still in every other
// window, and a train example that overlaps one goes (protected_overlap, reference set "window:<name>").
// It has a matching policy of its own, apart from the registered reference sets' (rules.protected…):
// a corpus's own dev and test windows share far more phrasing with train than another benchmark does,
// and the default 5-token comment run, made for other benchmarks' test splits, removes most of train
// when applied between windows of one host. What a comment match removes (the example, or with
// rules.protectedCommentLevel only the comment) is the same for both.
import type { CorpusConfig, CrossWindowConfig, RulesConfig } from '../../ground/config/types';
import type { RuleParameter } from '../parameters';
import { AUTOMATIC_SET_PREFIX, automaticWindows } from './decontaminate';
import { matchingPolicy, type MatchingPolicy } from './policy';

type Declarations = { readonly [K in keyof CrossWindowConfig]: RuleParameter<CrossWindowConfig[K]> };

/** Each setting as JSON Schema says it (the schema's `decontam.crossWindow` is this table); the policy's defaults are the reference sets' defaults. */
export const CROSS_WINDOW_PARAMETERS: Declarations = {
  enabled: {
    type: 'boolean',
    default: false,
    description:
      'Check every train example against the examples still in every other window, and remove the train examples that overlap one (protected_overlap, reference set "window:<name>"). Off by default: on one host the windows share much phrasing, and this can remove most of train.',
  },
  wholeSide: {
    type: 'boolean',
    default: true,
    description:
      "A before or after side equal to another window's before or after, whitespace collapsed (on by default).",
  },
  sideSubstring: {
    type: 'boolean',
    default: true,
    description:
      "Another window's whole before or after side, whitespace collapsed, found inside a longer side on token boundaries (on by default).",
  },
  wholeComment: {
    type: 'boolean',
    default: true,
    description: "A kept comment equal to another window's kept comment, whitespace collapsed (on by default).",
  },
  commentTokens: {
    type: 'integer',
    minimum: 0,
    default: 5,
    description:
      "A run of at least this many consecutive word-like tokens shared by a kept comment and another window's kept comment (default 5); 0 turns it off.",
  },
  fileSha256: {
    type: 'boolean',
    default: false,
    description:
      "The SHA-256 of the whole file at patch set N or N + 1 equals that of another window's before or after side (off by default).",
  },
  ngramTokens: {
    type: 'integer',
    minimum: 0,
    default: 0,
    description:
      "Any run of this many consecutive whitespace-separated tokens shared by a side and another window's side (15 is a common choice, docs/decontamination.md); 0 (the default) turns it off.",
  },
  tokenJaccard: {
    type: 'number',
    minimum: 0,
    maximum: 1,
    default: 0,
    description:
      "Jaccard of the sets of distinct whitespace-separated tokens of one side and another window's side at least this (0.5 is a common choice, docs/decontamination.md); 0 (the default) turns it off.",
  },
};

/** Every setting at its default: off. */
export function crossWindowDefaults(): CrossWindowConfig {
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(CROSS_WINDOW_PARAMETERS)) out[k] = p.default;
  return out as unknown as CrossWindowConfig;
}

/** The settings in effect: the config's, or off when it has none (a config made in code, not by the schema). */
export function crossWindowSettings(config: Pick<CorpusConfig, 'decontam'>): CrossWindowConfig {
  return config.decontam?.crossWindow ?? crossWindowDefaults();
}

/** The windows train is checked against: every other window when it is on, none when off (or without a train window). */
export function crossWindowProtected(settings: CrossWindowConfig, windowNames: readonly string[]): string[] {
  return settings.enabled ? automaticWindows(windowNames) : [];
}

/** Its matching policy: its own match settings; what a comment match removes follows rules.protectedCommentLevel. */
export function crossWindowPolicy(settings: CrossWindowConfig, rules: RulesConfig): MatchingPolicy {
  return {
    ...matchingPolicy(rules),
    wholeSide: settings.wholeSide,
    sideSubstring: settings.sideSubstring,
    wholeComment: settings.wholeComment,
    commentTokens: settings.commentTokens,
    fileSha256: settings.fileSha256,
    ngramTokens: settings.ngramTokens,
    tokenJaccard: settings.tokenJaccard,
  };
}

/** The match settings alone (what the card and the funnel print), without `enabled`. */
export function crossWindowMatchSettings(settings: CrossWindowConfig): Omit<CrossWindowConfig, 'enabled'> {
  const { enabled: _enabled, ...policy } = settings;
  return policy;
}

/**
 * What a config stored before `decontam.crossWindow` existed ran with: every window but train protected
 * against train, under the registered sets' policy. So a corpus file fetched then still builds, and
 * verifies, as it did, and its funnel says so; a corpus.json without the key means off.
 */
export function legacyCrossWindow(rules: RulesConfig): CrossWindowConfig {
  const { ast: _ast, commentMatchRemoves: _removes, ...registered } = matchingPolicy(rules);
  return { enabled: true, ...registered };
}

/** Whether its match settings are the registered sets' (as every build before `decontam.crossWindow` used). */
export function sameAsRegisteredPolicy(settings: CrossWindowConfig, rules: RulesConfig): boolean {
  const legacy = legacyCrossWindow(rules);
  return (Object.keys(legacy) as (keyof CrossWindowConfig)[]).every(
    (k) => legacy[k] === settings[k] || k === 'enabled',
  );
}

/** The longest quote of matched text a decision's evidence keeps, in UTF-16 code units; the span says where the rest lies. */
export const QUOTE_MAX = 300;

/** `text`, cut to QUOTE_MAX with "…" when longer (never inside a surrogate pair). */
export function quoteOf(text: string): string {
  if (text.length <= QUOTE_MAX) return text;
  let end = QUOTE_MAX - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** Whether a match's reference set is another window of the corpus (cross-window), not a registered set. */
export const isCrossWindowSet = (set: string): boolean => set.startsWith(AUTOMATIC_SET_PREFIX);

/**
 * What a cross-window match quotes in its evidence: the matched text in the train example and in the
 * other window's. Only for cross-window matches: a registered set's text is another benchmark's, which
 * the curation audit must not publish.
 */
export function crossWindowQuote(
  set: string,
  matched: string,
  reference: string,
): { matched: string; reference: string } | undefined {
  return isCrossWindowSet(set) ? { matched: quoteOf(matched), reference: quoteOf(reference) } : undefined;
}

const STORED_BEFORE_SETTING = new WeakSet<object>();

/**
 * A config stored in a corpus file before `decontam.crossWindow` existed (a stored config always holds
 * it since: the schema completes it), read as it ran: with legacyCrossWindow, and marked so the build
 * says so. A corpus.json without the key is not this: there it means off.
 */
export function withStoredCrossWindow<C extends Pick<CorpusConfig, 'decontam' | 'rules'>>(
  config: C,
  stored: unknown,
): C {
  if (stored !== null && typeof stored === 'object' && 'decontam' in stored) return config;
  const upgraded = { ...config, decontam: { ...config.decontam, crossWindow: legacyCrossWindow(config.rules) } };
  STORED_BEFORE_SETTING.add(upgraded);
  return upgraded;
}

/** Whether `config` is a stored config read by withStoredCrossWindow as predating the setting. */
export const storedBeforeCrossWindow = (config: object): boolean => STORED_BEFORE_SETTING.has(config);
