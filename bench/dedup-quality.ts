// Quality and speed benchmark for src/core/rules/dedup: a deterministic synthetic organization of N examples
// (code-like hunks of 5–40 lines) with planted duplicates of every kind and known Jaccard.
//   npx esbuild bench/dedup-quality.ts --bundle --platform=node --outfile=out/bench/dedup-quality.js && node out/bench/dedup-quality.js [--n 100000] [--bands 11 --rows 11] [--runs 3] [--cluster 0]
import {
  findDuplicates,
  type DedupCandidate,
  type DedupParams,
  type DuplicateDecision,
} from '../src/core/rules/dedup/index';
import { DEFAULT_RULES } from '../src/core/rules/ruleParameters';
import * as os from 'node:os';

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const N = arg('n', 100_000);
const RUNS = arg('runs', 3);
const CLUSTER = arg('cluster', 0); // extra examples that are pairwise similar but below the threshold (worst case for LSH)
const params: DedupParams = {
  nearDuplicateJaccard: DEFAULT_RULES.nearDuplicateJaccard,
  minhashPermutations: DEFAULT_RULES.minhashPermutations,
  lshBands: arg('bands', DEFAULT_RULES.lshBands),
  lshRows: arg('rows', DEFAULT_RULES.lshRows),
  shingleTokens: DEFAULT_RULES.shingleTokens,
  boilerplateMinChanges: DEFAULT_RULES.boilerplateMinChanges,
};

// ---- deterministic generator -------------------------------------------------------------------
let seed = 0x1234_5678;
function rand(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
}
const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

const SYLLABLES = [
  'get',
  'set',
  'user',
  'id',
  'map',
  'list',
  'count',
  'node',
  'val',
  'buf',
  'ctx',
  'req',
  'res',
  'item',
  'key',
  'path',
  'size',
  'err',
  'data',
  'init',
  'read',
  'write',
  'parse',
  'index',
  'name',
  'type',
  'opt',
  'cfg',
  'row',
  'col',
];
const IDENTS = Array.from({ length: 20_000 }, () => {
  const parts = Array.from({ length: int(1, 3) }, () => pick(SYLLABLES));
  return (
    parts.map((p, i) => (i === 0 ? p : p[0].toUpperCase() + p.slice(1))).join('') + (rand() < 0.3 ? int(0, 99) : '')
  );
});
const TYPES = [
  'int',
  'String',
  'boolean',
  'long',
  'List<String>',
  'Map<String, Integer>',
  'auto',
  'const char*',
  'var',
  'final',
];
const id = (): string => pick(IDENTS);
const LINES: (() => string)[] = [
  () => `${pick(TYPES)} ${id()} = ${id()}(${id()}, ${int(0, 999)});`,
  () => `if (${id()} ${pick(['==', '!=', '<', '>=', '&&'])} ${id()}) {`,
  () => `return ${id()}.${id()}(${id()});`,
  () => `${id()}.${id()}(${id()}, "${id()} ${id()}");`,
  () => `for (${pick(TYPES)} ${id()} : ${id()}.${id()}()) {`,
  () => `}`,
  () => `// ${id()} ${id()} ${id()} ${id()} before ${id()}`,
  () => `${id()} += ${id()} * ${int(1, 64)};`,
  () => `throw new ${id()}Exception("${id()} ${id()}");`,
];
const line = (): string => ' '.repeat(4 * int(0, 3)) + pick(LINES)();
const lines = (count: number): string[] => Array.from({ length: count }, line);

/** A review edit: change, insert or delete a few lines of the before side. */
function revise(before: string[]): string[] {
  const after = [...before];
  for (let e = int(1, 3); e > 0; e--) {
    const at = int(0, after.length - 1);
    const kind = rand();
    if (kind < 0.6) after[at] = line();
    else if (kind < 0.8) after.splice(at, 0, line());
    else if (after.length > 2) after.splice(at, 1);
  }
  return after;
}

/** The same hunk with different whitespace: trailing blanks, CRLF, wider indentation. */
const reformat = (text: string): string =>
  text
    .split('\n')
    .map((l) => l.replace(/^ +/, (s) => s + s) + (rand() < 0.3 ? ' \t' : ''))
    .join('\r\n');

/** Replaces `edits` random tokens, spread over both sides. */
function perturb(before: string, after: string, edits: number): [string, string] {
  const sides = [before.split(/(\s+)/), after.split(/(\s+)/)]; // odd entries are the separators
  for (let e = 0; e < edits; e++) {
    const side = sides[rand() < 0.5 ? 0 : 1];
    let at = 2 * int(0, (side.length - 1) / 2);
    while (side[at] === '') at = (at + 2) % (side.length + 1); // split with a capture: odd length
    side[at] = id() + 'X';
  }
  return [sides[0].join(''), sides[1].join('')];
}

