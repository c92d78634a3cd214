// Accounts are replaced by salted pseudonyms the moment they arrive, so no account id, name,
// username or email ever reaches the corpus file. The salt stays in the environment.
import { createHmac } from 'node:crypto';
import { UserError } from '../store/errors';
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
const EMAIL = /[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,8}[A-Za-z]{2,63}\b/g;

/** What an email address in text becomes: a fixed marker, so addresses cannot be linked across texts. */
export const EMAIL_PLACEHOLDER = '<email>';

/** The salt from environment variable `varName`; a one-line UserError naming it when unset or empty. */
export function requireSalt(env: NodeJS.ProcessEnv, varName: string): string {
  const salt = env[varName];
  if (salt === undefined || salt.trim() === '') {
    throw new UserError(`no salt: set ${varName} to a secret string (it keys the account pseudonyms and is never stored)`);
  }
  return salt;
}

export interface PseudonymousAccount {
  pseudonym: string;
  isBot: boolean;
  /** Tagged SERVICE_USER by the host (Gerrit omits an empty `tags`, so false may mean "not sent"). */
  isServiceUser: boolean;
}

export class Pseudonymizer {
  private readonly host: string;
  private readonly cache = new Map<string, string>();

  /**
   * `host` is the host name the accounts belong to (e.g. review.opendev.org); a URL is reduced to
   * its host, so `https://review.opendev.org/` and `review.opendev.org` give the same pseudonyms.
   * `botAccountIds` are the host's configured bot accounts, matched on the raw id.
   */
  constructor(private readonly salt: string, host: string, private readonly botAccountIds: ReadonlySet<number>) {
    if (!salt || salt.trim() === '') throw new UserError('no salt: set REVIEW_CORPUS_SALT (or the variable named by salt.env in corpus.json) to a secret string');
    this.host = normalizeHost(host);
  }

  /**
   * The pseudonym of an account and whether it is a bot. Bot status is decided from the raw
   * account (SERVICE_USER tag, or the configured bot list) before the id is hashed away.
   * An account known only by email (Gerrit allows CCs by address) is keyed on the lower-cased
   * address instead. Undefined when there is no account, or nothing to key it on.
   */
  account(a: AccountInfo | undefined): PseudonymousAccount | undefined {
    if (!a) return undefined;
    const id = a._account_id;
    const isServiceUser = Array.isArray(a.tags) && a.tags.includes(SERVICE_USER_TAG);
    const isBot = isServiceUser || (id !== undefined && this.botAccountIds.has(id));
    if (id !== undefined) return { pseudonym: this.pseudonymForId(id), isBot, isServiceUser };
    if (a.email) return { pseudonym: this.hash(`email:${a.email.trim().toLowerCase()}`), isBot, isServiceUser };
    return undefined;
  }

  /** `u_` + the first 16 hex digits of HMAC-SHA256(salt, host + '\n' + id). */
  pseudonymForId(id: number): string {
    return this.hash(String(id));
  }

  /**
   * Text with `<GERRIT_ACCOUNT_n>` replaced by n's pseudonym and every email address by
   * EMAIL_PLACEHOLDER. Names typed as plain words cannot be recognised and are left alone.
   */
  scrubText(text: string): string {
    return text
      .replace(ACCOUNT_TOKEN, (_, id: string) => this.pseudonymForId(Number(id)))
      .replace(EMAIL, EMAIL_PLACEHOLDER);
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
