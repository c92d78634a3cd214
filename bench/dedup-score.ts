// Scores a build's duplicate decisions against the duplicates bench/generate.ts planted (the side
// file beside the corpus). build-time.ts prints it after each build; run alone it scores the latest
// build stored in a corpus, or builds one in memory first when the file holds none:
//   node bench/run.mjs dedup-score --db /tmp/bench-100k.sqlite [--planted <side file>]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runBuild } from '../src/core/build/stages/runBuild';
import { CorpusStore } from '../src/core/ground/store/corpusStore';
import { plantedFileOf, type Planted } from './generateRecords';

export type PlantedFile = Planted & { seed: number; examples: number };

interface Rate {
  planted: number;
  found: number;
  removedUnderRule: number;
  recall: number;
  precision: number;
}

export interface DedupScore {
  exact: Rate;
  near: Rate & { recallByJaccard: Record<string, string> };
  boilerplate: Rate;
  /** Originals of planted pairs that were not kept (each should be). */
  originalsNotKept: number;
  /** Cross-organization copies: both sides must be kept. */
  crossOrg: { pairs: number; bothKept: number };
  /** Examples per rule: what the generator planned against what the build decided. */
  outcomes: Record<string, { expected: number; actual: number }>;
  /** A few keys of each kind of miss, to look at in the inspector. */
  samples: Record<string, string[]>;
}

export function readPlanted(file: string): PlantedFile {
  return JSON.parse(readFileSync(file, 'utf8')) as PlantedFile;
}

export function scoreDedup(store: CorpusStore, buildId: number, planted: PlantedFile): DedupScore {
  const rule = new Map<string, string>();
  store.each('SELECT example_key, rule FROM examples WHERE build_id = ?', [buildId], (r) => {
    rule.set(String(r.example_key), r.rule === null ? 'kept' : String(r.rule));
  });
  const samples: Record<string, string[]> = {};
  const sample = (kind: string, key: string) => {
    const list = (samples[kind] ??= []);
    if (list.length < 5) list.push(`${key} (${rule.get(key) ?? 'no example'})`);
  };
  /** Recall over `dups`; precision over everything the rule removed, against every planted key of its kind. */
  const rate = (ruleId: string, dups: string[], allPlanted = dups): Rate => {
    const plantedSet = new Set(allPlanted);
    let found = 0;
    for (const k of dups) {
      if (rule.get(k) === ruleId) found++;
      else sample(`${ruleId} missed`, k);
    }
    let removed = 0;
    let truePositives = 0;
    for (const [k, r] of rule) {
      if (r !== ruleId) continue;
      removed++;
      if (plantedSet.has(k)) truePositives++;
      else sample(`${ruleId} not planted`, k);
    }
    return {
      planted: dups.length,
      found,
      removedUnderRule: removed,
      recall: ratio(found, dups.length),
      precision: ratio(truePositives, removed),
    };
  };

  const buckets: [string, number, number][] = [
    ['0.90–0.92', 0.9, 0.92],
    ['0.92–0.94', 0.92, 0.94],
    ['0.94–0.96', 0.94, 0.96],
    ['0.96–1', 0.96, 1.01],
  ];
  const recallByJaccard: Record<string, string> = {};
  for (const [name, lo, hi] of buckets) {
    const inBucket = planted.near.filter((n) => n.jaccard >= lo && n.jaccard < hi);
    const found = inBucket.filter((n) => rule.get(n.dup) === 'near_duplicate').length;
    recallByJaccard[name] = `${found}/${inBucket.length}`;
  }
  const nearAtLeast09 = planted.near.filter((n) => n.jaccard >= 0.9).map((n) => n.dup);

  const originals = [
    ...planted.exact.map((e) => e.kept),
    ...planted.near.map((n) => n.kept),
    ...planted.crossOrg.map((c) => c.original),
  ];
  let originalsNotKept = 0;
  for (const k of originals) {
    if (rule.get(k) !== 'kept') {
      originalsNotKept++;
      sample('original not kept', k);
    }
  }
  const bothKept = planted.crossOrg.filter(
    (c) => rule.get(c.original) === 'kept' && rule.get(c.copy) === 'kept',
  ).length;

  const actual: Record<string, number> = {};
  for (const r of rule.values()) actual[r] = (actual[r] ?? 0) + 1;
  const outcomes: DedupScore['outcomes'] = {};
  for (const r of new Set([...Object.keys(planted.expected), ...Object.keys(actual)]))
    outcomes[r] = { expected: planted.expected[r] ?? 0, actual: actual[r] ?? 0 };

  return {
    exact: rate(
      'exact_duplicate',
      planted.exact.map((e) => e.dup),
    ),
    near: {
      ...rate(
        'near_duplicate',
        nearAtLeast09,
        planted.near.map((n) => n.dup),
      ),
      recallByJaccard,
    },
    boilerplate: rate('boilerplate', planted.boilerplate.flat()),
    originalsNotKept,
    crossOrg: { pairs: planted.crossOrg.length, bothKept },
    outcomes,
    samples,
  };
}

function ratio(a: number, b: number): number {
  return b === 0 ? 1 : Math.round((a / b) * 1e5) / 1e5;
}

async function main(): Promise<void> {
  const at = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const db = at('db');
  if (!db)
    throw new Error('usage: node bench/run.mjs dedup-score --db <corpus.sqlite> [--planted <file.planted.json>]');
  const planted = readPlanted(at('planted') ?? plantedFileOf(db));
  const store = await CorpusStore.open(db);
  let buildId = Number(store.scalar('SELECT max(id) FROM builds WHERE finished_at IS NOT NULL') ?? 0);
  if (!buildId) buildId = (await runBuild(store)).buildId; // in memory only; the file is not saved
  console.log(JSON.stringify({ db, buildId, ...scoreDedup(store, buildId, planted) }, null, 2));
  store.close();
}

// Only when run as the bench itself, not when build-time.ts bundles this file.
if (path.basename(process.argv[1] ?? '') === 'dedup-score.js') {
  main().catch((e) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  });
}
