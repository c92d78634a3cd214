// The JSON Schema of corpus.json. `npm run schema` (scripts/generate-schema.mjs) writes it to
// schemas/corpus.schema.json, which VS Code validates the editor against (contributes.jsonValidation)
// and loadConfig validates every config against with Ajv; a unit test fails when the file is stale.
// The rules part is RULE_PARAMETERS: what each rule declares beside its decide() (src/core/rules/**),
// the one place a rule threshold, its bounds and its default are written.
//
// Strict on purpose: every object refuses fields it does not know (a misspelt `"seald": true` would
// otherwise leave the test window unsealed), dates are calendar dates, counts are integers.
// Beyond JSON Schema: `errorMessage` and `patternErrorMessage` are the messages VS Code shows for a
// value that does not match, and loadConfig uses the same ones.
import { RULE_PARAMETERS, SEARCH_REPLACE_PARAMETERS } from '../ruleParameters';
import { ruleSwitchesSchema } from '../ruleSwitches';
import { CROSS_WINDOW_PARAMETERS } from '../decontam/crossWindow';
import { DEFAULT_SPLIT_NAMES, PRODUCT_START, SPLIT_NAME_PATTERN } from '../../ground/config/types';
import { DEFAULT_BOT_NAME_PATTERNS } from '../../gerrit/botNames';

/** Gerrit's default `queryLimit` for a listing page (the most changes one query returns). */
const GERRIT_QUERY_LIMIT = 500;

export const CONTACT_MESSAGE = 'must be an e-mail address or an https:// URL';

const date = (description: string) => ({ type: 'string', format: 'date', description });

export function buildCorpusSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'review-corpus/corpus.schema.json',
    title: 'Review Corpus config (corpus.json)',
    description: 'Generated from src/core/rules/corpusJson/corpusSchema.ts by `npm run schema`; do not edit by hand.',
    type: 'object',
    additionalProperties: false,
    required: ['name', 'start', 'salt', 'windows', 'hosts'],
    properties: {
      ...identityProperties(),
      windows: windowsSchema(),
      hosts: {
        type: 'array',
        minItems: 1,
        description: 'One Gerrit host per organization.',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['org', 'url', 'minIntervalMs'],
          properties: {
            ...hostPlaceProperties(),
            ...hostBotProperties(),
            ...hostCrawlProperties(),
            probe: probeSchema(),
          },
        },
      },
      rules: {
        type: 'object',
        additionalProperties: false,
        default: {},
        description: "The build's thresholds and rule switches. Changing them and rebuilding fetches nothing.",
        properties: { ...RULE_PARAMETERS, enabled: ruleSwitchesSchema() },
      },
      decontam: {
        // Completed with its defaults, so a stored config always says whether cross-window decontamination
        // ran (a stored config without it predates the setting: build/stages/loadCorpus.ts, storedConfig).
        type: 'object',
        additionalProperties: false,
        default: {},
        description:
          'Decontamination of the corpus against its own windows. (Other benchmarks are registered with `review-corpus protect` and matched under rules.protected….)',
        properties: {
          crossWindow: {
            type: 'object',
            additionalProperties: false,
            default: {},
            description:
              'Cross-window decontamination: train examples that overlap an example of another window are removed (protected_overlap), under this policy of its own. Off unless enabled is true; `review-corpus init` writes it out.',
            properties: CROSS_WINDOW_PARAMETERS,
          },
        },
      },
      searchReplace: {
        // No default object: a config without it stays as it was (and hashes the same).
        type: 'object',
        additionalProperties: false,
        description: 'The Search/Replace export (`export --format search-replace`). Changing it needs no rebuild.',
        properties: SEARCH_REPLACE_PARAMETERS,
      },
      card: cardSchema(),
      judge: judgeSchema(),
      halves: halvesSchema(),
    },
  };
}

