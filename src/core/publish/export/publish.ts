// What `export` writes beside the JSONL and dataset-funnel.json, so the folder can be published as it
// stands: one JSONL per window under data/ (the card's splits: the Hub reads a split from its own
// files), counts.csv, curation_audit.jsonl and README.md, the dataset card. Each file is written
// atomically; all of them are read from the same build.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { storedFunnel } from '../../build/reports/storedFunnel';
import { recordedConfig, storedConfig } from '../../build/stages/loadCorpus';
import { recordsStored } from '../../build/records/buildRecords';
import { publicHost } from '../../build/records/source';
import { tagNamesByBuild } from '../versions/tags';
import type { CorpusConfig } from '../../ground/config/types';
import { storedWindows } from '../../ground/config/windows';
import { labelReport } from '../../review/labels/labels';
import { qualityAgreementInput, qualityRaterAgreement } from '../../review/quality/qualityRaterAgreement';
import { labelAudit } from '../../review/labels/labelAudit';
import { writeLabelAudits } from './labelAuditFiles';
import { saveAtomically, saveLinesAtomically } from '../../ground/store/atomicSave';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { splitNames, type CardConfig, type CardSplit } from './cardHeader';
import { countRows, countsCsv, decisionTotals } from './counts';
import { curationAudit } from './curationAudit';
import { datasetCard } from './datasetCard';

export const COUNTS_FILE = 'counts.csv';
export const AUDIT_FILE = 'curation_audit.jsonl';
export const CARD_FILE = 'README.md';
export const SPLITS_DIR = 'data';

export interface PublishOptions {
  /** The config whose `card` the dataset card reads (the corpus.json in use); absent: the config stored with the build. */
  config?: CorpusConfig;
  /** Write data/<split>.jsonl (default true); the Hub export writes its own Parquet shards instead. */
  splitFiles?: boolean;
  /** Rewrites the card before it is written, given the files written so far (the Hub export's front matter and files). */
  cardText?: (text: string, written: readonly string[]) => string;
}

