// The Hub export's dataset card: the JSONL export's card (datasetCard.ts, or the one a tag froze) with
// its front matter's `configs` and `dataset_info` made for the Parquet shards (data_files globs per
// split, the features, the split sizes) and its "Files" section replaced by the shards and the other
// files with their SHA-256, and how to load them. Everything else, every count and word, is the
// JSONL card's, so both exports of a build say the same thing.
//
// The JSONL card's header is our own output (cardHeader.ts): `configs:` and `dataset_info:` come last,
// so everything above them (title, license, language, size, task, tags) is kept as it is.
import { mdCode, mdHeader, mdRow } from '../../../ground/text/markdown';
import { UserError } from '../../../ground/store/errors';
import { featureYaml, type HubFeature } from './hubColumns';
import { ROW_GROUP_ROWS } from './parquetShards';

export interface HubShard {
  /** Relative to the card, "/" separated. */
  path: string;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface HubSplit {
  split: string;
  /** The window it holds; undefined where only the split's name is known (a tag's frozen files). */
  window?: string;
  rows: number;
  shards: HubShard[];
  /** The `data_files` glob that matches exactly this split's shards. */
  glob: string;
}

export interface HubFile {
  path: string;
  bytes: number;
  sha256: string;
}

export interface HubCardInput {
  splits: readonly HubSplit[];
  features: readonly HubFeature[];
  /** counts.csv, curation_audit.jsonl, dataset-funnel.json, the label audits: what else is in the folder. */
  files: readonly HubFile[];
  /** Kept examples in no window: in the JSONL export's examples.jsonl only. */
  outsideWindows: number;
}

const q = (s: string) => JSON.stringify(s);

/** The heading of the JSONL card's files table, which the Hub card replaces. */
const FILES_HEADING = '## Files';

export function hubCard(jsonlCard: string, input: HubCardInput): string {
  const m = /^---\n([\s\S]*?\n)---\n/.exec(jsonlCard);
  if (!m) throw new UserError('the dataset card has no YAML front matter to build the Hub card from');
  const kept = m[1].split('\n').filter((l) => l !== '');
  const cut = kept.findIndex((l) => l.startsWith('configs:') || l.startsWith('dataset_info:'));
  const header = [...(cut < 0 ? kept : kept.slice(0, cut)), ...hubYaml(input)];
  const body = replaceFiles(jsonlCard.slice(m[0].length), filesSection(input));
  return `---\n${header.join('\n')}\n---\n${body}`;
}

function hubYaml(input: HubCardInput): string[] {
  const listed = input.splits.filter((s) => s.rows > 0);
  const lines = ['configs:', `- config_name: ${q('default')}`, '  data_files:'];
  for (const s of listed) lines.push(`  - split: ${q(s.split)}`, `    path: ${q(s.glob)}`);
  lines.push('dataset_info:', '  features:', ...featureYaml(input.features, '  '), '  splits:');
  // No num_bytes: `datasets` reads it as the split's size in memory (Arrow), which only a reader knows.
  for (const s of listed) lines.push(`  - name: ${q(s.split)}`, `    num_examples: ${s.rows}`);
  // The shards' bytes: what `datasets` calls the download size.
  const total = listed.reduce((n, s) => n + s.shards.reduce((b, x) => b + x.bytes, 0), 0);
  lines.push(`  download_size: ${total}`);
  return lines;
}

function replaceFiles(body: string, section: string[]): string {
  const start = body.indexOf(`\n${FILES_HEADING}\n`);
  if (start < 0)
    throw new UserError(`the dataset card has no "${FILES_HEADING}" section to list the Parquet shards in`);
  const next = body.indexOf('\n## ', start + 1);
  return body.slice(0, start + 1) + section.join('\n') + '\n' + (next < 0 ? '' : body.slice(next + 1));
}

function filesSection(input: HubCardInput): string[] {
  const n = (x: number) => x.toLocaleString('en-US');
  const rows: string[] = [];
  for (const s of input.splits)
    for (const shard of s.shards)
      rows.push(
        mdRow([
          mdCode(shard.path, { inTable: true }),
          `split ${mdCode(s.split, { inTable: true })}${s.window === undefined ? '' : `: the kept examples of window ${mdCode(s.window, { inTable: true })}`}`,
          n(shard.rows),
          n(shard.bytes),
          `\`${shard.sha256}\``,
        ]),
      );
  for (const f of input.files)
    rows.push(mdRow([mdCode(f.path, { inTable: true }), fileWhat(f.path), '', n(f.bytes), `\`${f.sha256}\``]));
  const outside = input.outsideWindows
    ? [
        `${n(input.outsideWindows)} kept examples fall outside every window: they belong to no split and are not in this folder (the JSONL export, \`review-corpus export --out examples.jsonl\`, writes them in \`examples.jsonl\`, which the sections below name).`,
        '',
      ]
    : [];
  return [
    FILES_HEADING,
    '',
    `Parquet shards, one split per window (snappy-compressed, row groups of at most ${ROW_GROUP_ROWS.toLocaleString('en-US')} rows), written by \`review-corpus export --format hub\`; each row is one record with the fields below, and a field a JSON line of the JSONL export leaves out reads as null. Beside them, the build's reports. The SHA-256 of each file is given so that a published file can be cited and checked.`,
    '',
    ...outside,
    ...mdHeader(['file', 'what it holds', 'rows', 'bytes', 'SHA-256'], new Set([2, 3])),
    ...rows,
    '',
    ...loadingSection(input.splits.find((s) => s.rows > 0)),
  ];
}

/** How to read the folder with `datasets`, pandas and DuckDB; split names are `\w+(\.\w+)*`, safe in any quotes. */
function loadingSection(first: HubSplit | undefined): string[] {
  const split = first?.split ?? 'train';
  const glob = first?.glob ?? 'data/train-*.parquet';
  return [
    '## Loading',
    '',
    "With `datasets` (this card's `configs` name each split's files), pandas or DuckDB:",
    '',
    '```python',
    'from datasets import load_dataset',
    `ds = load_dataset("path/to/this/folder")  # or the Hub repository's id; ds["${split}"] is one split`,
    '',
    'import glob, pandas as pd',
    `df = pd.concat(pd.read_parquet(f) for f in sorted(glob.glob("${glob}")))`,
    '```',
    '',
    '```sql',
    `SELECT id, comments[1].message, source.change_url FROM read_parquet('${glob}');`,
    '```',
    '',
  ];
}

/** What a file beside the shards holds, by its name (the JSONL card's wording). */
function fileWhat(file: string): string {
  if (file === 'counts.csv')
    return 'per organization and rule: input, removed and remaining units, and why a removed count is empty or partial';
  if (file === 'curation_audit.jsonl') return 'one line per removed unit with its rule and evidence';
  if (file === 'dataset-funnel.json') return 'the funnel per organization and window, with its counters';
  if (/^label-audit-.*\.json$/.test(file)) return 'the label audit of one organization';
  return 'written by the export';
}
