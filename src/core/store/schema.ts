// The corpus file's schema, as forward migrations. Migration i takes schema_version i to i + 1.
// No table holds an account id, name, username or email: accounts are pseudonyms only.

export const CORPUS_FORMAT = 'review-corpus';

export const MIGRATIONS: readonly string[] = [
  // 0 → 1: the first schema.
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE hosts (
    id INTEGER PRIMARY KEY,
    org TEXT NOT NULL UNIQUE,
    url TEXT NOT NULL
  );

  CREATE TABLE windows (
    name TEXT PRIMARY KEY,
    from_date TEXT NOT NULL,
    to_date TEXT NOT NULL,
    sealed INTEGER NOT NULL DEFAULT 0,
    seal_hash TEXT,
    sealed_at TEXT,
    unsealed_by TEXT,
    unsealed_at TEXT,
    fetched INTEGER NOT NULL DEFAULT 0
  );

  CREATE TABLE accounts (
    host_id INTEGER NOT NULL REFERENCES hosts(id),
    pseudonym TEXT NOT NULL,
    is_bot INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (host_id, pseudonym)
  ) WITHOUT ROWID;

  CREATE TABLE changes (
    id INTEGER PRIMARY KEY,
    host_id INTEGER NOT NULL REFERENCES hosts(id),
    number INTEGER NOT NULL,
    change_key TEXT,
    project TEXT NOT NULL,
    branch TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    owner TEXT,
    total_comment_count INTEGER,
    collection_rule TEXT,
    fetch_state TEXT NOT NULL DEFAULT 'listed',
    fetch_error TEXT,
    UNIQUE (host_id, number)
  );
  CREATE INDEX changes_created ON changes(host_id, created);

  CREATE TABLE revisions (
    change_id INTEGER NOT NULL REFERENCES changes(id),
    patch_set INTEGER NOT NULL,
    sha TEXT,
    kind TEXT,
    uploader TEXT,
    created TEXT,
    PRIMARY KEY (change_id, patch_set)
  ) WITHOUT ROWID;

  CREATE TABLE comments (
    id INTEGER PRIMARY KEY,
    change_id INTEGER NOT NULL REFERENCES changes(id),
    gerrit_id TEXT NOT NULL,
    path TEXT NOT NULL,
    patch_set INTEGER,
    side TEXT,
    line INTEGER,
    start_line INTEGER, start_character INTEGER, end_line INTEGER, end_character INTEGER,
    in_reply_to TEXT,
    author TEXT,
    message TEXT NOT NULL,
    updated TEXT,
    unresolved INTEGER,
    UNIQUE (change_id, gerrit_id)
  );
  CREATE INDEX comments_file ON comments(change_id, path, patch_set);

  CREATE TABLE diffs (
    id INTEGER PRIMARY KEY,
    change_id INTEGER NOT NULL REFERENCES changes(id),
    path TEXT NOT NULL,
    ps_base INTEGER NOT NULL,
    ps_target INTEGER NOT NULL,
    content TEXT,
    fetch_error TEXT,
    UNIQUE (change_id, path, ps_base)
  );

  CREATE TABLE raw_responses (
    id INTEGER PRIMARY KEY,
    host_id INTEGER NOT NULL REFERENCES hosts(id),
    request TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT,
    fetched_at TEXT NOT NULL
  );

  CREATE TABLE fetch_checkpoints (
    host_id INTEGER PRIMARY KEY REFERENCES hosts(id),
    phase TEXT NOT NULL,
    list_offset INTEGER NOT NULL DEFAULT 0,
    high_water TEXT,
    updated_at TEXT NOT NULL
  );

  CREATE TABLE fetch_counters (
    host_id INTEGER NOT NULL REFERENCES hosts(id),
    name TEXT NOT NULL,
    value INTEGER NOT NULL,
    PRIMARY KEY (host_id, name)
  ) WITHOUT ROWID;

  CREATE TABLE builds (
    id INTEGER PRIMARY KEY,
    config_hash TEXT NOT NULL,
    rules_version TEXT NOT NULL,
    corpus_hash TEXT,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    funnel TEXT
  );

  CREATE TABLE examples (
    id INTEGER PRIMARY KEY,
    build_id INTEGER NOT NULL REFERENCES builds(id),
    example_key TEXT NOT NULL,
    change_id INTEGER NOT NULL REFERENCES changes(id),
    path TEXT NOT NULL,
    language TEXT,
    ps_before INTEGER NOT NULL,
    ps_after INTEGER NOT NULL,
    before_start INTEGER NOT NULL,
    after_start INTEGER NOT NULL,
    before_text TEXT NOT NULL,
    after_text TEXT NOT NULL,
    window TEXT,
    half TEXT,
    unit TEXT NOT NULL,
    rule TEXT,
    UNIQUE (build_id, example_key)
  );
  CREATE INDEX examples_group ON examples(build_id, window, rule);

  CREATE TABLE example_comments (
    example_id INTEGER NOT NULL REFERENCES examples(id),
    comment_id INTEGER NOT NULL REFERENCES comments(id),
    PRIMARY KEY (example_id, comment_id)
  ) WITHOUT ROWID;

  CREATE TABLE decisions (
    build_id INTEGER NOT NULL REFERENCES builds(id),
    unit TEXT NOT NULL,
    unit_key TEXT NOT NULL,
    unit_id INTEGER,
    org TEXT NOT NULL,
    window TEXT,
    stage TEXT NOT NULL,
    rule TEXT NOT NULL,
    PRIMARY KEY (build_id, unit, unit_key)
  ) WITHOUT ROWID;
  CREATE INDEX decisions_group ON decisions(build_id, org, window, rule);
  CREATE INDEX decisions_unit ON decisions(build_id, unit, unit_id);

  CREATE TABLE flags (
    id INTEGER PRIMARY KEY,
    example_key TEXT NOT NULL,
    reason TEXT NOT NULL,
    detail TEXT,
    status TEXT NOT NULL DEFAULT 'open',
    rater TEXT,
    decided_at TEXT,
    UNIQUE (example_key, reason)
  );

  CREATE TABLE labels (
    example_key TEXT NOT NULL,
    rater TEXT NOT NULL,
    label TEXT NOT NULL,
    labelled_at TEXT NOT NULL,
    PRIMARY KEY (example_key, rater)
  ) WITHOUT ROWID;
  `,
  // 1 → 2: a comment's decision is found by its key (org/change number/Gerrit id), not by its comment id;
  // keeping this index up to date was a fifth of a build's write (395k rows in an order random to it).
  `
  DROP INDEX IF EXISTS decisions_unit;
  `,
  // 2 → 3: what real Gerrit hosts send and the build needs (docs in test/fake-gerrit/README.md):
  // - changes.status, for not_merged (NULL: written before it was kept);
  // - comments.fix_suggestions, the replacement texts of Gerrit's structured suggested edits (JSON list);
  // - file_lists, GET /changes/{id}/revisions/{N+1}/files?base={N}, so renames are followed and a file
  //   the next patch set left alone costs no diff request;
  // - diffs.target_path, the file's path at N + 1 when it was renamed (NULL: the same path);
  // - examples.rebase_edited_lines, the example's edited lines Gerrit marked due_to_rebase;
  // - accounts.service_user, the SERVICE_USER tag apart from the bot list (NULL: not recorded);
  // - changes.fetch_attempts, how many fetches tried the change, so a failed one is tried again up to a bound;
  // - hosts.server_version and hosts.account_tags ('supported' when the host sends account tags,
  //   'unsupported' before Gerrit 3.3; NULL: not recorded), so bot_account's tag part can say "not counted".
  `
  ALTER TABLE accounts ADD COLUMN service_user INTEGER;
  ALTER TABLE changes ADD COLUMN fetch_attempts INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE hosts ADD COLUMN server_version TEXT;
  ALTER TABLE hosts ADD COLUMN account_tags TEXT;
  ALTER TABLE changes ADD COLUMN status TEXT;
  ALTER TABLE comments ADD COLUMN fix_suggestions TEXT;
  ALTER TABLE diffs ADD COLUMN target_path TEXT;
  ALTER TABLE examples ADD COLUMN rebase_edited_lines INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE file_lists (
    change_id INTEGER NOT NULL REFERENCES changes(id),
    ps_base INTEGER NOT NULL,
    ps_target INTEGER NOT NULL,
    content TEXT,
    fetch_error TEXT,
    PRIMARY KEY (change_id, ps_base)
  ) WITHOUT ROWID;
  `,
  // 3 → 4: what a removal rests on, and bots named by pattern (docs in README "Evidence"):
  // - decisions.evidence, the removing rule's evidence as a JSON object (NULL: the rule gives none),
  //   so every removal can name why, not only which rule;
  // - accounts.bot_pattern, the account-name pattern that made the account a bot at fetch (the
  //   pattern from the config, never the name it matched; NULL: none matched).
  // - accounts.names_checked, 1 once a fetch matched the account's names against the bot-name
  //   patterns (NULL: stored before, or only ever seen without a name), so bot_account's name part
  //   can say "not counted" for a host whose accounts were never matched.
  // - protected_sets, protected_items and protected_set_events: the reference sets `review-corpus
  //   protect` registers (another benchmark's test split, say), stored whole so a rebuild needs nothing
  //   else; each with its SHA-256 and time, and every registration or replacement recorded (README
  //   "Decontamination"). Reference texts are the user's, not a host's; they hold no account.
  `
  ALTER TABLE decisions ADD COLUMN evidence TEXT;
  ALTER TABLE accounts ADD COLUMN bot_pattern TEXT;
  ALTER TABLE accounts ADD COLUMN names_checked INTEGER;
  CREATE TABLE protected_sets (
    name TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL,
    items INTEGER NOT NULL,
    registered_at TEXT NOT NULL
  );
  CREATE TABLE protected_items (
    set_name TEXT NOT NULL REFERENCES protected_sets(name),
    item_id TEXT NOT NULL,
    before_text TEXT,
    after_text TEXT,
    comment TEXT,
    PRIMARY KEY (set_name, item_id)
  ) WITHOUT ROWID;
  CREATE TABLE protected_set_events (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    action TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    items INTEGER NOT NULL,
    at TEXT NOT NULL
  );
  `,
];

/** The version this build of the tool writes: one per migration. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Read at call time, so tests can add a migration and watch it run. */
export function latestSchemaVersion(): number {
  return MIGRATIONS.length;
}
