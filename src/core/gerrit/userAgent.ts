// How this tool names itself to a Gerrit host: in the User-Agent header, and as the token it
// looks up in robots.txt. Read from package.json so a release bump changes it in one place.
//
// Real hosts get the tool, its version and who to write to, as Wikimedia's User-Agent policy asks of
// every client (https://meta.wikimedia.org/wiki/User-Agent_policy), and where to read about it once
// package.json has a `homepage`: the project has no public one yet, and an invented URL is worse than none.
//   review-corpus/0.1.0 (corpus-team@example.org)
//   review-corpus/0.1.0 (https://…; corpus-team@example.org)      with a homepage
// The contact is the config's top-level `contact`; fetching a host that is not loopback without one
// is refused before any request.
import pkg from '../../../package.json';
import { configSource } from '../ground/config/configFile';
import type { CorpusConfig } from '../ground/config/types';
import { UserError } from '../ground/store/errors';

/** The product token robots.txt groups are matched against (`User-agent: review-corpus`). */
export const ROBOTS_TOKEN: string = pkg.name;

const HOMEPAGE: string | undefined = (pkg as { homepage?: string }).homepage;

/** `review-corpus/<version>`, and ` (+<homepage>)` when there is one: names the tool and its version (no contact). */
export const USER_AGENT = `${pkg.name}/${pkg.version}${HOMEPAGE ? ` (+${HOMEPAGE})` : ''}`;

/** `review-corpus/<version> ([<homepage>; ]<contact>)`. The schema keeps `(`, `)` and `;` out of a contact. */
export function userAgentWithContact(contact: string): string {
  if (/[()\\;\u0000-\u001f\u007f]/.test(contact))
    throw new Error(`a contact may not hold "(", ")", ";", "\\" or control characters: ${JSON.stringify(contact)}`);
  return `${pkg.name}/${pkg.version} (${HOMEPAGE ? `${HOMEPAGE}; ` : ''}${contact})`;
}

/** 127.0.0.0/8, ::1 (and ::ffff:127.x.y.z), localhost and *.localhost: this machine, which has no operators to reach. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  if (host === '[::1]') return true;
  // WHATWG URL writes ::ffff:127.0.0.1 as [::ffff:7f00:1]
  return /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

/**
 * Refuses to fetch a host that is not loopback when the config names no contact: one line naming
 * the config file (as loadCorpusConfig read it) and the field.
 */
export function requireContact(config: CorpusConfig): void {
  if (config.contact) return;
  const real = config.hosts.find((h) => !isLoopbackUrl(h.url));
  if (!real) return;
  throw new UserError(
    `${configSource(config)}: contact is required to fetch ${real.url} (hosts[${config.hosts.indexOf(real)}]): ` +
      'add "contact": an e-mail address or an https:// URL where the host\'s operators can reach you; it is sent in the User-Agent (nothing was fetched)',
  );
}

/**
 * The User-Agent for fetching a config's hosts, after requireContact: with the config's contact, or
 * USER_AGENT when there is none (only loopback hosts get that far without one).
 */
export function userAgentFor(config: CorpusConfig): string {
  requireContact(config);
  return config.contact ? userAgentWithContact(config.contact) : USER_AGENT;
}
