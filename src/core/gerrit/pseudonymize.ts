// Accounts are replaced by salted pseudonyms the moment they arrive, so no account id, name,
// username or email ever reaches the corpus file. The salt stays in the environment.
import { createHmac } from 'node:crypto';
import { UserError } from '../ground/store/errors';
import { BotNameMatcher, DEFAULT_BOT_NAME_PATTERNS } from './botNames';
import type { AccountInfo } from './types';

/** The tag Gerrit puts on service (robot) accounts. */
const SERVICE_USER_TAG = 'SERVICE_USER';

/** How Gerrit writes an account into change messages: `<GERRIT_ACCOUNT_1000096>`. */
const ACCOUNT_TOKEN = /<GERRIT_ACCOUNT_(\d+)>/g;

/**
 * Anything shaped like an email address: a local part, `@`, dotted labels and a letter TLD (so
 * `pkg@1.2.3` is left alone). Broad on purpose: a false hit blanks a word, a miss leaks an address.
 * The bounded repeats keep matching linear on long untrusted text.
 */
const EMAIL =
  /[\p{L}\p{N}._%+-]{1,64}@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.){0,8}\p{L}[\p{L}\p{N}-]{0,62}(?![\p{L}\p{N}])/gu;

/**
 * Words as identities are written: letters, digits and `_`, joined by `.`, `@`, `+`, `'` or `-` inside a
 * word (`bruno.fixture@example.invalid`, `Sample-Fixture`, `O'Brien`), never ending in one.
 */
