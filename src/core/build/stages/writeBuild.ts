// Writes one build in a single transaction: its builds row, its examples (older builds' examples are
// deleted first, except a tagged build's; their decisions stay, for comparing builds), example_comments,
// and a decision for every unit (a kept example's with its text digest), then the build's published
// records. The corpus hash covers the decisions, the kept examples and those records.
import { createHash } from 'node:crypto';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { abortError } from './abort';
import { commentKey } from './decisionKeys';
import type { CommentRec } from './commentStage';
import type { ExampleRec } from './exampleStage';
import type { ChangeRec } from './loadCorpus';
import type { Evidence } from '../../rules/types';
import { textDigest } from './textDigest';
import { storeBuildRecords } from '../records/buildRecords';

export interface Decision {
  unit: string;
  key: string;
  /** The row the decision is about: changes.id, comments.id, or the example's index + 1 (writeBuild adds the ids tagged builds hold). */
  unitId: number;
  org: string;
  window: string | null;
  stage: string;
  rule: string;
  /** The removing rule's evidence as JSON (decisions.evidence); null: kept, or the rule gives none. */
  evidence: string | null;
}

const evidenceJson = (e: Evidence | undefined): string | null => (e ? JSON.stringify(e) : null);

const byKey = (x: Decision, y: Decision) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0);

/**
 * A decision for every unit of the build (kept ones with rule 'kept'), sorted by (unit, key): the
 * decisions table's primary-key order, which makes inserting them several times faster.
 */
export function buildDecisions(
  changes: readonly ChangeRec[],
  comments: readonly CommentRec[],
  examples: readonly ExampleRec[],
): Decision[] {
  const changeDecisions = changes.map((c): Decision => ({
    unit: 'changes',
    key: `${c.org}/${c.number}`,
    unitId: c.id,
    org: c.org,
    window: c.window?.name ?? null,
    stage: 'collection',
    rule: c.removal?.rule ?? 'kept',
    evidence: evidenceJson(c.removal?.evidence),
  }));
  const commentDecisions = comments.map((c): Decision => {
    const ch = c.change;
    return {
      unit: 'comments',
      key: commentKey(ch.org, ch.number, c.gerritId),
      unitId: c.id,
      org: ch.org,
      window: ch.window?.name ?? null,
      stage: 'comments',
      rule: c.removal?.rule ?? 'kept',
      evidence: evidenceJson(c.removal?.evidence),
    };
  });
  const exampleDecisions = examples.map((e, i): Decision => ({
    unit: e.unit,
    key: e.key,
    unitId: i + 1,
    org: e.change.org,
    window: e.window,
    stage: e.stage,
    rule: e.rule ?? 'kept',
    evidence: evidenceJson(e.evidence),
  }));
  return [
    ...changeDecisions.sort(byKey),
    ...commentDecisions.sort(byKey),
    ...exampleDecisions.filter((d) => d.unit === 'examples').sort(byKey),
    ...exampleDecisions.filter((d) => d.unit === 'hunks').sort(byKey),
  ];
}

// Free text is length-prefixed rather than escaped: unambiguous, and cheap on 100k texts.
const text = (s: string | null) => (s === null ? '-' : `${s.length}:${s}`);

/**
 * The corpus hash, fed while the build is written: SHA-256 over every decision (in key order, the
 * order they are written in) and then every kept example (key, window, path, language, patch sets,
 * starts, texts, attached comments) in key order. Each kept example is digested from the UTF-8 bytes
 * already encoded for its row, so its text is hashed once and not copied again. The same stored
 * records and rules give the same hash whatever order the rows were stored in, and whichever build
 * id or time.
 */
export class CorpusHasher {
  private readonly decisions = createHash('sha256');
  private chunk: string[] = [];
  private readonly examples: { key: string; digest: Buffer }[] = [];
  private records: string | undefined;

  /** Decisions must come in key order (buildDecisions' order). */
  addDecision(d: Decision): void {
    // Evidence is hashed only where a rule gives it, so a build without any hashes as it did before.
    const evidence = d.evidence === null ? '' : `\t${text(d.evidence)}`;
    this.chunk.push(`D\t${d.unit}\t${text(d.key)}\t${d.org}\t${text(d.window)}\t${d.stage}\t${d.rule}${evidence}\n`);
    if (this.chunk.length >= 4096) this.flush();
  }