/** The corpus's name, file, start date, contact and salt. */
function identityProperties(): Record<string, unknown> {
  return {
    $schema: { type: 'string' },
    name: { type: 'string', minLength: 1, description: 'The corpus name, shown in reports and the status bar.' },
    db: {
      type: 'string',
      pattern: '^(?![A-Za-z]:)(?![\\\\/])(?!(?:.*[\\\\/])?\\.\\.(?:[\\\\/]|$)).+$',
      patternErrorMessage: 'must name a file beside the config (a relative path without "..")',
      default: 'corpus.sqlite',
      description: 'The corpus file, beside this config.',
    },
    start: {
      ...date(
        `Only changes created on or after this date are kept (created_before_start). \`init\` writes ${PRODUCT_START}.`,
      ),
      examples: [PRODUCT_START],
    },
    contact: {
      type: 'string',
      anyOf: [
        { format: 'email', errorMessage: CONTACT_MESSAGE },
        { format: 'uri', pattern: '^https://[^();]+$', errorMessage: CONTACT_MESSAGE },
      ],
      errorMessage: CONTACT_MESSAGE,
      description:
        "How a host's operators reach whoever runs this corpus: an e-mail address or an https:// URL, sent in the User-Agent of every request (`review-corpus/<version> (<contact>)`). Required to fetch any host that is not loopback.",
      examples: ['corpus-team@example.org', 'https://example.org/our-corpus'],
    },
    salt: {
      type: 'object',
      additionalProperties: false,
      required: ['env'],
      description:
        'Where the pseudonym salt comes from. The salt itself is never written to the config or the corpus file.',
      properties: {
        env: {
          type: 'string',
          pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
          patternErrorMessage: 'must be the name of an environment variable (letters, digits and "_")',
          examples: ['REVIEW_CORPUS_SALT'],
          description: 'Environment variable holding the salt (VS Code keeps it in SecretStorage instead).',
        },
      },
    },
  };
}

/** The windows: half-open date intervals, each named, optionally sealed. */
function windowsSchema(): Record<string, unknown> {
  return {
    type: 'array',
    minItems: 1,
    description:
      "Half-open intervals [from, to) on each change's created date; names are unique and windows do not overlap.",
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'from', 'to'],
      properties: {
        name: { type: 'string', minLength: 1 },
        from: date('Inclusive, YYYY-MM-DD.'),
        to: date('Exclusive, YYYY-MM-DD; after from.'),
        sealed: {
          type: 'boolean',
          default: false,
          description:
            "Listed and counted, never fetched or built until unsealed. Its definition's SHA-256 is recorded.",
        },
      },
    },
  };
}

/** Where a host is, what is asked of it and how often. */
function hostPlaceProperties(): Record<string, unknown> {
  return {
    org: {
      type: 'string',
      pattern: '^[A-Za-z0-9_.-]+$',
      patternErrorMessage: 'may hold only letters, digits, "_", "." and "-"',
      description: 'The organization this host is reported under; unique in the config.',
    },
    url: {
      type: 'string',
      format: 'uri',
      // No user or password: the URL is stored in the corpus file and published with each record.
      pattern: '^https?://[^/?#@]+(?:/[^?#]*)?$',
      errorMessage: 'must be an http(s) URL without user, password, query or fragment',
      patternErrorMessage: 'must be an http(s) URL without user, password, query or fragment',
      description:
        "The Gerrit REST root: the origin (https://review.opendev.org) or the origin and a path (https://gerrit.wikimedia.org/r), under which every API request goes. robots.txt is read at the origin's root.",
    },
    query: {
      type: 'string',
      minLength: 1,
      default: 'status:merged',
      description: 'Gerrit search query; `after:<start>` is appended.',
    },
    minIntervalMs: {
      type: 'integer',
      minimum: 0,
      description:
        "The host's written terms: at least this many milliseconds between requests (robots.txt Crawl-delay wins when slower).",
    },
  };
}

/** How a host's bots are told apart. */
function hostBotProperties(): Record<string, unknown> {
  return {
    botAccounts: {
      type: 'array',
      items: { type: 'integer', minimum: 1 },
      description:
        'Account ids treated as bots (bot_account), besides those tagged SERVICE_USER. Never written to the corpus file.',
    },
    botTemplates: {
      type: 'array',
      items: { type: 'string', format: 'regex' },
      description: 'JavaScript regexes over comment text for bots commenting under ordinary accounts (bot_template).',
    },
    botNamePatterns: {
      type: 'array',
      items: { type: 'string', minLength: 1, format: 'regex' },
      description: `JavaScript regexes, matched case-insensitively at fetch on each account's name, display_name, username and the local part of its e-mail, that make the account a bot (bot_account), besides SERVICE_USER and botAccounts. Only the pattern that matched is stored, never the name. Replaces the default list for this host ([] turns name matching off); the default: ${DEFAULT_BOT_NAME_PATTERNS.map((p) => JSON.stringify(p)).join(', ')}.`,
      examples: [[...DEFAULT_BOT_NAME_PATTERNS]],
    },
    extraBotNamePatterns: {
      type: 'array',
      items: { type: 'string', minLength: 1, format: 'regex' },
      description: 'Bot-name patterns added to botNamePatterns (or to the default list), matched the same way.',
      examples: [['^gerritbot$']],
    },
  };
}

