// Host presets: four public Gerrit hosts, each with its REST root, a polite pace and a
// default query, and the corpus.json a new corpus starts from. `review-corpus init` and the
// extension's "New Corpus…" both write what newCorpusConfig returns, through writeNewCorpusConfig.
import { writeFileSync } from 'node:fs';
import { UserError } from '../../ground/store/errors';
import { validateCorpusConfig } from './loadConfig';
import { crossWindowDefaults } from '../decontam/crossWindow';
import { DEFAULT_SPLIT_NAMES, PRODUCT_START, PRODUCT_WINDOWS, type HostConfig } from '../../ground/config/types';
import { splitNames } from '../../ground/config/splitNames';

export interface HostPreset {
  /** The host name, which is also what `--host` takes (the org works too). */
  id: string;
  label: string;
  host: Pick<HostConfig, 'org' | 'url' | 'query' | 'minIntervalMs'>;
  /** Where the host's terms for automated clients are written. */
  terms: string;
}

/**
 * One request a second at most, in series (HostClient never runs two at once). None of these hosts
 * publishes a request rate for anonymous REST clients; one a second is the customary pace of a
 * polite crawler, and a listing page carries up to 100 changes. robots.txt's Crawl-delay wins when
 * it asks for slower, and 429/503 answers are waited out (Retry-After).
 */
export const POLITE_INTERVAL_MS = 1000;

/** Merged changes only: the rest would be counted under not_merged and never used. */
export const DEFAULT_QUERY = 'status:merged';

export const HOST_PRESETS: readonly HostPreset[] = [
  {
    id: 'review.opendev.org',
    label: 'OpenDev (OpenStack)',
    host: {
      org: 'openstack',
      url: 'https://review.opendev.org',
      query: DEFAULT_QUERY,
      minIntervalMs: POLITE_INTERVAL_MS,
    },
    terms: "robots.txt and the host's about page",
  },
  {
    id: 'codereview.qt-project.org',
    label: 'Qt Project',
    host: {
      org: 'qt',
      url: 'https://codereview.qt-project.org',
      query: DEFAULT_QUERY,
      minIntervalMs: POLITE_INTERVAL_MS,
    },
    terms: "robots.txt and the host's about page",
  },
  {
    id: 'gerrit.wikimedia.org',
    label: 'Wikimedia (REST root /r)',
    host: {
      org: 'wikimedia',
      url: 'https://gerrit.wikimedia.org/r',
      query: DEFAULT_QUERY,
      minIntervalMs: POLITE_INTERVAL_MS,
    },
    terms:
      "Wikimedia's User-Agent policy (https://meta.wikimedia.org/wiki/User-Agent_policy) and API etiquette (https://www.mediawiki.org/wiki/API:Etiquette)",
  },
  {
    id: 'android-review.googlesource.com',
    label: 'Android (AOSP)',
    host: {
      org: 'android',
      url: 'https://android-review.googlesource.com',
      query: DEFAULT_QUERY,
      minIntervalMs: POLITE_INTERVAL_MS,
    },
    terms: "Google's Terms of Service (https://policies.google.com/terms) and robots.txt",
  },
];

/** The preset a `--host` value names: its id (host name), its org, or its REST root URL. */
export function findPreset(name: string): HostPreset | undefined {
  const key = name
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/+$/, '');
  return HOST_PRESETS.find((p) => p.id === key || p.host.org === key || p.host.url.replace(/^https:\/\//, '') === key);
}

export function presetNames(): string {
  return HOST_PRESETS.map((p) => `${p.id} (${p.host.org})`).join(', ');
}

export interface NewCorpusOptions {
  /** An e-mail address or an https URL for the User-Agent; without one, fetching these hosts is refused. */
  contact?: string;
  /** Default: the orgs joined with "-". */
  name?: string;
  /** The environment variable of the pseudonym salt. Default REVIEW_CORPUS_SALT. */
  saltEnv?: string;
}

/**
 * A corpus.json for the given presets, validated against the strict schema (so a bad contact is
 * reported the way loadConfig reports it, naming `file`). The windows and start are the defaults (docs/rules.md, "Windows");
 * rules are left out, so every threshold is the schema's default. Cross-window decontamination is
 * written out, off, with the policy it would use: a choice that removes data is visible in the file.
 * So is each window's published split name (card.splits, the default mapping spelt out).
 */
export function newCorpusConfig(
  presets: readonly HostPreset[],
  opts: NewCorpusOptions = {},
  file = 'corpus.json',
): Record<string, unknown> {
  if (presets.length === 0) throw new UserError(`no host preset given (presets: ${presetNames()})`);
  const config: Record<string, unknown> = {
    name: opts.name ?? presets.map((p) => p.host.org).join('-'),
    start: PRODUCT_START,
    ...(opts.contact === undefined ? {} : { contact: opts.contact }),
    salt: { env: opts.saltEnv ?? 'REVIEW_CORPUS_SALT' },
    windows: PRODUCT_WINDOWS.map((w) => ({ ...w })),
    hosts: presets.map((p) => ({ ...p.host })),
    decontam: { crossWindow: crossWindowDefaults() },
    card: {
      splits: Object.fromEntries(
        splitNames(
          PRODUCT_WINDOWS.map((w) => w.name),
          DEFAULT_SPLIT_NAMES,
        ),
      ),
    },
  };
  validateCorpusConfig(config, file);
  return config;
}

/** The file's text: two-space JSON and a final newline. */
export function corpusConfigText(config: Record<string, unknown>): string {
  return JSON.stringify(config, null, 2) + '\n';
}

/** Writes a new corpus.json; an existing file is replaced only with `overwrite` (checked by the open itself, so no race). */
export function writeNewCorpusConfig(file: string, config: Record<string, unknown>, overwrite = false): void {
  try {
    writeFileSync(file, corpusConfigText(config), { flag: overwrite ? 'w' : 'wx' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UserError(`${file} already exists; nothing was written`);
    throw new UserError(`${file}: cannot write (${code ?? (e as Error).message})`);
  }
}

/** What is wrong with a contact, in the words loadConfig would use ("contact must be …"); undefined when nothing is. */
export function contactProblem(contact: string): string | undefined {
  try {
    newCorpusConfig([HOST_PRESETS[0]], { contact });
    return undefined;
  } catch (e) {
    return (e as Error).message.replace(/^corpus\.json: /, '');
  }
}
