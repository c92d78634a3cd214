// Deterministic corpus for the build benchmark: writes the raw records of N examples straight into a
// corpus file, in exactly the shape the fetch stores (src/core/gerrit/fetchRecords.ts), with planted
// duplicates listed in a side file (<out without .sqlite>.planted.json) for bench/dedup-score.ts.
//   node bench/run.mjs generate --examples 100000 --out /tmp/bench-100k.sqlite [--seed 20261202]
//     [--file-lengths classic|realistic] [--diff-layout sides|inline]
// --file-lengths realistic pads each file to a drawn length (generateRecords.ts realisticFileLines);
// --diff-layout inline writes diffs as schema 4 did (the store moves them into blobs at its next save).
// No HTTP: the plan (generateCorpus.ts) and the records (generateRecords.ts) come from one seeded PRNG.
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { validateCorpusConfig } from '../src/core/rules/corpusJson/loadConfig';
import type { CorpusConfig } from '../src/core/ground/config/types';
import { syncWindows, windowOf } from '../src/core/ground/config/windows';
import { pseudonymHost, storeConfig } from '../src/core/gerrit/fetchCorpus';
import { Pseudonymizer } from '../src/core/gerrit/pseudonymize';
import { CorpusStore } from '../src/core/ground/store/corpusStore';
import { blobPackPath } from '../src/core/ground/store/blobPack';
import { filesBeside } from '../src/core/ground/store/copyCorpus';
import { writeDiff } from '../src/core/ground/store/diffText';
import { ORGS, planCorpus } from './generateCorpus';
import {
  RecordMaker,
  plantedFileOf,
  type FileLengths,
  type AccountRef,
  type GenChange,
  type Planted,
} from './generateRecords';
import { Rng } from './generateText';
import { arg } from './benchArgs';
import { CORPUS_START, WINDOWS } from '../test/fake-gerrit/fixtures/scenarioOptions';

/** Fabricated: protects nothing. */
const BENCH_SALT = 'bench-salt-fabricated-not-secret';
/** When the test window was sealed: fixed, so the same seed gives the same records. */
const SEALED_AT = '2024-09-30T12:00:00.000Z';
const HOST_URLS = [
  'https://review.opendev.example',
  'https://codereview.qt.example',
  'https://gerrit.wikimedia.example',
];

function benchConfig(): CorpusConfig {
  return validateCorpusConfig(
    {
      name: 'bench',
      db: 'corpus.sqlite',
      start: CORPUS_START,
      salt: { env: 'REVIEW_CORPUS_SALT' },
      windows: WINDOWS,
      hosts: ORGS.map((org, i) => ({
        org,
        url: HOST_URLS[i],
        query: 'status:merged',
        minIntervalMs: 1000,
        // The CI bot that posts build results under an ordinary account; storeConfig drops this list.
        botAccounts: [9_100_000 + i],
        botTemplates: ['^Build (?:succeeded|failed)\\. \\d+ tests passed\\.$'],
      })),
      rules: {},
    },
    'bench corpus.json',
  );
}

/** Writes records through cached prepared statements, pseudonymizing every account as the fetch does. */
class BenchWriter {
  private readonly seen = new Set<string>();
  private readonly pseudonyms: Pseudonymizer[];
  private nextChangeId = 1;
  counts = { changes: 0, revisions: 0, comments: 0, diffs: 0, accounts: 0 };

  /** `inline`: diffs as schema 4 stored them (the whole JSON in diffs.content), for before/after figures. */
  constructor(
    private readonly store: CorpusStore,
    config: CorpusConfig,
    private readonly diffLayout: 'sides' | 'inline' = 'sides',
  ) {
    this.pseudonyms = config.hosts.map(
      (h) => new Pseudonymizer(BENCH_SALT, pseudonymHost(h.url), new Set(h.botAccounts ?? [])),
    );
  }