/** The limits of one fetch from a host. */
function hostCrawlProperties(): Record<string, unknown> {
  return {
    pageSize: {
      type: 'integer',
      minimum: 1,
      maximum: GERRIT_QUERY_LIMIT,
      default: 100,
      description: `Changes per listing page (Gerrit's default query limit is ${GERRIT_QUERY_LIMIT}).`,
    },
    maxListingPages: {
      type: 'integer',
      minimum: 1,
      default: 100000,
      description:
        'The most listing pages one fetch reads from this host; a listing that goes on past it (a host whose _more_changes never ends) is cut there and counted.',
    },
    requestDeadlineMs: {
      type: 'integer',
      minimum: 1000,
      default: 120000,
      description:
        'The longest one request may take, headers and body; a body that trickles in past it is cut off and retried.',
    },
    maxFetchAttempts: {
      type: 'integer',
      minimum: 1,
      default: 3,
      description:
        'How many fetches try a change or diff the host failed to return, counted per record; after that it stays a fetch_error.',
    },
  };
}

/** The comment-count probe of a host. */
function probeSchema(): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    description:
      "The comment-count probe: before a listing's total_comment_count 0 is trusted (no_comments), comments are fetched for a seeded random sample of such changes; if any has an inline comment, every change of the host is fetched without the shortcut. Recorded in the corpus file.",
    properties: {
      sample: {
        type: 'integer',
        minimum: 1,
        maximum: 10000,
        default: 50,
        description:
          'How many changes listed with total_comment_count 0 to fetch comments for (all of them when fewer).',
      },
      seed: {
        type: 'integer',
        minimum: 0,
        maximum: 4294967295,
        default: 20241001,
        description: "Seed of the sample's random draw, so the same listing gives the same sample.",
      },
    },
  };
}

/** What the dataset card says that the build cannot know. */
function cardSchema(): Record<string, unknown> {
  return {
    // Not in the config hash (build/hashing.ts): it changes what the card says, not what a build decides.
    type: 'object',
    additionalProperties: false,
    description:
      "What the dataset card export writes (README.md, in Hugging Face's format) says that the build cannot know. Changing it needs no rebuild.",
    properties: {
      license: {
        type: 'string',
        pattern: '^[a-z0-9][a-z0-9.+-]*$',
        patternErrorMessage:
          'must be a Hugging Face license id in lower case, such as "cc-by-4.0" or "apache-2.0" (https://huggingface.co/docs/hub/repositories-licenses)',
        description:
          'The dataset\'s license, as a Hugging Face license id (https://huggingface.co/docs/hub/repositories-licenses). Absent: the card says "unknown" and export warns.',
        examples: ['cc-by-4.0', 'apache-2.0', 'other'],
      },
      language: {
        type: 'array',
        uniqueItems: true,
        minItems: 1,
        items: {
          type: 'string',
          pattern: '^(?:[a-z]{2,3}|code|multilingual)$',
          patternErrorMessage: 'must be an ISO 639 code in lower case ("en"), "code" or "multilingual"',
        },
        description: "The natural language(s) of the comments, as ISO 639 codes, for the card's `language`.",
        examples: [['en']],
      },
      prettyName: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: "The card's title and `pretty_name`; absent: the corpus name.",
      },
      splits: {
        type: 'object',
        additionalProperties: {
          type: 'string',
          pattern: SPLIT_NAME_PATTERN,
          patternErrorMessage:
            'must be a split name the `datasets` library accepts: letters, digits and "_", in parts joined by "."',
        },
        // No schema default: a default map would name a window the config may not have.
        description: `Window name → the split its examples are published under (data/<split>.jsonl, the Hub export's data/<split>-NNNNN-of-MMMMM.parquet, the card's splits); a window not listed keeps its own name. Absent: ${JSON.stringify(DEFAULT_SPLIT_NAMES)}, the Hub's usual names. \`review-corpus init\` writes it out.`,
        examples: [{ pilot: 'pilot', train: 'train', dev: 'validation', test: 'test' }],
      },
    },
  };
}

