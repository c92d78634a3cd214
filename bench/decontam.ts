// Decontamination speed: `--examples` generated examples (default 100,000) against `--references`
// protected reference items (default 10,000), through the same ProtectedMatcher the build uses.
//   node bench/run.mjs decontam [--examples 100000] [--references 10000] [--runs 3] [--seed 17]
// Each run builds the indexes on the references, then matches every example (both sides and its
// comments), once with the default policies and once with every optional (Clean-PR) policy on too. Planted
// overlaps (whole sides, methods inside longer sides, whole comments, 5-token comment runs) must all be
// found. A nested loop over a sample of examples × all references gives the figure the index avoids.
import { Rng, TextMaker } from './generateText';
import { arg, median } from './benchArgs';
import { DEFAULT_RULES } from '../src/core/rules/ruleParameters';
import { ProtectedMatcher, type ExampleTexts, type ReferenceText } from '../src/core/rules/decontam/matcher';
import { matchingPolicy, type MatchingPolicy } from '../src/core/rules/decontam/policy';

const EXAMPLES = Number(arg('examples') ?? 100_000);
const REFERENCES = Number(arg('references') ?? 10_000);
const RUNS = Number(arg('runs') ?? 3);
const SEED = Number(arg('seed') ?? 17);
const PLANT_EACH = Math.max(1, Math.floor(REFERENCES / 100)); // 1% of the references per planted kind

const rng = new Rng(SEED);
const text = new TextMaker(rng);
const log = (l: string) => process.stderr.write(`${l}\n`);

const examples: ExampleTexts[] = [];
for (let i = 0; i < EXAMPLES; i++) {
  const before = text.lines(rng.int(5, 39));
  examples.push({
    before: before.join('\n') + '\n',
    after: text.revise(before, rng.int(Math.max(1, before.length - 3), before.length + 3)).join('\n') + '\n',
    comments: Array.from({ length: rng.int(1, 3) }, (_, k) => ({ id: `c${i}_${k}`, message: text.reviewComment() })),
  });
}

// References: another benchmark's items (fresh code, and prose of other words than the corpus'
// comments), plus planted copies of the corpus, each recorded with the example it must remove.
const refs: ReferenceText[] = [];
const planted = new Map<number, string>(); // example index → planted kind
const other = () => Array.from({ length: rng.int(6, 14) }, () => text.ident()).join(' ') + '.';
const reindent = (s: string) =>
  s
    .split('\n')
    .map((l) => `  ${l.trim()}`)
    .join('\n');
let id = 0;
const add = (field: ReferenceText['field'], t: string) =>
  refs.push({ set: 'bench', id: `r${String(id).padStart(6, '0')}`, field, text: t });
for (let k = 0; k < REFERENCES; k++, id++) {
  const kind =
    k < PLANT_EACH
      ? 'whole_side'
      : k < 2 * PLANT_EACH
        ? 'side_substring'
        : k < 3 * PLANT_EACH
          ? 'whole_comment'
          : k < 4 * PLANT_EACH
            ? 'comment_substring'
            : 'fresh';
  if (kind === 'fresh') {
    const before = text.lines(rng.int(5, 39));
    add('before', before.join('\n'));
    add('after', text.revise(before, before.length).join('\n'));
    add('comment', other());
    continue;
  }
  let target = rng.int(0, EXAMPLES - 1);
  while (planted.has(target)) target = rng.int(0, EXAMPLES - 1);
  planted.set(target, kind);
  const e = examples[target];
  if (kind === 'whole_side') add('after', reindent(e.before));
  else if (kind === 'side_substring') {
    const lines = e.after.split('\n');
    const from = rng.int(0, Math.max(0, lines.length - 4));
    add('before', reindent(lines.slice(from, from + 3).join('\n')));
  } else {
    // The generated comments are templated: a copy of one shares its template with thousands of others,
    // as no real benchmark item would. So the planted example gets a comment of its own first.
    e.comments[0].message = `${other()} ${other()}`;
    const words = e.comments[0].message.split(' ');
    const from = rng.int(0, words.length - 6);
    if (kind === 'whole_comment') add('comment', e.comments[0].message.replace(/ /g, '\n  '));
    else add('comment', `${other()} ${words.slice(from, from + 6).join(' ')} ${other()}`);
  }
}
log(`${EXAMPLES} examples, ${REFERENCES} reference items (${refs.length} texts), ${planted.size} planted overlaps`);