/** Independent reference: shingle-string sets over the whitespace tokens. */
function shingles(before: string, after: string): Set<string> {
  const t = `${before}\n${after}`.split(/\s+/).filter(Boolean);
  const k = Math.min(params.shingleTokens, t.length);
  const out = new Set<string>();
  for (let i = 0; i + k <= t.length && t.length > 0; i++) out.add(t.slice(i, i + k).join(' '));
  return out;
}
function jaccard(a: DedupCandidate, b: DedupCandidate): number {
  const x = shingles(a.before, a.after);
  const y = shingles(b.before, b.after);
  let shared = 0;
  for (const s of x) if (y.has(s)) shared++;
  return shared / (x.size + y.size - shared);
}

type Plant = { kind: 'exact' | 'near' | 'same_change' | 'boilerplate'; of?: number; j?: number };
const candidates: DedupCandidate[] = [];
const planted = new Map<number, Plant>();
let changeNumber = 10_000;
const dayMs = 86_400_000;
const start = Date.parse('2024-10-01T00:00:00Z');
function add(before: string, after: string, plant?: Plant, changeId?: string, number?: number): number {
  const n = number ?? changeNumber++;
  const created = new Date(start + (n - 10_000) * ((400 * dayMs) / N)).toISOString();
  candidates.push({
    key: `ex-${candidates.length}`,
    changeId: changeId ?? `I${n.toString(16).padStart(40, '0')}`,
    changeNumber: n,
    created,
    before,
    after,
  });
  if (plant) planted.set(candidates.length - 1, plant);
  return candidates.length - 1;
}

const LICENCE = [
  '/*',
  ' * Copyright (C) 2024 The Example Project',
  ' * Licensed under the Apache License, Version 2.0',
  ' */',
].join('\n');
const nExact = Math.round(N * 0.05),
  nNear = Math.round(N * 0.08),
  nSame = Math.round(N * 0.01),
  nBoiler = Math.round(N * 0.005);
const nBase = N - nExact - nNear - nSame - nBoiler - CLUSTER;
for (let b = 0; b < nBase; b++) {
  const before = lines(int(5, 40));
  add(before.join('\n'), revise(before).join('\n'));
}
for (let e = 0; e < nExact; e++) {
  const of = int(0, nBase - 1);
  add(reformat(candidates[of].before), reformat(candidates[of].after), { kind: 'exact', of });
}
for (let e = 0; e < nNear; e++) {
  const of = int(0, nBase - 1);
  const base = candidates[of];
  const size = shingles(base.before, base.after).size;
  const target = 0.8 + 0.2 * rand();
  const edits = Math.max(1, Math.round((size * (1 - target)) / (params.shingleTokens * (1 + target))));
  const [before, after] = perturb(base.before, base.after, edits);
  const i = add(before, after, { kind: 'near', of });
  planted.get(i)!.j = jaccard(candidates[i], base);
}
for (let e = 0; e < nSame; e++) {
  const of = int(0, nBase - 1);
  // The cherry-pick of a change under a new number, carrying a different hunk.
  const before = lines(int(5, 40));
  add(before.join('\n'), revise(before).join('\n'), { kind: 'same_change', of }, candidates[of].changeId!);
}
for (let e = 0; e < nBoiler; e++) add(LICENCE, LICENCE.replace('2024', String(2025 + e)), { kind: 'boilerplate' });
// Worst case for LSH: a family whose members are pairwise just below the threshold (three token edits
// each: J ≈ 0.8), so most pairs are proposed by LSH and rejected by exact Jaccard, and most members stay kept.
const clusterBefore = lines(30);
const clusterBase = { before: clusterBefore.join('\n'), after: revise(clusterBefore).join('\n') };
for (let e = 0; e < CLUSTER; e++) add(...perturb(clusterBase.before, clusterBase.after, 3));
// Input order must not matter: shuffle deterministically.
const shuffledOrder = candidates.map((_, i) => i);
for (let i = shuffledOrder.length - 1; i > 0; i--) {
  const j = int(0, i);
  [shuffledOrder[i], shuffledOrder[j]] = [shuffledOrder[j], shuffledOrder[i]];
}
const input = shuffledOrder.map((i) => candidates[i]);

// ---- run ---------------------------------------------------------------------------------------
const rssBefore = process.memoryUsage().rss;
const times: number[] = [];
const cpuTimes: number[] = [];
let result = new Map<number, DuplicateDecision>();
for (let r = 0; r < RUNS; r++) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  result = findDuplicates(input, params);
  times.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpuTimes.push((c.user + c.system) / 1000);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const byOriginal = new Map<number, DuplicateDecision>();
for (const [i, d] of result) byOriginal.set(shuffledOrder[i], d);

// ---- evaluate ----------------------------------------------------------------------------------
const keyIndex = new Map(candidates.map((c, i) => [c.key, i]));
const pct = (x: number): string => (100 * x).toFixed(2) + '%';
const counts: Record<string, number> = {};
for (const d of byOriginal.values()) counts[d.rule] = (counts[d.rule] ?? 0) + 1;