  /** A kept example, with its before and after texts as UTF-8; any order. */
  addKeptExample(e: ExampleRec, before: Uint8Array, after: Uint8Array): void {
    const comments = e.comments.map((c) => c.gerritId).sort();
    const h = createHash('sha256');
    h.update(
      `E\t${text(e.key)}\t${text(e.window)}\t${text(e.path)}\t${e.language}\t${e.psBefore}\t${e.psBefore + 1}\t${e.beforeStart}\t${e.afterStart}\t` +
        `${comments.length}\t${comments.map(text).join('\t')}\t${rebaseField(e)}${before.length}:`,
    );
    h.update(before);
    h.update(`\t${after.length}:`);
    h.update(after);
    this.examples.push({ key: e.key, digest: h.digest() });
  }

  /** The manifest of the build's published records (build/records/buildRecords.ts): every byte an export writes. */
  addRecords(manifest: string, flagDecisions: string): void {
    this.records = `${manifest}\t${flagDecisions}`;
  }

  digest(): string {
    this.flush();
    const all = createHash('sha256').update(this.decisions.digest());
    if (this.records !== undefined) all.update(`R\t${this.records}\t`);
    this.examples.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
    for (const { key, digest } of this.examples) all.update(`${text(key)}\t`).update(digest);
    return all.digest('hex');
  }

  private flush(): void {
    this.decisions.update(this.chunk.join(''));
    this.chunk = [];
  }
}

/** Present only when the example holds rebase edits, so the hash of a corpus without any is what it was. */
const rebaseField = (e: ExampleRec) => (e.rebaseEditedLines > 0 ? `R${e.rebaseEditedLines}\t` : '');

export interface BuildHeader {
  configHash: string;
  rulesVersion: string;
  startedAt: string;
  /** The build's full effective config as stored (builds.config): what verify rebuilds it with. */
  config: string;
}

const utf8 = new TextEncoder();

/**
 * UTF-8 bytes of a text in a scratch buffer reused from row to row: sql.js copies bound bytes at once and
 * the hasher digests them at once, and a fresh buffer per text was 150 MB of new memory for 100k examples.
 * The bytes are valid until the next `encode` on the same scratch.
 */
class Utf8Scratch {
  private bytes = new Uint8Array(1 << 16);

  encode(text: string): Uint8Array {
    // UTF-8 takes at most three bytes per UTF-16 code unit.
    if (this.bytes.length < 3 * text.length) this.bytes = new Uint8Array(3 * text.length);
    return this.bytes.subarray(0, utf8.encodeInto(text, this.bytes).written);
  }
}

/**
 * Inserts the build and returns its id. `finish` receives the id and returns the row's last fields
 * (hash, finish time, funnel JSON). Everything rolls back if anything throws, an abort included.
 * Texts are bound as UTF-8 bytes and cast back to TEXT (same bytes, half sql.js's binding cost);
 * the rollback journal is kept in memory for the transaction (sql.js keeps its files in memory anyway,
 * and growing a journal file there copies it over and over).
 */
export function writeBuild(
  store: CorpusStore,
  header: BuildHeader,
  decisions: readonly Decision[],
  examples: readonly ExampleRec[],
  signal: AbortSignal | undefined,
  finish: (buildId: number, corpusHash: string) => { finishedAt: string; funnel: string },
  /** Runs once the build's rows are written, before its published records are read (the flags they carry). */
  beforeRecords: (buildId: number) => void = () => {},
): number {
  const journal = String(store.scalar('PRAGMA journal_mode'));
  store.exec('PRAGMA journal_mode = MEMORY');
  try {
    return store.transaction(() => {
      const buildId = store.insert(
        'INSERT INTO builds(config_hash, rules_version, started_at, config) VALUES (?, ?, ?, ?)',
        [header.configHash, header.rulesVersion, header.startedAt, header.config],
      );
      const firstId = pruneExamples(store);
      const check = (i: number) => {
        if ((i & 4095) === 0 && signal?.aborted) throw abortError();
      };
      const hasher = new CorpusHasher();
      const textDigests = insertExamples(store, buildId, firstId, examples, hasher, check);
      insertDecisions(store, buildId, firstId, decisions, textDigests, hasher, check);
      beforeRecords(buildId);
      // The flag decisions the build read (build/flags/flagDecisions.ts) are one of its recorded inputs.
      const flags = store.scalar('SELECT flag_decisions_sha256 FROM builds WHERE id = ?', [buildId]);
      hasher.addRecords(storeBuildRecords(store, buildId), typeof flags === 'string' ? flags : '');
      const corpusHash = hasher.digest();
      const last = finish(buildId, corpusHash);
      store.run('UPDATE builds SET corpus_hash = ?, finished_at = ?, funnel = ? WHERE id = ?', [
        corpusHash,
        last.finishedAt,
        last.funnel,
        buildId,
      ]);
      return buildId;
    });
  } finally {
    store.exec(`PRAGMA journal_mode = ${/^[a-z]+$/i.test(journal) ? journal : 'DELETE'}`);
  }
}

