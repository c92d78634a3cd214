// Builds a small corpus by inserting stored records directly, as the fetch would have stored them,
// so the build can be tested on exactly the records it reads.
import { syncWindows } from '../../src/core/ground/config/windows';
import { PRODUCT_WINDOWS, type CorpusConfig } from '../../src/core/ground/config/types';
import { DEFAULT_RULES } from '../../src/core/rules/ruleParameters';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';

export function testConfig(over: Partial<CorpusConfig> = {}): CorpusConfig {
  return {
    name: 'fixture-corpus',
    db: 'corpus.sqlite',
    start: '2024-10-01',
    salt: { env: 'REVIEW_CORPUS_SALT' },
    windows: PRODUCT_WINDOWS.map((w) => ({ ...w })),
    hosts: [
      { org: 'openstack', url: 'https://review.opendev.example', query: 'status:merged', minIntervalMs: 1000 },
      { org: 'qt', url: 'https://codereview.qt.example', query: 'status:merged', minIntervalMs: 1000 },
    ],
    rules: { ...DEFAULT_RULES },
    ...over,
  };
}

/**
 * A DiffInfo for two versions of a file (their lines, without "\n"): common prefix, one edit, common
 * suffix. As real Gerrit sends it, a side whose file ends in "\n" ends with the line "" (the default);
 * `noNewlineA`/`noNewlineB` leave it out.
 */
export function diffOf(
  beforeLines: readonly string[],
  afterLines: readonly string[],
  opts: { noNewlineA?: boolean; noNewlineB?: boolean } = {},
): object {
  const before = opts.noNewlineA || beforeLines.length === 0 ? [...beforeLines] : [...beforeLines, ''];
  const after = opts.noNewlineB || afterLines.length === 0 ? [...afterLines] : [...afterLines, ''];
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const content: object[] = [];
  if (head > 0) content.push({ ab: before.slice(0, head) });
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  if (a.length || b.length) content.push({ ...(a.length ? { a } : {}), ...(b.length ? { b } : {}) });
  if (tail > 0) content.push({ ab: before.slice(before.length - tail) });
  return { change_type: 'MODIFIED', content };
}

/** `count` numbered lines, each `${prefix}${n}`. */
export const numbered = (count: number, prefix = 'line '): string[] =>
  Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);

export interface ChangeSpec {
  org?: string;
  number: number;
  changeKey?: string;
  created: string;
  owner?: string;
  collectionRule?: string | null;
  fetchError?: string | null;
  /** Gerrit's status; default MERGED. null: stored before the fetch kept it. */
  status?: string | null;
  /** Revision kind per patch set (index 0 = patch set 1); null = not recorded. Default: 2 patch sets, REWORK. */
  kinds?: (string | null)[];
}

export interface CommentSpec {
  gerritId: string;
  path: string;
  patchSet?: number;
  line?: number | null;
  range?: { startLine: number; startCharacter: number; endLine: number; endCharacter: number };
  side?: 'REVISION' | 'PARENT';
  author: string;
  message: string;
}

export class CorpusFixture {
  private readonly hostIds = new Map<string, number>();

  private constructor(
    readonly store: CorpusStore,
    readonly config: CorpusConfig,
  ) {}

  /** A new corpus (in memory until saved) with the config stored as the fetch stores it. */
  static async create(file: string, config = testConfig()): Promise<CorpusFixture> {
    const store = await CorpusStore.create(file);
    store.setMeta('config', JSON.stringify(config));
    syncWindows(store, config, '2024-09-01T00:00:00Z');
    const fx = new CorpusFixture(store, config);
    for (const h of config.hosts)
      fx.hostIds.set(h.org, store.insert('INSERT INTO hosts(org, url) VALUES (?, ?)', [h.org, h.url]));
    return fx;
  }

  hostId(org = 'openstack'): number {
    const id = this.hostIds.get(org);
    if (id === undefined) throw new Error(`no host ${org}`);
    return id;
  }