/** The comment-quality judge. */
function judgeSchema(): Record<string, unknown> {
  return {
    // No default object: a config without it stays as it was. Not in the config hash (build/hashing.ts).
    type: 'object',
    additionalProperties: false,
    description:
      'The comment-quality judge (`review-corpus judge`): any OpenAI-compatible /v1/chat/completions endpoint, on CuREV\'s framework (docs/judge.md). Without an endpoint no judge runs and its counts read "not counted".',
    properties: {
      endpoint: {
        type: 'string',
        format: 'uri',
        pattern: '^https?://[^/?#@]+(?:/[^?#]*)?$',
        patternErrorMessage: 'must be an http(s) URL without user, query or fragment',
        description:
          'The endpoint: its base (http://127.0.0.1:8080/v1) or the full /v1/chat/completions URL. A local llama.cpp, vLLM or Ollama server works.',
        examples: ['https://api.openai.com/v1', 'http://127.0.0.1:8080/v1'],
      },
      model: {
        type: 'string',
        minLength: 1,
        description: "The model name the endpoint knows; part of every judgment's cache key.",
      },
      apiKeyEnv: {
        type: 'string',
        pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
        default: 'REVIEW_CORPUS_JUDGE_KEY',
        patternErrorMessage: 'must be the name of an environment variable (letters, digits and "_")',
        description:
          'Environment variable holding the API key (VS Code keeps it in SecretStorage instead). The key is never written anywhere.',
      },
      pricePer1kTokens: {
        type: 'object',
        additionalProperties: false,
        required: ['prompt', 'completion'],
        description: 'Price per 1,000 tokens, in your currency, for the estimated cost in progress and --dry-run.',
        properties: { prompt: { type: 'number', minimum: 0 }, completion: { type: 'number', minimum: 0 } },
      },
      thresholds: {
        type: 'object',
        additionalProperties: false,
        default: {},
        description:
          "CuREV's quality classes (docs/judge.md): irrelevant when relevance < irrelevantBelow; high when civil and clarity ≥ clarityMin and conciseness ≥ concisenessMin; low otherwise.",
        properties: {
          irrelevantBelow: { type: 'integer', minimum: 1, maximum: 11, default: 4 },
          clarityMin: { type: 'integer', minimum: 1, maximum: 10, default: 7 },
          concisenessMin: { type: 'integer', minimum: 1, maximum: 10, default: 7 },
        },
      },
      irrelevantComment: {
        type: 'boolean',
        default: false,
        description:
          'Turn on the irrelevant_comment rule: a kept comment the judge found irrelevant is removed at the next build (which changes the rules version). Off by default, because the rules are fixed before any outcome is read (docs/rules.md).',
      },
      temperature: {
        type: 'number',
        minimum: 0,
        maximum: 2,
        default: 0,
        description: 'Sent with every request; part of the cache key.',
      },
      maxTokens: {
        type: 'integer',
        minimum: 16,
        default: 1024,
        description: 'max_tokens of one answer; part of the cache key.',
      },
      maxRps: {
        type: 'number',
        exclusiveMinimum: 0,
        description: "The most requests per second (the CLI's --max-rps wins).",
      },
    },
  };
}

/** The two registered halves of one window. */
function halvesSchema(): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['by'],
    description:
      'Two registered halves of one window (normally train), by project lists or by a salted hash of the change number.',
    properties: {
      window: {
        type: 'string',
        minLength: 1,
        default: 'train',
        description: 'The window the halves split; one of windows[].name.',
      },
      by: { type: 'string', enum: ['projects', 'hash'] },
      a: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: 'For by: projects, the projects of half a.',
      },
      b: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: 'For by: projects, the projects of half b.',
      },
      salt: {
        type: 'string',
        minLength: 1,
        description: 'For by: hash, a public string mixed into the hash of the change number (not the pseudonym salt).',
      },
    },
    if: { required: ['by'], properties: { by: { const: 'projects' } } },
    then: {
      required: ['a', 'b'],
      properties: { a: true, b: true, salt: { not: {}, errorMessage: 'is used only with by: "hash"' } },
    },
    else: {
      properties: {
        a: { not: {}, errorMessage: 'is used only with by: "projects"' },
        b: { not: {}, errorMessage: 'is used only with by: "projects"' },
      },
    },
  };
}

/** The schema file's text, exactly as schemas/corpus.schema.json holds it. */
export function corpusSchemaText(): string {
  return JSON.stringify(buildCorpusSchema(), null, 2) + '\n';
}
