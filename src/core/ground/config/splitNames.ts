// The split each window's examples are published under (the JSONL export's data/<split>.jsonl, the Hub
// export's Parquet shards, the card's splits): here, beside the config that maps them, so loadConfig
// can refuse a mapping that collides and the exports name splits the same way.
import { DEFAULT_SPLIT_NAMES } from './types';

/**
 * Each window's split name: the one `mapping` (corpus.json's `card.splits`; absent: DEFAULT_SPLIT_NAMES)
 * gives it, else the window's own name with every character `datasets` refuses as "_"; made unique
 * with a numeric suffix (loadConfig refuses a mapping that makes two of the config's windows one split).
 */
export function splitNames(
  windows: readonly string[],
  mapping: Readonly<Record<string, string>> = DEFAULT_SPLIT_NAMES,
): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const w of windows) {
    const base = splitBase(w, mapping);
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
    taken.add(name);
    out.set(w, name);
  }
  return out;
}

function splitBase(window: string, mapping: Readonly<Record<string, string>>): string {
  if (Object.hasOwn(mapping, window)) return mapping[window];
  return window
    .split('.')
    .map((part) => part.replace(/[^A-Za-z0-9_]/g, '_') || '_')
    .join('.');
}

/** Two windows that `mapping` would publish as one split, with that split; undefined when none. */
export function splitCollision(
  windows: readonly string[],
  mapping: Readonly<Record<string, string>> = DEFAULT_SPLIT_NAMES,
): { first: string; second: string; split: string } | undefined {
  const seen = new Map<string, string>();
  for (const w of windows) {
    const split = splitBase(w, mapping);
    const first = seen.get(split);
    if (first !== undefined) return { first, second: w, split };
    seen.set(split, w);
  }
  return undefined;
}
