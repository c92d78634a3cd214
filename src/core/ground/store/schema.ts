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
  // 3 → 4: what a removal rests on, and bots named by pattern (docs/rules.md, "Every removal names its evidence"):
  // - decisions.evidence, the removing rule's evidence as a JSON object (NULL: the rule gives none),
  //   so every removal can name why, not only which rule;
  // - accounts.bot_pattern, the account-name pattern that made the account a bot at fetch (the
  //   pattern from the config, never the name it matched; NULL: none matched).
  // - accounts.names_checked, 1 once a fetch matched the account's names against the bot-name
  //   patterns (NULL: stored before, or only ever seen without a name), so bot_account's name part
  //   can say "not counted" for a host whose accounts were never matched.
  // - protected_sets, protected_items and protected_set_events: the reference sets `review-corpus
  //   protect` registers (another benchmark's test split, say), stored whole so a rebuild needs nothing
  //   else; each with its SHA-256 and time, and every registration or replacement recorded
  //   (docs/decontamination.md). Reference texts are the user's, not a host's; they hold no account.
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
  // 4 → 5: Comment quality (#18, docs/judge.md): the CuREV-style judge's raw records, so a rebuild never calls the endpoint.
  // - judgments, keyed by cache_key = SHA-256 of {model, prompt version, parameters, comment, hunk}, so a
  //   rerun sends only what is missing, and by comment_key (two comments of the same text on the same hunk
  //   share one answer); answer is the validated JSON (NULL when unjudged), with tokens and latency;
  // - comment_rewrites, CuREV / CuREV+ reformulations beside (never instead of) the original comment;
  // - quality_labels, hand labels on the same framework, per rater pseudonym, for judge-against-human κ.
  // None holds the API key or an account identity.
  `
  CREATE TABLE judgments (
    cache_key TEXT NOT NULL,
    comment_key TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    params TEXT NOT NULL,
    status TEXT NOT NULL,
    answer TEXT,
    error TEXT,
    prompt_tokens INTEGER,
    completion_tokens INTEGER,
    latency_ms INTEGER,
    judged_at TEXT NOT NULL,
    PRIMARY KEY (cache_key, comment_key)
  );
  CREATE INDEX judgments_comment ON judgments(comment_key, model);
  CREATE TABLE comment_rewrites (
    cache_key TEXT NOT NULL,
    comment_key TEXT NOT NULL,
    mode TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    text TEXT NOT NULL,
    exemplar_keys TEXT NOT NULL,
    prompt_tokens INTEGER,
    completion_tokens INTEGER,
    latency_ms INTEGER,
    rewritten_at TEXT NOT NULL,
    PRIMARY KEY (cache_key, comment_key)
  );
  CREATE INDEX comment_rewrites_comment ON comment_rewrites(comment_key, mode);
  CREATE TABLE quality_labels (
    comment_key TEXT NOT NULL,
    rater TEXT NOT NULL,
    answer TEXT NOT NULL,
    labelled_at TEXT NOT NULL,
    PRIMARY KEY (comment_key, rater)
  ) WITHOUT ROWID;
  `,
  // 5 → 6: The label audit (#16, docs/label-audit.md): a seeded sample of kept examples stratified by organization
  // and window, so the same items go to a human and to model raters, and whom each rater is.
  // - audit_samples, one row per draw (a re-draw adds a row; the latest is the current sample): the build
  //   it was drawn from, the size asked, the seed, the strata with their allocation (JSON), the SHA-256
  //   of the items in order and the time;
  // - audit_items, the sample's example keys in the order they go to raters;
  // - label_raters, an imported rater's kind ('model': its name is a model id; 'human': a pseudonym, never a
  //   name or an e-mail address). Labels set in the inspector are a local human's pseudonym (r_…).
  `
  CREATE TABLE audit_samples (
    id INTEGER PRIMARY KEY,
    build_id INTEGER NOT NULL,
    size INTEGER NOT NULL,
    seed TEXT NOT NULL,
    strata TEXT NOT NULL,
    items_sha256 TEXT NOT NULL,
    drawn_at TEXT NOT NULL
  );
  CREATE TABLE audit_items (
    sample_id INTEGER NOT NULL REFERENCES audit_samples(id),
    position INTEGER NOT NULL,
    example_key TEXT NOT NULL,
    org TEXT NOT NULL,
    window TEXT,
    PRIMARY KEY (sample_id, position)
  ) WITHOUT ROWID;
  CREATE INDEX audit_items_key ON audit_items(example_key, sample_id);
  CREATE TABLE label_raters (
    name TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    added_at TEXT NOT NULL
  );
  `,
  // 6 → 7: Builds that stand as a record (#16, docs/frozen-builds.md: a published build stands as the record):
  // - build_tags, a build frozen under a name (`review-corpus tag`), with the build's versions copied so
  //   the record reads on its own; a tag is never moved, and a rebuild keeps a tagged build's examples;
  // - decisions.text_sha256, a kept example's before and after text digest (base64 SHA-256; NULL for
  //   every other unit, and for builds written before), so `diff` can tell a kept example whose text
  //   changed even after the older build's examples were pruned. Not in the corpus hash (the texts are).
  `
  CREATE TABLE build_tags (
    name TEXT PRIMARY KEY,
    build_id INTEGER NOT NULL REFERENCES builds(id),
    rules_version TEXT NOT NULL,
    config_hash TEXT NOT NULL,
    corpus_hash TEXT,
    tagged_at TEXT NOT NULL
  );
  ALTER TABLE decisions ADD COLUMN text_sha256 TEXT;
  `,
  // 7 → 8: The comment-count probe (#16, docs/user-guide.md; a stale index on Qt): before a host's total_comment_count 0 is trusted,
  // comments are fetched for a seeded sample of such changes; one row per host (its latest probe):
  // the sample size asked, the seed, the candidates, how many were read, how many had an inline comment
  // (and could not be read), the result ('held', 'failed', 'none': no such change) and the time.
  // `sampled` and `with_comments` are JSON lists of change numbers (no account is in them).
  `
  CREATE TABLE comment_count_probes (
    host_id INTEGER PRIMARY KEY REFERENCES hosts(id),
    sample INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    candidates INTEGER NOT NULL,
    probed INTEGER NOT NULL,
    with_comments INTEGER NOT NULL,
    unreadable INTEGER NOT NULL,
    result TEXT NOT NULL,
    sampled TEXT NOT NULL,
    with_comments_changes TEXT NOT NULL,
    probed_at TEXT NOT NULL
  );
  `,
  // 8 → 9: Registered halves (#16, docs/publishing.md), recorded like a sealed window: per organization, the split
  // definition's SHA-256, the build it was read from, the size floor (the smaller half's size), the
  // suffix-mix total-variation ceiling and the matched suffix; every later build is checked against
  // them. Each registration or replacement is kept in halves_events (docs/publishing.md, "Registered halves").
  `
  CREATE TABLE halves_registrations (
    org TEXT PRIMARY KEY,
    window TEXT NOT NULL,
    definition_sha256 TEXT NOT NULL,
    registered_at TEXT NOT NULL,
    build_id INTEGER NOT NULL,
    size_floor INTEGER NOT NULL,
    suffix_tvd_ceiling REAL NOT NULL,
    matched_suffix TEXT
  );
  CREATE TABLE halves_events (
    id INTEGER PRIMARY KEY,
    org TEXT NOT NULL,
    window TEXT NOT NULL,
    action TEXT NOT NULL,
    definition_sha256 TEXT NOT NULL,
    build_id INTEGER NOT NULL,
    size_floor INTEGER NOT NULL,
    suffix_tvd_ceiling REAL NOT NULL,
    matched_suffix TEXT,
    at TEXT NOT NULL
  );
  `,
  // 9 → 10: The corpus file at real scale (#15, docs/storage.md): each file version stored once.
  // - blobs, content-addressed texts: sha256 of the UTF-8 text (hex), the codec ('br5': brotli quality
  //   5; 'br5-delta': the text as line edits of the version `base`, `depth` deltas deep; 'none-delta':
  //   the same edits uncompressed, written for deltas of at most 512 bytes by later code, read by all
  //   code since this migration) and the bytes; a file version shown by several diffs is one row;
  // - diffs.a_sha256 / b_sha256, the blobs of the diff's two sides, and diffs.structure, its DiffInfo
  //   with each line list replaced by its line count (src/core/ground/store/diffText.ts joins them back byte
  //   for byte); diffs.layout 'sides' (so stored), 'inline' (content kept as it came, when it does not
  //   split exactly) or NULL (written inline before: the next CorpusStore.save moves it into blobs;
  //   diffs_inline, a partial index, finds those rows without a scan).
  `
  CREATE TABLE blobs (
    sha256 TEXT PRIMARY KEY,
    codec TEXT NOT NULL,
    bytes BLOB NOT NULL,
    base TEXT,
    depth INTEGER NOT NULL DEFAULT 0
  ); -- a rowid table: SQLite advises against WITHOUT ROWID for rows of kilobytes
  ALTER TABLE diffs ADD COLUMN a_sha256 TEXT;
  ALTER TABLE diffs ADD COLUMN b_sha256 TEXT;
  ALTER TABLE diffs ADD COLUMN structure TEXT;
  ALTER TABLE diffs ADD COLUMN layout TEXT;
  CREATE INDEX diffs_inline ON diffs(id) WHERE layout IS NULL AND content IS NOT NULL;
  `,
  // 10 → 11: The blob pack (#15, docs/storage.md "Blob pack"). A blob written by a store with a file
  // keeps its bytes in the append-only `<corpus>.blobs` beside it: pack_offset and pack_length say
  // where, and `bytes` is empty. Blobs written before stay in `bytes` and are read from there.
  `
  ALTER TABLE blobs ADD COLUMN pack_offset INTEGER;
  ALTER TABLE blobs ADD COLUMN pack_length INTEGER;
  `,
  // 11 → 12: Flag decisions are recorded inputs of a build (#29, docs/storage.md):
  // - flag_decisions, every confirm, reject or clear ('open') of a flag with its rater pseudonym and
  //   time, appended and never overwritten (the flags row keeps the latest for fast reads); the
  //   decisions already on flags rows are its first entries, an older row's 'dismissed' as 'rejected';
  // - build_flag_decisions, the decided flags a build read when it started (manual_flag removes the
  //   examples with a confirmed one), and builds.flag_decisions_sha256 their digest, so a build can be
  //   rebuilt with its own decisions. NULL for builds written before: their manual_flag removals say
  //   which examples had a confirmed flag (build/flags/flagDecisions.ts, flagDecisionsOfBuild).
  `
  CREATE TABLE flag_decisions (
    id INTEGER PRIMARY KEY,
    example_key TEXT NOT NULL,
    reason TEXT NOT NULL,
    status TEXT NOT NULL,
    rater TEXT,
    decided_at TEXT
  );
  CREATE INDEX flag_decisions_example ON flag_decisions(example_key, id);
  INSERT INTO flag_decisions(example_key, reason, status, rater, decided_at)
    SELECT example_key, reason, CASE status WHEN 'dismissed' THEN 'rejected' ELSE status END, rater, decided_at
    FROM flags WHERE status <> 'open' ORDER BY decided_at, id;
  CREATE TABLE build_flag_decisions (
    build_id INTEGER NOT NULL REFERENCES builds(id),
    example_key TEXT NOT NULL,
    reason TEXT NOT NULL,
    status TEXT NOT NULL,
    decided_at TEXT,
    PRIMARY KEY (build_id, example_key, reason)
  ) WITHOUT ROWID;
  ALTER TABLE builds ADD COLUMN flag_decisions_sha256 TEXT;
  `,
  // 12 → 13: Frozen builds (#29, docs/storage.md):
  // - builds.records_sha256, the blob listing the build's published records in export order (a JSON
  //   list of [record blob id, example key, window]; each record, one exported JSON line, is a blob of
  //   its own, so a record unchanged between builds is stored once); NULL for builds written before;
  // - builds.config, the build's full effective config (defaults filled in, bot account ids and the
  //   contact left out), so verify rebuilds a build with what it was built with;
  // - tag_files, every file a tagged build's export writes (examples, splits, card, counts, audits),
  //   frozen when the tag was given: path relative to the export's folder, and the blob of its bytes.
  `
  ALTER TABLE builds ADD COLUMN records_sha256 TEXT;
  ALTER TABLE builds ADD COLUMN config TEXT;
  CREATE TABLE tag_files (
    tag TEXT NOT NULL REFERENCES build_tags(name),
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    PRIMARY KEY (tag, path)
  );
  `,
  // 13 → 14: comments.autogenerated, 1 when Gerrit tagged the comment "autogenerated:…" (what a CI bot's
  // comments carry, whatever its account), 0 when not; NULL for comments fetched before. The tag's text
  // itself is not kept: the rules need only whether a machine wrote the comment.
  `
  ALTER TABLE comments ADD COLUMN autogenerated INTEGER;
  `,
  // 14 → 15: Following the host over time (docs/crawling.md, "Following the host"). A later fetch records
  // what changed on the host as new versions, never in place of the old:
  // - comment_versions, a comments row as it was before a fetch changed it (version 1 is the first one
  //   stored), written before the row is updated;
  // - comments.deleted_on_host, when a fetch first found the comment deleted on the host: its text
  //   replaced by Gerrit's deletion notice (the notice itself is not stored: it names an administrator;
  //   the row's message becomes '' and its text before stays in comment_versions), or the comment missing
  //   from the change's comments; NULL: not deleted, or fetched before;
  // - changes.submitted, the change's merge time (ChangeInfo.submitted; NULL: not merged, or fetched
  //   before), for post_merge_comment;
  // - changes.gone_from_host and gone_reason, when a request of the change's own answered 404 (a change
  //   deleted, made private or in a project now hidden) and the status it answered; its earlier records
  //   stay. Cleared when the host lists the change again; host_events keeps both;
  // - host_events, each such change as it was found: append-only, with the change number, the comment's
  //   Gerrit id where it is one, what happened and when. No account or host text is in it.
  // Comments already stored with a deletion notice lose the notice (it names an administrator), and are
  // marked deleted as of the migration.
  `
  ALTER TABLE comments ADD COLUMN deleted_on_host TEXT;
  CREATE TABLE comment_versions (
    comment_id INTEGER NOT NULL REFERENCES comments(id),
    version INTEGER NOT NULL,
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
    fix_suggestions TEXT,
    autogenerated INTEGER,
    deleted_on_host TEXT,
    superseded_at TEXT NOT NULL,
    PRIMARY KEY (comment_id, version)
  ) WITHOUT ROWID;
  ALTER TABLE changes ADD COLUMN submitted TEXT;
  ALTER TABLE changes ADD COLUMN gone_from_host TEXT;
  ALTER TABLE changes ADD COLUMN gone_reason TEXT;
  CREATE TABLE host_events (
    id INTEGER PRIMARY KEY,
    host_id INTEGER NOT NULL REFERENCES hosts(id),
    change_number INTEGER NOT NULL,
    gerrit_id TEXT,
    event TEXT NOT NULL,
    at TEXT NOT NULL
  );
  UPDATE comments SET deleted_on_host = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), message = ''
    WHERE message GLOB 'Comment removed by: *';
  `,
  // 15 → 16: A build's published records are stored in chunks (diffText.ts LineChunks): a record is a
  // `blobs` row of codec 'line' whose bytes are its line's index in `base`, a chunk blob of up to 128
  // records compressed together (codec 'br1', brotli quality 1). No table changes; the version says
  // that a tool older than this cannot read such rows, so it refuses the file rather than misread it.
  `
  SELECT 1;
  `,
];

/** The version this build of the tool writes: one per migration. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Read at call time, so tests can add a migration and watch it run. */
export function latestSchemaVersion(): number {
  return MIGRATIONS.length;
}
