// The dataset card's YAML header, in the Hugging Face Hub's format (hub-docs datasetcard.md and
// "Manual Configuration"): license, language, pretty_name, size_categories, task_categories, tags, and
// `configs` with one split per window whose file holds its examples, plus `dataset_info.splits` with
// each split's example count (what `datasets` checks a download against).
//
// Every string is written as a JSON string, which is a YAML double-quoted scalar, so no value can
// break out of its field or start a new one.
import type { CardConfig } from '../../ground/config/types';
export { splitNames } from '../../ground/config/splitNames';

export type { CardConfig };

export interface CardSplit {
  window: string;
  /** The window's name as a Hub split name. */
  split: string;
  /** The split's file, relative to the card. */
  path: string;
  examples: number;
}

/** The Hub's "License information unavailable" id. */
export const UNKNOWN_LICENSE = 'unknown';

/**
 * The Hub's size_categories value for `n` examples. Its buckets read "n<1K", "1K<n<10K", …; a count
 * on a boundary (exactly 1,000) goes to the bucket above, as the Hub's own tools put it.
 */
export function sizeCategory(n: number): string {
  const steps: [number, string][] = [
    [1e3, 'n<1K'],
    [1e4, '1K<n<10K'],
    [1e5, '10K<n<100K'],
    [1e6, '100K<n<1M'],
    [1e7, '1M<n<10M'],
    [1e8, '10M<n<100M'],
    [1e9, '100M<n<1B'],
    [1e10, '1B<n<10B'],
    [1e11, '10B<n<100B'],
    [1e12, '100B<n<1T'],
  ];
  for (const [below, name] of steps) if (n < below) return name;
  return 'n>1T';
}

const q = (s: string) => JSON.stringify(s);

export function cardHeader(opts: {
  title: string;
  card: CardConfig | undefined;
  splits: readonly CardSplit[];
}): string {
  const { card, splits } = opts;
  const total = splits.reduce((n, s) => n + s.examples, 0);
  const lines = ['---', `pretty_name: ${q(opts.title)}`, `license: ${q(card?.license ?? UNKNOWN_LICENSE)}`];
  if (card?.language?.length) lines.push('language:', ...card.language.map((l) => `- ${q(l)}`));
  lines.push(
    'size_categories:',
    `- ${q(sizeCategory(total))}`,
    'task_categories:',
    `- ${q('text-generation')}`,
    'tags:',
    `- ${q('code')}`,
    `- ${q('code-review')}`,
  );
  // A split with no examples has no file the Hub could read a schema from, so it is left out.
  const listed = splits.filter((s) => s.examples > 0);
  if (listed.length) {
    lines.push('configs:', `- config_name: ${q('default')}`, '  data_files:');
    for (const s of listed) lines.push(`  - split: ${q(s.split)}`, `    path: ${q(s.path)}`);
    lines.push('dataset_info:', '  splits:');
    for (const s of listed) lines.push(`  - name: ${q(s.split)}`, `    num_examples: ${s.examples}`);
  }
  lines.push('---');
  return lines.join('\n') + '\n';
}