  private account(org: number, a: AccountRef): string {
    const p = this.pseudonyms[org].account({ _account_id: a.id, tags: a.serviceUser ? ['SERVICE_USER'] : undefined })!;
    const key = `${org}\0${p.pseudonym}`;
    if (!this.seen.has(key)) {
      this.seen.add(key);
      this.counts.accounts++;
      this.store
        .prepare('INSERT INTO accounts(host_id, pseudonym, is_bot) VALUES (?, ?, ?)')
        .run([org + 1, p.pseudonym, p.isBot ? 1 : 0]);
    }
    return p.pseudonym;
  }

  write(c: GenChange): void {
    const { plan } = c;
    const org = plan.org;
    const id = this.nextChangeId++;
    const fetched = plan.collection === null;
    this.store
      .prepare(
        `INSERT INTO changes(id, host_id, number, change_key, project, branch, created, updated, owner, total_comment_count, collection_rule, fetch_state, fetch_error, status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 'MERGED')`,
      )
      .run([
        id,
        org + 1,
        plan.number,
        c.changeKey,
        c.project,
        c.branch,
        new Date(plan.created).toISOString(),
        c.updated,
        this.account(org, c.owner),
        c.totalCommentCount,
        plan.collection,
        fetched ? 'done' : 'listed',
      ]);
    const revision = this.store.prepare(
      'INSERT INTO revisions(change_id, patch_set, sha, kind, uploader, created) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const r of c.revisions) revision.run([id, r.ps, r.sha, r.kind, this.account(org, c.owner), r.created]);
    const comment = this.store.prepare(
      `INSERT INTO comments(change_id, gerrit_id, path, patch_set, side, line, start_line, start_character, end_line, end_character,
         in_reply_to, author, message, updated, unresolved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const m of c.comments) {
      comment.run([
        id,
        m.gerritId,
        m.path,
        m.patchSet,
        m.side,
        m.line,
        m.range?.startLine ?? null,
        m.range?.startCharacter ?? null,
        m.range?.endLine ?? null,
        m.range?.endCharacter ?? null,
        m.inReplyTo,
        this.account(org, m.author),
        this.pseudonyms[org].scrubText(m.message),
        m.updated,
        m.unresolved ? 1 : 0,
      ]);
    }
    const diff = this.store.prepare(
      'INSERT INTO diffs(change_id, path, ps_base, ps_target, content, fetch_error) VALUES (?, ?, ?, ?, ?, NULL)',
    );
    for (const d of c.diffs) {
      if (this.diffLayout === 'inline') diff.run([id, d.path, d.psBase, d.psBase + 1, d.content]);
      else
        writeDiff(this.store, {
          changeId: id,
          path: d.path,
          base: d.psBase,
          content: d.content,
          error: null,
          targetPath: null,
        });
    }
    this.counts.changes++;
    this.counts.revisions += c.revisions.length;
    this.counts.comments += c.comments.length;
    this.counts.diffs += c.diffs.length;
  }
}

async function main(): Promise<void> {
  const examples = Number(arg('examples') ?? 100_000);
  const out = arg('out');
  const seed = Number(arg('seed') ?? 20261202);
  const lengths = (arg('file-lengths') ?? 'classic') as FileLengths;
  const layout = (arg('diff-layout') ?? 'sides') as 'sides' | 'inline';
  if (
    !out ||
    !Number.isInteger(examples) ||
    examples < 1 ||
    !Number.isInteger(seed) ||
    !['classic', 'realistic'].includes(lengths) ||
    !['sides', 'inline'].includes(layout)
  ) {
    throw new Error(
      'usage: node bench/run.mjs generate --examples <N ≥ 1> --out <file.sqlite> [--seed <int>] [--file-lengths classic|realistic] [--diff-layout sides|inline]',
    );
  }
  const t0 = performance.now();
  const rng = new Rng(seed);
  const plan = planCorpus(examples, rng);
  const tPlan = performance.now();

  for (const f of [out, ...filesBeside(out)]) rmSync(f, { force: true });
  // Room up front: sql.js's in-memory file otherwise grows 12.5% at a time, copying itself at every step.
  const store = await CorpusStore.create(out, {
    reserveBytes: examples * (lengths === 'realistic' && layout === 'inline' ? 40_000 : 6000),
  });
  // Connection settings only (nothing persists in the file): the journal and temp files in memory.
  store.exec('PRAGMA temp_store = MEMORY; PRAGMA journal_mode = MEMORY');
  const config = benchConfig();
  const maker = new RecordMaker(plan, rng, lengths, seed);
  const writer = new BenchWriter(store, config, layout);
  const byRule: Record<string, number> = {};
  store.transaction(() => {
    storeConfig(store, config);
    syncWindows(store, config, SEALED_AT);
    ORGS.forEach((org, i) => store.run('INSERT INTO hosts(id, org, url) VALUES (?, ?, ?)', [i + 1, org, HOST_URLS[i]]));
    const highWater = ORGS.map(() => '');
    for (const plannedChange of plan.changes) {
      const c = maker.change(plannedChange);
      writer.write(c);
      const rule = plannedChange.collection ?? 'fetched';
      byRule[rule] = (byRule[rule] ?? 0) + 1;
      if (c.updated > highWater[plannedChange.org]) highWater[plannedChange.org] = c.updated;
      const w = windowOf(config.windows, new Date(plannedChange.created).toISOString());
      if (w && plannedChange.collection === null)
        store.prepare('UPDATE windows SET fetched = 1 WHERE name = ?').run([w.name]);
    }
    ORGS.forEach((_, i) => {
      store.setMeta(`fetch_since:${i + 1}`, config.start);
      store.run(
        'INSERT INTO fetch_checkpoints(host_id, phase, list_offset, high_water, updated_at) VALUES (?, ?, 0, ?, ?)',
        [i + 1, 'done', highWater[i], highWater[i]],
      );
    });
  });
  const planted = maker.finish();
  const tRecords = performance.now();
  store.save();
  store.close();
  const tSave = performance.now();
  const sideFile = plantedFileOf(out);
  writeFileSync(sideFile, JSON.stringify({ seed, examples, ...planted }) + '\n');

  const seconds = (ms: number) => Math.round(ms / 10) / 100;
  console.log(
    JSON.stringify(
      {
        examples,
        seed,
        fileLengths: lengths,
        diffLayout: layout,
        file: out,
        bytes: statSync(out).size,
        packBytes: statSync(blobPackPath(out), { throwIfNoEntry: false })?.size ?? 0,
        sideFile,
        changes: { total: writer.counts.changes, ...byRule },
        rows: writer.counts,
        planted: plantedSummary(planted, plan.boilerplateGroups),
        fileLines: quantiles(maker.fileLines),
        seconds: {
          plan: seconds(tPlan - t0),
          recordsAndInserts: seconds(tRecords - tPlan),
          save: seconds(tSave - tRecords),
          total: seconds(tSave - t0),
        },
      },
      null,
      2,
    ),
  );
}

function quantiles(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return {
    files: s.length,
    median: q(0.5),
    mean: Math.round(s.reduce((a, b) => a + b, 0) / s.length),
    p90: q(0.9),
    p99: q(0.99),
    max: s[s.length - 1],
  };
}

function plantedSummary(p: Planted, groups: number) {
  const js = p.near.map((n) => n.jaccard).sort((a, b) => a - b);
  return {
    exact: p.exact.length,
    exactWhitespaceOnly: p.exact.filter((e) => e.whitespaceOnly).length,
    near: p.near.length,
    nearJaccard: js.length
      ? { min: js[0], median: js[js.length >> 1], max: js[js.length - 1], below09: js.filter((j) => j < 0.9).length }
      : null,
    crossOrgControls: p.crossOrg.length,
    boilerplateGroups: groups,
    boilerplateExamples: p.boilerplate.reduce((n, g) => n + g.length, 0),
    expected: p.expected,
  };
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