const exactPlants = [...planted].filter(([, p]) => p.kind === 'exact');
const exactFound = exactPlants.filter(([i]) => byOriginal.get(i)?.rule === 'exact_duplicate').length;
const nearPlants = [...planted].filter(([, p]) => p.kind === 'near');
const buckets = [0.8, 0.825, 0.85, 0.875, 0.9, 0.925, 0.95, 0.975, 1.0001];
console.log(`N=${candidates.length} params=${JSON.stringify(params)} cluster=${CLUSTER}`);
console.log(`wall ms: ${times.map((t) => t.toFixed(0)).join(', ')}; median ${median(times).toFixed(0)} ms`);
console.log(
  `cpu ms (user+system, all threads): ${cpuTimes.map((t) => t.toFixed(0)).join(', ')}; median ${median(cpuTimes).toFixed(0)} ms; load average ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`,
);
console.log(
  `peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (whole process: generator, input and ${RUNS} runs); RSS before the runs ${(rssBefore / 2 ** 20).toFixed(0)} MB`,
);
console.log(`removed by rule: ${JSON.stringify(counts)}`);
console.log(
  `exact duplicates planted ${exactPlants.length}, found ${exactFound} (${pct(exactFound / exactPlants.length)})`,
);
console.log(
  'near duplicates planted, by Jaccard with their original:   J range    planted  removed  recall   theory 1-(1-J^r)^b at low end',
);
for (let b = 0; b + 1 < buckets.length; b++) {
  const inBucket = nearPlants.filter(([, p]) => p.j! >= buckets[b] && p.j! < buckets[b + 1]);
  const removed = inBucket.filter(([i]) => byOriginal.get(i)?.rule === 'near_duplicate').length;
  const theory = 1 - (1 - buckets[b] ** params.lshRows) ** params.lshBands;
  console.log(
    `  [${buckets[b].toFixed(3)}, ${Math.min(1, buckets[b + 1]).toFixed(3)})  ${String(inBucket.length).padStart(7)}  ${String(removed).padStart(7)}  ${inBucket.length ? pct(removed / inBucket.length).padStart(7) : '      -'}   ${pct(theory)}`,
  );
}
const recallAt = (lo: number): string => {
  const xs = nearPlants.filter(([, p]) => p.j! >= lo);
  return `${xs.filter(([i]) => byOriginal.get(i)?.rule === 'near_duplicate').length}/${xs.length} = ${pct(xs.filter(([i]) => byOriginal.get(i)?.rule === 'near_duplicate').length / xs.length)}`;
};
console.log(`near-duplicate recall at J ≥ 0.90: ${recallAt(0.9)}; at J ≥ 0.85: ${recallAt(0.85)}`);
const nearRemoved = [...byOriginal].filter(([, d]) => d.rule === 'near_duplicate');
const plantedRemoved = nearRemoved.filter(
  ([i]) => planted.get(i)?.kind === 'near' && planted.get(i)!.j! >= params.nearDuplicateJaccard,
);
const verified = nearRemoved.filter(
  ([i, d]) => jaccard(candidates[i], candidates[keyIndex.get(d.keptKey!)!]) >= params.nearDuplicateJaccard,
);
const keptSideKept = [...byOriginal.values()].filter(
  (d) => d.keptKey !== undefined && byOriginal.has(keyIndex.get(d.keptKey)!),
).length;
console.log(
  `near-duplicate precision vs planted truth: ${plantedRemoved.length}/${nearRemoved.length} = ${pct(plantedRemoved.length / Math.max(1, nearRemoved.length))}`,
);
console.log(
  `near-duplicate removals whose Jaccard with keptKey ≥ threshold (independent check): ${verified.length}/${nearRemoved.length}`,
);
console.log(`removals whose keptKey is itself removed: ${keptSideKept}`);
const belowRemoved = nearPlants.filter(
  ([i, p]) => p.j! < params.nearDuplicateJaccard && byOriginal.get(i)?.rule === 'near_duplicate',
).length;
console.log(`planted pairs below the threshold removed anyway: ${belowRemoved}`);
if (CLUSTER > 1) {
  const members = candidates.length - CLUSTER;
  const js = Array.from({ length: 200 }, () =>
    jaccard(candidates[members + int(0, CLUSTER - 1)], candidates[members + int(0, CLUSTER - 1)]),
  ).filter((j) => j < 1);
  js.sort((a, b) => a - b);
  const clusterRemoved = [...byOriginal.keys()].filter((i) => i >= members).length;
  console.log(
    `cluster of ${CLUSTER}: pairwise J median ${js[js.length >> 1].toFixed(3)} (10%: ${js[Math.floor(js.length * 0.1)].toFixed(3)}, 90%: ${js[Math.floor(js.length * 0.9)].toFixed(3)}); members removed ${clusterRemoved}`,
  );
}
const boilerFound = [...planted].filter(
  ([i, p]) => p.kind === 'boilerplate' && byOriginal.get(i)?.rule === 'boilerplate',
).length;
const sameFound = [...planted].filter(
  ([i, p]) => p.kind === 'same_change' && byOriginal.get(i)?.rule === 'same_change',
).length;
console.log(
  `boilerplate planted ${nBoiler}, removed ${boilerFound}; same_change planted ${nSame}, removed ${sameFound}`,
);