function run(policy: MatchingPolicy) {
  const t0 = performance.now();
  const matcher = new ProtectedMatcher(refs, policy);
  const t1 = performance.now();
  const found = new Map<number, string>();
  examples.forEach((e, i) => {
    const m = matcher.match(e);
    if (m) found.set(i, m.policy);
  });
  const t2 = performance.now();
  const missed = [...planted.keys()].filter((i) => !found.has(i));
  const byPolicy: Record<string, number> = {};
  for (const p of found.values()) byPolicy[p] = (byPolicy[p] ?? 0) + 1;
  return { indexMs: t1 - t0, matchMs: t2 - t1, removed: found.size, byPolicy, missed: missed.length };
}

const defaults = matchingPolicy(DEFAULT_RULES);
const everything: MatchingPolicy = { ...defaults, ngramTokens: 15, tokenJaccard: 0.5 };
const results: Record<string, ReturnType<typeof run>[]> = { seed003Defaults: [], withSeed004Options: [] };
for (let r = 0; r < RUNS; r++) {
  results.seed003Defaults.push(run(defaults));
  if (!process.argv.includes('--defaults-only')) results.withSeed004Options.push(run(everything));
  log(
    `run ${r + 1}/${RUNS}: ${JSON.stringify(results.seed003Defaults.at(-1))} / ${JSON.stringify(results.withSeed004Options.at(-1))}`,
  );
}
for (const [name, rs] of Object.entries(results)) {
  if (rs.length === 0) delete results[name];
  else if (rs.some((x) => x.missed > 0))
    throw new Error(`${name}: planted overlaps missed: ${rs.map((x) => x.missed).join(', ')}`);
}

// The nested loop the index replaces, on a sample: every side against every reference side (indexOf on
// whitespace-collapsed text), timed and scaled to all examples.
const SAMPLE = Math.min(200, EXAMPLES);
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
const codeRefs = refs.filter((r) => r.field !== 'comment').map((r) => collapse(r.text));
const tn = performance.now();
let naiveHits = 0;
for (let i = 0; i < SAMPLE; i++) {
  for (const side of [collapse(examples[i].before), collapse(examples[i].after)])
    for (const ref of codeRefs) if (side.includes(ref)) naiveHits++;
}
const naiveMs = performance.now() - tn;

const summary = (rs: ReturnType<typeof run>[]) => ({
  indexMs: Math.round(median(rs.map((x) => x.indexMs))),
  matchMs: Math.round(median(rs.map((x) => x.matchMs))),
  totalMs: Math.round(median(rs.map((x) => x.indexMs + x.matchMs))),
  removed: rs[0].removed,
  byPolicy: rs[0].byPolicy,
  plantedFound: planted.size - rs[0].missed,
  planted: planted.size,
});
console.log(
  JSON.stringify(
    {
      examples: EXAMPLES,
      references: REFERENCES,
      referenceTexts: refs.length,
      runs: RUNS,
      seed003Defaults: summary(results.seed003Defaults),
      withSeed004Options: results.withSeed004Options ? summary(results.withSeed004Options) : 'not run',
      nestedLoopSidesOnly: {
        sampleExamples: SAMPLE,
        sampleMs: Math.round(naiveMs),
        extrapolatedMs: Math.round((naiveMs * EXAMPLES) / SAMPLE),
        hits: naiveHits,
      },
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    },
    null,
    2,
  ),
);
