// Message templates of bots that comment inline, some of them under ordinary accounts.
// Each pattern is written here from the message format the bot's own source (or the tool whose output
// it posts) prints; no code is copied. A built-in template matches ONE LINE in full. A comment is a
// bot's when every non-blank line of it matches a built-in template, so a reviewer who writes a
// sentence around "Trailing whitespace" is not taken for the bot, while a bot's comment that joins
// several complaints ("Hint: Trailing whitespace\n\nHint: Leading tabs") still is.

export interface BotTemplateSet {
  bot: string;
  /** Where the format was read. */
  source: string;
  lines: readonly RegExp[];
}

// flake8 output: a code of a default checker — pycodestyle E/W, pyflakes F, mccabe C (C901) — then the
// message. Posted as "E501 line too long (83 > 79 characters)", with flake8's default location prefix
// "path:row:col: ", or as "E402: message".
const FLAKE8_LINE = String.raw`(?:\S+:\d+:\d+: )?[EWFC]\d{3}:? \S.*`;

export const BUILT_IN_BOT_TEMPLATES: readonly BotTemplateSet[] = [
  {
    bot: 'Qt Sanity Bot',
    // qt/qtrepotools, git-hooks/sanitize-commit (gerrit-rest mode): advisory complaints are prefixed
    // "Hint: "; the others are posted bare. Listed: the complaints it anchors on a file line.
    source: 'qt/qtrepotools git-hooks/sanitize-commit',
    lines: [
      /^(?:Hint: )?(?:Trailing whitespace|Leading tabs|Mixing spaces with TABs|Space indent followed by a TAB character|TAB character in non-leading whitespace|Flow control keywords must be followed by a single space|WS-only change)$/,
      /^(?:Hint: )?Semicolon after [A-Za-z_][\w:]*$/,
      /^Hint: Possible incorrect use of Apple-related terminology; .+$/,
      /^(?:CRLF line endings|Unresolved merge conflict)$/,
      // Its deprecated-Apple-define checks: "Using deprecated define Q_OS_MAC; use …",
      // "Using deprecated qmake scope 'macx'; use …", "Use of deprecated idiom 'mac:!ios', use …".
      /^(?:Using deprecated (?:define|qmake scope) \S+[;:] use |Use of deprecated idiom '[^']+'[;,] use ).+$/,
      // Its spelling check: "occured -> occurred?", with " [*]" when the fix is American English.
      /^[\w'-]+ -> [\w' -]+\?(?: \[\*\])?$/,
    ],
  },
  {
    bot: 'Qt security review integration',
    // QUIP-23 (contribute.qt-project.org/quips/23) asks for a security review of files carrying a
    // security header; its integration posts one fixed sentence on such a file. The sentence is the
    // one seen in Qt's review data; the integration's own source is not public.
    source: 'Qt QUIP-23 security review integration',
    lines: [/^Modifying security sensitive file\.$/],
  },
  {
    bot: 'flake8 output',
    // PyCQA flake8 (its default --format) and the checkers it runs: pycodestyle, pyflakes, mccabe.
    source: 'PyCQA flake8 / pycodestyle / pyflakes / mccabe error codes',
    lines: [new RegExp(`^${FLAKE8_LINE}$`)],
  },
  {
    bot: 'Zuul',
    // zuul/zuul-jobs roles/tox (library tox_parse_output.py) posts each linter line as a file comment,
    // prefixed "<tox envlist>: ". zuul/zuul's reporter writes the pipeline result lines
    // ("Build succeeded (check pipeline).", "Starting gate jobs.") and one line per job
    // ("- job-name https://… : SUCCESS in 3m 02s (non-voting)").
    source: 'zuul/zuul reporter; zuul/zuul-jobs roles/tox',
    lines: [
      new RegExp(`^[\\w.,-]+: ${FLAKE8_LINE}$`),
      /^Build (?:succeeded|failed|canceled|cancelled)(?: \([\w .-]+ pipeline\))?\.$/,
      /^Starting [\w.-]+ jobs\.$/,
      /^Merge Failed\.$/,
      /^- \S+(?: \S+)? : (?:SUCCESS|FAILURE|POST_FAILURE|RETRY_LIMIT|TIMED_OUT|NODE_FAILURE|SKIPPED|ERROR|ABORTED|CANCELED|MERGE_CONFLICT|MERGE_FAILURE|CONFIG_ERROR|DISK_FULL)\b.*$/,
    ],
  },
];

// Every line break JavaScript knows, so no template's ".*" runs past a reviewer's line.
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

/** Which template a comment matched: the bot (or "host template") and the pattern's source. */
export interface BotTemplateMatch {
  bot: string;
  /** A host template: its pattern. A built-in set: the pattern that matched the comment's first line. */
  template: string;
}

/** The host name given to a match of the host's own `botTemplates`. */
export const HOST_TEMPLATE = 'host template';

/**
 * The template the comment matches, or null. Built-in templates must cover every non-blank line. A
 * host's own `botTemplates` (config) are tested on the whole trimmed text with RegExp#test, so they
 * match wherever they match: anchor them (^…$) to require the whole text.
 */
export function matchBotTemplate(message: string, hostTemplates: readonly RegExp[] = []): BotTemplateMatch | null {
  const text = message.trim();
  if (text === '') return null;
  for (const re of hostTemplates) if (re.test(text)) return { bot: HOST_TEMPLATE, template: re.source };
  const lines = text
    .split(LINE_BREAK)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  for (const set of BUILT_IN_BOT_TEMPLATES) {
    if (lines.every((line) => set.lines.some((re) => re.test(line)))) {
      return { bot: set.bot, template: set.lines.find((re) => re.test(lines[0]))!.source };
    }
  }
  return null;
}