export interface Published {
  /** Every file written, in the order written. */
  files: string[];
  splits: CardSplit[];
  auditLines: number;
  /** One line each, for the caller to show once (a card without a license). */
  warnings: string[];
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');

/**
 * The build's splits: one per window it has, sealed ones excepted (nothing of theirs is built), in the
 * funnel's order, each named by the card's `splits` mapping (ground/config/splitNames.ts).
 */
export function publishedSplits(
  store: CorpusStore,
  buildId: number,
  card: CardConfig | undefined,
): { window: string; split: string }[] {
  const funnel = storedFunnel(store, buildId);
  const windowNames = [
    ...new Set(
      Object.values(funnel.organizations).flatMap((o) =>
        Object.entries(o.windows)
          .filter(([, w]) => !w.sealed)
          .map(([name]) => name),
      ),
    ),
  ];
  const names = splitNames(windowNames, card?.splits);
  return windowNames.map((window) => ({ window, split: names.get(window)! }));
}

/**
 * Writes the split files, counts.csv, curation_audit.jsonl and README.md into `dir`. `examples` are
 * the exported examples' windows and their JSON lines, in export order (the lines only where
 * `splitFiles` is on: the card's split sizes need the windows alone).
 */
export function writePublishables(
  store: CorpusStore,
  buildId: number,
  dir: string,
  examplesFile: string,
  examples: readonly { window: string | null; line?: string }[],
  opts: PublishOptions = {},
): Published {
  const funnel = storedFunnel(store, buildId);
  const built = recordedConfig(store, buildId) ?? storedConfig(store);
  const card: CardConfig | undefined = (opts.config ?? built).card;
  const splitFiles = opts.splitFiles ?? true;
  const files: string[] = [];
  const write = (file: string, text: string) => {
    saveAtomically(file, utf8(text));
    files.push(file);
  };

  const splits = writeSplitFiles(store, buildId, dir, card, examples, splitFiles, files);

  const counts = countRows(funnel, decisionTotals(store, buildId));
  write(path.join(dir, COUNTS_FILE), countsCsv(counts));
  const audit = curationAudit(store, buildId);
  write(path.join(dir, AUDIT_FILE), audit.text);
  // label-audit-<org>.json beside them, from the current audit sample compared with this build.
  const labels = labelAudit(store, buildId);
  files.push(...writeLabelAudits(store, buildId, dir, labels));

  const b = store.get<{
    config_hash: string;
    rules_version: string;
    corpus_hash: string | null;
    finished_at: string | null;
  }>('SELECT config_hash, rules_version, corpus_hash, finished_at FROM builds WHERE id = ?', [buildId])!;
  const projects = projectsByOrg(store, buildId);
  const text = datasetCard({
    title: card?.prettyName ?? built.name,
    card,
    funnel,
    counts,
    build: {
      id: buildId,
      configHash: b.config_hash,
      rulesVersion: b.rules_version,
      corpusHash: b.corpus_hash,
      finishedAt: b.finished_at,
      recordsStored: recordsStored(store, buildId),
      configRecorded: recordedConfig(store, buildId) !== undefined,
      tags: tagNamesByBuild(store).get(buildId) ?? [],
    },
    start: built.start,
    rules: built.rules,
    windows: storedWindows(store),
    splits,
    labels: labelReport(store),
    labelAudit: labels,
    qualityAgreement: qualityRaterAgreement(qualityAgreementInput(store, buildId)),
    // Without a user name or password a URL in corpus.json could carry, as the records' source has it.
    hosts: store
      .all<{ org: string; url: string }>('SELECT org, url FROM hosts ORDER BY org')
      .map((h) => ({ org: h.org, url: publicHost(h.url) })),
    projects,
    auditLines: audit.lines,
    files: { examples: examplesFile, funnel: 'dataset-funnel.json', counts: COUNTS_FILE, audit: AUDIT_FILE },
  });
  write(path.join(dir, CARD_FILE), opts.cardText ? opts.cardText(text, files) : text);

  const warnings = card?.license
    ? []
    : [
        `the dataset card says "license: unknown": ${opts.config ? 'the config' : 'the config stored with the build'} sets no card.license`,
      ];
  return { files, splits, auditLines: audit.lines, warnings };
}

/** Writes each published split's JSON lines (when `splitFiles`) and returns the card's splits. */
function writeSplitFiles(
  store: CorpusStore,
  buildId: number,
  dir: string,
  card: CardConfig | undefined,
  examples: readonly { window: string | null; line?: string }[],
  splitFiles: boolean,
  files: string[],
): CardSplit[] {
  const names = publishedSplits(store, buildId, card);
  const splits: CardSplit[] = [];
  if (names.length && splitFiles) mkdirSync(path.join(dir, SPLITS_DIR), { recursive: true });
  for (const { window, split } of names) {
    const rel = `${SPLITS_DIR}/${split}.jsonl`;
    const of = examples.filter((e) => e.window === window);
    if (splitFiles) {
      const file = path.join(dir, SPLITS_DIR, `${split}.jsonl`);
      saveLinesAtomically(
        file,
        of.map((e) => e.line!),
      );
      files.push(file);
    }
    splits.push({ window, split, path: rel, examples: of.length });
  }
  return splits;
}

/** The kept examples per project, most first, per organization. */
function projectsByOrg(store: CorpusStore, buildId: number): Map<string, { project: string; examples: number }[]> {
  const projects = new Map<string, { project: string; examples: number }[]>();
  store.each(
    `SELECT h.org, c.project, count(*) AS n FROM examples e JOIN changes c ON c.id = e.change_id JOIN hosts h ON h.id = c.host_id
     WHERE e.build_id = ? AND e.rule IS NULL GROUP BY h.org, c.project ORDER BY h.org, n DESC, c.project`,
    [buildId],
    (r) =>
      projects.set(String(r.org), [
        ...(projects.get(String(r.org)) ?? []),
        { project: String(r.project), examples: Number(r.n) },
      ]),
  );
  return projects;
}