const WORD = /[\p{L}\p{N}_]+(?:[.@+'-][\p{L}\p{N}_]+)*/gu;

/** Identities shorter than this are not looked for in text: they would blank ordinary words. */
const MIN_IDENTITY_LENGTH = 3;
/** The longest name, in words, looked for in text. */
const MAX_IDENTITY_WORDS = 6;

const identityKey = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** Whether `text` holds anything shaped like an e-mail address (a rater's name must not). */
export function containsEmailAddress(text: string): boolean {
  return new RegExp(EMAIL.source, 'u').test(text);
}

/** What an email address in text becomes: a fixed marker, so addresses cannot be linked across texts. */
export const EMAIL_PLACEHOLDER = '<email>';

/** The salt from environment variable `varName`; a one-line UserError naming it when unset or empty. */
export function requireSalt(env: NodeJS.ProcessEnv, varName: string): string {
  const salt = env[varName];
  if (salt === undefined || salt.trim() === '') {
    throw new UserError(
      `no salt: set ${varName} to a secret string (it keys the account pseudonyms and is never stored)`,
    );
  }
  return salt;
}

/** Identities (normalised) → pseudonym, and the most words any of them has. Memory only, never stored. */
export interface IdentityIndex {
  names: Map<string, string>;
  words: number;
}

export interface PseudonymousAccount {
  pseudonym: string;
  isBot: boolean;
  /** Tagged SERVICE_USER by the host (Gerrit omits an empty `tags`, so false may mean "not sent"). */
  isServiceUser: boolean;
  /**
   * The config's bot-name pattern that made it a bot (never the name it matched); null when none
   * matched, or when the tag or the bot list already made it one (they come first).
   */
  botPattern: string | null;
  /** Its names were matched against the patterns (false: an id-only account, nothing to match). */
  namesChecked: boolean;
}

export class Pseudonymizer {
  private readonly host: string;
  private readonly cache = new Map<string, string>();

  /**
   * `host` is the host name the accounts belong to (e.g. review.opendev.org); a URL is reduced to
   * its host, so `https://review.opendev.org/` and `review.opendev.org` give the same pseudonyms.
   * `botAccountIds` are the host's configured bot accounts, matched on the raw id; `botNames` the
   * host's bot-name patterns, matched on the raw names.
   */
  constructor(
    private readonly salt: string,
    host: string,
    private readonly botAccountIds: ReadonlySet<number>,
    private readonly botNames: BotNameMatcher = new BotNameMatcher(DEFAULT_BOT_NAME_PATTERNS),
  ) {
    if (!salt || salt.trim() === '')
      throw new UserError(
        'no salt: set REVIEW_CORPUS_SALT (or the variable named by salt.env in corpus.json) to a secret string',
      );
    this.host = normalizeHost(host);
  }

  /**
   * The pseudonym of an account and whether it is a bot. Bot status is decided from the raw
   * account (SERVICE_USER tag, the configured bot list, or a bot-name pattern) before the id and
   * the names are hashed away.
   * An account known only by email (Gerrit allows CCs by address) is keyed on the lower-cased
   * address instead. Undefined when there is no account, or nothing to key it on.
   */
  account(a: AccountInfo | undefined): PseudonymousAccount | undefined {
    if (!a) return undefined;
    const id = a._account_id;
    const isServiceUser = Array.isArray(a.tags) && a.tags.includes(SERVICE_USER_TAG);
    const listed = id !== undefined && this.botAccountIds.has(id);
    const names = this.botNames.match(a);
    const botPattern = isServiceUser || listed ? null : names.pattern;
    const isBot = isServiceUser || listed || botPattern !== null;
    const pseudonym =
      id !== undefined
        ? this.pseudonymForId(id)
        : typeof a.email === 'string' && a.email.trim() !== ''
          ? this.hash(`email:${a.email.trim().toLowerCase()}`)
          : undefined;
    return pseudonym === undefined
      ? undefined
      : { pseudonym, isBot, isServiceUser, botPattern, namesChecked: names.checked };
  }

  /**
   * How the given accounts are written (name, display name, username, e-mails) → their pseudonyms, to
   * scrub text that types them (scrubText). The caller passes the accounts of one response, so what a
   * text becomes depends on that response alone, not on what this process happened to see before: a
   * resumed or incremental fetch stores the same text as an uninterrupted one.
   */
  identities(accounts: readonly (AccountInfo | undefined)[]): IdentityIndex {
    const index: IdentityIndex = { names: new Map(), words: 1 };
    for (const a of accounts) {
      const pseudonym = this.account(a)?.pseudonym;
      if (!a || pseudonym === undefined) continue;
      const r = a as Record<string, unknown>;
      const secondary = Array.isArray(r.secondary_emails) ? r.secondary_emails : [];
      for (const v of [r.name, r.display_name, r.username, r.email, ...secondary]) {
        if (typeof v !== 'string') continue;
        const key = identityKey(v);
        if (key.length < MIN_IDENTITY_LENGTH || index.names.has(key)) continue;
        index.names.set(key, pseudonym);
        index.words = Math.min(MAX_IDENTITY_WORDS, Math.max(index.words, key.split(' ').length));
      }
    }
    return index;
  }

  /**
   * Text with every identity of `index` replaced by its pseudonym, case-insensitively and on word
   * boundaries; linear in the text, however many accounts: words are looked up, not matched one
   * identity at a time.
   */
  private scrubIdentities(text: string, index: IdentityIndex | undefined): string {
    if (!index || index.names.size === 0) return text;
    const words = [...text.matchAll(WORD)].map((m) => ({
      start: m.index as number,
      end: (m.index as number) + m[0].length,
      text: m[0],
    }));
    const out: string[] = [];
    let at = 0;
    for (let i = 0; i < words.length; i++) {
      for (let n = Math.min(index.words, words.length - i); n >= 1; n--) {
        // A name of several words is found only where whitespace alone separates them.
        if (n > 1 && !words.slice(i + 1, i + n).every((w, k) => /^\s+$/.test(text.slice(words[i + k].end, w.start))))
          continue;
        const pseudonym = index.names.get(
          identityKey(
            words
              .slice(i, i + n)
              .map((w) => w.text)
              .join(' '),
          ),
        );
        if (pseudonym === undefined) continue;
        out.push(text.slice(at, words[i].start), pseudonym);
        at = words[i + n - 1].end;
        i += n - 1;
        break;
      }
    }
    out.push(text.slice(at));
    return out.join('');
  }

  /** `u_` + the first 16 hex digits of HMAC-SHA256(salt, host + '\n' + id). */
  pseudonymForId(id: number): string {
    return this.hash(String(id));
  }

  /**
   * Text with `<GERRIT_ACCOUNT_n>` replaced by n's pseudonym, every identity of `index` (the accounts of
   * the same response) by its pseudonym, and every other e-mail-like string by EMAIL_PLACEHOLDER. The
   * name of an account the response does not show cannot be recognised.
   */
  scrubText(text: string, index?: IdentityIndex): string {
    const tokens = text.replace(ACCOUNT_TOKEN, (_, id: string) => this.pseudonymForId(Number(id)));
    return this.scrubIdentities(tokens, index).replace(EMAIL, EMAIL_PLACEHOLDER);
  }

  private hash(key: string): string {
    let pseudonym = this.cache.get(key);
    if (pseudonym === undefined) {
      const digest = createHmac('sha256', this.salt).update(`${this.host}\n${key}`).digest('hex');
      pseudonym = `u_${digest.slice(0, 16)}`;
      this.cache.set(key, pseudonym);
    }
    return pseudonym;
  }
}

function normalizeHost(host: string): string {
  const trimmed = host.trim();
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return new URL(trimmed).host.toLowerCase();
  } catch {
    // not a URL: use it as written
  }
  return trimmed.toLowerCase();
}