/** Deletes the examples of earlier builds no tag keeps; returns the id this build's examples follow. */
function pruneExamples(store: CorpusStore): number {
  // A tagged build's examples stand as its record (versions/tags.ts): only the others are pruned.
  // This build's ids follow the kept ones, so a corpus without tags numbers from 1 as before.
  const tagged = store.get('SELECT 1 AS x FROM build_tags LIMIT 1') !== undefined;
  if (tagged) {
    store.run(
      'DELETE FROM example_comments WHERE example_id IN (SELECT id FROM examples WHERE build_id NOT IN (SELECT build_id FROM build_tags))',
    );
    store.run('DELETE FROM examples WHERE build_id NOT IN (SELECT build_id FROM build_tags)');
  } else {
    store.run('DELETE FROM example_comments');
    store.run('DELETE FROM examples');
  }
  return tagged ? Number(store.scalar('SELECT coalesce(max(id), 0) FROM examples')) : 0;
}

/** Inserts the examples and their comment links; returns each kept example's text digest, by index. */
function insertExamples(
  store: CorpusStore,
  buildId: number,
  firstId: number,
  examples: readonly ExampleRec[],
  hasher: CorpusHasher,
  check: (i: number) => void,
): (string | undefined)[] {
  const textDigests: (string | undefined)[] = [];
  const insertExample =
    store.prepare(`INSERT INTO examples(id, build_id, example_key, change_id, path, language, ps_before, ps_after,
    before_start, after_start, before_text, after_text, window, half, unit, rule, rebase_edited_lines)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT), CAST(? AS TEXT), ?, ?, ?, ?, ?)`);
  const insertLink = store.prepare('INSERT OR IGNORE INTO example_comments(example_id, comment_id) VALUES (?, ?)');
  const beforeBytes = new Utf8Scratch();
  const afterBytes = new Utf8Scratch();
  examples.forEach((e, i) => {
    check(i);
    const id = firstId + i + 1;
    const before = beforeBytes.encode(e.beforeText);
    const after = afterBytes.encode(e.afterText);
    insertExample.run([
      id,
      buildId,
      e.key,
      e.change.id,
      e.path,
      e.language,
      e.psBefore,
      e.psBefore + 1,
      e.beforeStart,
      e.afterStart,
      before,
      after,
      e.window,
      e.half ?? null,
      e.unit,
      e.rule,
      e.rebaseEditedLines,
    ]);
    for (const c of e.comments) insertLink.run([id, c.id]);
    if (e.rule === null) {
      hasher.addKeptExample(e, before, after);
      textDigests[i] = textDigest(before, after);
    }
  });
  return textDigests;
}

/** Inserts the decisions, an example's with its id in this build and its text digest. */
function insertDecisions(
  store: CorpusStore,
  buildId: number,
  firstId: number,
  decisions: readonly Decision[],
  textDigests: readonly (string | undefined)[],
  hasher: CorpusHasher,
  check: (i: number) => void,
): void {
  const insertDecision =
    store.prepare(`INSERT INTO decisions(build_id, unit, unit_key, unit_id, org, window, stage, rule, evidence, text_sha256)
    VALUES (${buildId}, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  decisions.forEach((d, i) => {
    check(i);
    const isExample = d.unit === 'examples' || d.unit === 'hunks';
    insertDecision.run([
      d.unit,
      d.key,
      isExample ? firstId + d.unitId : d.unitId,
      d.org,
      d.window,
      d.stage,
      d.rule,
      d.evidence,
      isExample ? (textDigests[d.unitId - 1] ?? null) : null,
    ]);
    hasher.addDecision(d);
  });
}
