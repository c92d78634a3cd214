// Bots told by their account names, as Clean-PR ("Pull Requests as a Training Signal for Repo-Level Code Editing")
// does (Appendix A.2 "Automation and Bot
// Filtering": "A user is classified as a bot if their username matches any of the following regular
// expressions: Suffix Patterns: bot$, bot$, -bot$; Prefix Patterns: ^bot; Specific Services:
// dependabot, renovate, github-actions, travis-ci, circleci, covera…", our copy cut off there).
// Matched at fetch on the raw account, before it is pseudonymized; only the pattern is kept.
import type { HostConfig } from '../ground/config/types';
import type { AccountInfo } from './types';

/**
 * The default patterns, case-insensitive. The seed's suffix and prefix patterns are anchored to a
 * word edge (space, "-", "_", "."), so "Abbott", "Talbot", "robotics" or "Botond" are not bots.
 */
export const DEFAULT_BOT_NAME_PATTERNS: readonly string[] = [
  // The seed's `bot$` and `-bot$`: "Qt CI Bot", Wikimedia's "jenkins-bot" (its Zuul CI account:
  // https://wikitech.wikimedia.org/wiki/Gerrit/Bot_account, https://phabricator.wikimedia.org/T210442).
  '(^|[-_ .])bot$',
  // The seed lists `bot$` twice; the second is taken to be GitHub's app suffix, `name[bot]`.
  '\\[bot\\]$',
  // The seed's `^bot`.
  '^bot($|[-_ .])',
  // The paper's named services (the last one, cut off in our copy, is left out).
  '^dependabot\\b',
  '^renovate\\b',
  '^github-actions\\b',
  '^travis-ci\\b',
  '^circleci\\b',
  // OpenDev's CI: Zuul's Gerrit driver documentation creates its account as
  // `gerrit create-account --full-name Zuul zuul` (zuul/zuul doc/source/drivers/gerrit.rst).
  '^zuul$',
];

/** A host's patterns: its `botNamePatterns` (default: DEFAULT_BOT_NAME_PATTERNS), then its `extraBotNamePatterns`. */
export function botNamePatternsOf(host: Pick<HostConfig, 'botNamePatterns' | 'extraBotNamePatterns'>): string[] {
  return [...new Set([...(host.botNamePatterns ?? DEFAULT_BOT_NAME_PATTERNS), ...(host.extraBotNamePatterns ?? [])])];
}

/**
 * The account fields a pattern is tested on: those Gerrit sends for a detailed account
 * (AccountLoader.DETAILED_OPTIONS: NAME, USERNAME, DISPLAY_NAME, EMAIL; `display_name` only where the
 * account set one), the e-mail by its local part alone, so an anchored `bot$` can match `ci-bot@host`.
 */
function namesOf(a: AccountInfo): string[] {
  const r = a as Record<string, unknown>;
  const out: string[] = [];
  for (const v of [r.name, r.display_name, r.username])
    if (typeof v === 'string' && v.trim() !== '') out.push(v.trim());
  if (typeof r.email === 'string' && r.email.includes('@')) out.push(r.email.slice(0, r.email.lastIndexOf('@')).trim());
  return out;
}

export interface BotNameMatch {
  /** The source of the first pattern (in config order) that matched any of the names; null: none. */
  pattern: string | null;
  /** The account carried a name to match at all (false: an id-only account, nothing decided). */
  checked: boolean;
}

export class BotNameMatcher {
  private readonly compiled: { source: string; re: RegExp }[];

  /** `sources` were validated as regexes with the config (format "regex"); each is compiled case-insensitive. */
  constructor(sources: readonly string[]) {
    this.compiled = sources.map((source) => ({ source, re: new RegExp(source, 'i') }));
  }

  match(a: AccountInfo): BotNameMatch {
    const names = namesOf(a);
    if (names.length === 0) return { pattern: null, checked: false };
    for (const { source, re } of this.compiled)
      if (names.some((n) => re.test(n))) return { pattern: source, checked: true };
    return { pattern: null, checked: true };
  }
}