  account(pseudonym: string, isBot: boolean, org = 'openstack'): void {
    this.store.run('INSERT INTO accounts(host_id, pseudonym, is_bot) VALUES (?, ?, ?)', [
      this.hostId(org),
      pseudonym,
      isBot ? 1 : 0,
    ]);
  }

  change(spec: ChangeSpec): number {
    const org = spec.org ?? 'openstack';
    const id = this.store.insert(
      `INSERT INTO changes(host_id, number, change_key, project, branch, created, updated, owner, total_comment_count, collection_rule, fetch_state, fetch_error, status)
       VALUES (?, ?, ?, 'proj', 'master', ?, ?, ?, 1, ?, ?, ?, ?)`,
      [
        this.hostId(org),
        spec.number,
        spec.changeKey ?? `I${String(spec.number).padStart(40, '0')}`,
        spec.created,
        spec.created,
        spec.owner ?? 'p-owner',
        spec.collectionRule ?? null,
        spec.collectionRule ? 'listed' : 'done',
        spec.fetchError ?? null,
        spec.status === undefined ? 'MERGED' : spec.status,
      ],
    );
    if (!spec.collectionRule) {
      (spec.kinds ?? [null, 'REWORK']).forEach((kind, i) => {
        this.store.run(
          'INSERT INTO revisions(change_id, patch_set, sha, kind, uploader, created) VALUES (?, ?, ?, ?, ?, ?)',
          [id, i + 1, `sha${spec.number}-${i + 1}`, kind, spec.owner ?? 'p-owner', spec.created],
        );
      });
    }
    return id;
  }

  comment(changeId: number, c: CommentSpec): number {
    return this.store.insert(
      `INSERT INTO comments(change_id, gerrit_id, path, patch_set, side, line, start_line, start_character, end_line, end_character, author, message, updated, unresolved)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '2024-10-11 10:00:00.000000000', 1)`,
      [
        changeId,
        c.gerritId,
        c.path,
        c.patchSet ?? 1,
        c.side ?? 'REVISION',
        c.line === undefined ? (c.range?.endLine ?? null) : c.line,
        c.range?.startLine ?? null,
        c.range?.startCharacter ?? null,
        c.range?.endLine ?? null,
        c.range?.endCharacter ?? null,
        c.author,
        c.message,
      ],
    );
  }

  diff(changeId: number, path: string, psBase: number, content: object | null, fetchError: string | null = null): void {
    this.store.run(
      'INSERT INTO diffs(change_id, path, ps_base, ps_target, content, fetch_error) VALUES (?, ?, ?, ?, ?, ?)',
      [changeId, path, psBase, psBase + 1, content === null ? null : JSON.stringify(content), fetchError],
    );
  }

  flag(exampleKey: string, status: 'open' | 'confirmed' | 'dismissed'): void {
    this.store.run(
      "INSERT INTO flags(example_key, reason, status, rater, decided_at) VALUES (?, 'suggested_edit', ?, 'rater-1', '2025-01-01T00:00:00Z')",
      [exampleKey, status],
    );
  }

  /**
   * The common case: one reviewed edit. Patch set 1 → 2 of `path` replaces line `line` of a
   * `lines`-line file; `comments` sit on patch set 1 (default: one reviewer comment on `line`).
   */
  editedFile(
    changeId: number,
    path: string,
    opts: {
      lines?: number;
      line?: number;
      before?: string[];
      after?: string[];
      comments?: Omit<CommentSpec, 'path'>[];
    } = {},
  ): void {
    const n = opts.lines ?? 20;
    const line = opts.line ?? 10;
    const before = opts.before ?? numbered(n, `${path} line `);
    const after = opts.after ?? before.map((l, i) => (i === line - 1 ? `${l} (revised)` : l));
    this.diff(changeId, path, 1, diffOf(before, after));
    const comments = opts.comments ?? [
      { gerritId: `c-${path}`, line, author: 'p-rev', message: 'please revise this line' },
    ];
    for (const c of comments) this.comment(changeId, { ...c, path });
  }
}
