// Self-BLEU (Zhu et al. 2018, Texygen): the mean, over a sample of comments, of each one's BLEU-4
// against all the other sampled comments as references. Lower means less repetition.
//
// BLEU follows NLTK's nltk.translate.bleu_score.sentence_bleu (3.8) with weights (0.25, 0.25, 0.25,
// 0.25) and SmoothingFunction().method1, as Texygen's SelfBleu calls it:
// - modified precision p_n: each hypothesis n-gram's count clipped to its largest count in any one
//   reference, summed, over max(1, the hypothesis's n-gram count);
// - method1: a p_n with numerator 0 becomes epsilon (0.1) / its denominator;
// - no unigram match at all gives 0 (NLTK returns 0 before smoothing);
// - brevity penalty: r the reference length closest to the hypothesis length c (the shorter on a tie),
//   1 when c > r, else exp(1 - r / c).
// Texygen samples 500 sentences and scores each against the other 499 (SelfBleu.sample_size); so does
// this, with a seeded sample. Comments with no token are left out of the sample.
import { seededWords } from '../../rules/dedup/hash32';
import { ngrams } from './tokenize';

export const SELF_BLEU_SAMPLE = 500;
const MAX_N = 4;
const EPSILON = 0.1;
export const SELF_BLEU_METHOD =
  'BLEU-4 as NLTK sentence_bleu, weights 0.25 each, SmoothingFunction().method1 (epsilon 0.1); each sampled comment against the other sampled comments';

export interface SelfBleuResult {
  /** null with fewer than 2 comments that have a token. */
  value: number | null;
  /** Comments scored (the sample). */
  sampleSize: number;
  /** Comments with at least one token, the sample's population. */
  population: number;
  seed: number;
}

/** One hypothesis against its references, as NLTK's sentence_bleu with method1 (see above). */
export function sentenceBleu(references: readonly (readonly string[])[], hypothesis: readonly string[]): number {
  const numerators: number[] = [];
  const denominators: number[] = [];
  for (let n = 1; n <= MAX_N; n++) {
    const counts = countOf(hypothesis, n);
    const maxRef = new Map<string, number>();
    for (const ref of references) {
      const rc = countOf(ref, n);
      for (const g of counts.keys()) maxRef.set(g, Math.max(maxRef.get(g) ?? 0, rc.get(g) ?? 0));
    }
    let num = 0;
    let total = 0;
    for (const [g, c] of counts) {
      num += Math.min(c, maxRef.get(g) ?? 0);
      total += c;
    }
    numerators.push(num);
    denominators.push(Math.max(1, total));
  }
  return combine(
    numerators,
    denominators,
    hypothesis.length,
    references.map((r) => r.length),
  );
}

function combine(numerators: number[], denominators: number[], hypLen: number, refLens: readonly number[]): number {
  if (numerators[0] === 0) return 0;
  let logSum = 0;
  for (let i = 0; i < MAX_N; i++)
    logSum += 0.25 * Math.log((numerators[i] === 0 ? EPSILON : numerators[i]) / denominators[i]);
  return brevityPenalty(hypLen, refLens) * Math.exp(logSum);
}

function brevityPenalty(c: number, refLens: readonly number[]): number {
  let r = refLens[0];
  for (const l of refLens)
    if (Math.abs(l - c) < Math.abs(r - c) || (Math.abs(l - c) === Math.abs(r - c) && l < r)) r = l;
  if (c > r) return 1;
  return c === 0 ? 0 : Math.exp(1 - r / c);
}

function countOf(tokens: readonly string[], n: number): Map<string, number> {
  const m = new Map<string, number>();
  for (const g of ngrams(tokens, n)) m.set(g, (m.get(g) ?? 0) + 1);
  return m;
}

/** The seeded sample's indices into `population` (a partial Fisher–Yates shuffle), or all of it when small enough. */
export function sampleIndices(population: number, size: number, seed: number): number[] {
  const idx = Array.from({ length: population }, (_, i) => i);
  if (population <= size) return idx;
  const words = seededWords(seed, size);
  for (let i = 0; i < size; i++) {
    const j = i + ((words[i] >>> 0) % (population - i));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx.slice(0, size).sort((a, b) => a - b);
}

/**
 * Self-BLEU of tokenized comments. Equal to calling sentenceBleu for each sampled comment against the
 * others, but each n-gram's largest count among the references is found once: the two largest counts
 * among all sampled comments, and whose the largest is, give it for every hypothesis in O(1).
 */
export function selfBleu(
  tokenized: readonly (readonly string[])[],
  opts: { sample?: number; seed?: number } = {},
): SelfBleuResult {
  const seed = opts.seed ?? 0;
  const withTokens = tokenized.filter((t) => t.length > 0);
  const sample = sampleIndices(withTokens.length, opts.sample ?? SELF_BLEU_SAMPLE, seed).map((i) => withTokens[i]);
  const result = { sampleSize: sample.length, population: withTokens.length, seed };
  if (sample.length < 2) return { value: null, ...result };
  const numerators = sample.map(() => new Array<number>(MAX_N).fill(0));
  const denominators = sample.map(() => new Array<number>(MAX_N).fill(0));
  for (let n = 1; n <= MAX_N; n++) {
    const counts = sample.map((t) => countOf(t, n));
    const best = new Map<string, { first: number; owner: number; second: number }>();
    counts.forEach((m, j) => {
      for (const [g, c] of m) {
        const b = best.get(g);
        if (!b) best.set(g, { first: c, owner: j, second: 0 });
        else if (c > b.first) best.set(g, { first: c, owner: j, second: b.first });
        else if (c > b.second) b.second = c;
      }
    });
    counts.forEach((m, i) => {
      let num = 0;
      let total = 0;
      for (const [g, c] of m) {
        const b = best.get(g)!;
        num += Math.min(c, b.owner === i ? b.second : b.first);
        total += c;
      }
      numerators[i][n - 1] = num;
      denominators[i][n - 1] = Math.max(1, total);
    });
  }
  const lengths = sample.map((t) => t.length);
  let sum = 0;
  for (let i = 0; i < sample.length; i++) {
    const others = lengths.filter((_, j) => j !== i);
    sum += combine(numerators[i], denominators[i], lengths[i], others);
  }
  return { value: sum / sample.length, ...result };
}
