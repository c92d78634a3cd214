// Lexical diversity of a set of comments (the CuREV paper, section 5), each over the whole set:
// - distinct-n (n = 1, 2, 3): distinct n-grams / all n-grams; n-grams never cross two comments;
// - unigram entropy in bits (log base 2): H = -Σ p(w) log2 p(w), p the share of all unigrams;
// - type-token ratio: over the whole set it is distinct-1 by definition, so the mean per comment is
//   given beside it (comments with no token left out), which does not grow with the set's size;
// - the top 10 n-grams and top 10 comment-opening n-grams (the first n tokens of each comment with at
//   least n), by count, ties in code-unit order of the n-gram.
// No stop words are removed (the CuREV paper's top-unigram table seems to drop some; its prefix table does not).
import { tokenize } from './tokenize';
import { selfBleu, type SelfBleuResult } from './selfBleu';

export const TOP_N = 10;
export const NGRAM_ORDERS = [1, 2, 3] as const;

export interface NgramCount {
  ngram: string;
  count: number;
}

export interface DiversityMetrics {
  comments: number;
  tokens: number;
  /** distinct[n] for n = 1, 2, 3; null when the set has no n-gram of that order. */
  distinct: Record<'1' | '2' | '3', number | null>;
  /** Bits (log base 2); null with no token. */
  entropyBits: number | null;
  /** Mean over comments with a token of (its distinct tokens / its tokens); null with none. */
  meanCommentTtr: number | null;
  selfBleu: SelfBleuResult;
  top: Record<'1' | '2' | '3', NgramCount[]>;
  topOpening: Record<'1' | '2' | '3', NgramCount[]>;
}

export interface DiversityOptions {
  /** Self-BLEU's sample size (default SELF_BLEU_SAMPLE). */
  sample?: number;
  /** Self-BLEU's sample seed (default 0). */
  seed?: number;
}

export function diversityMetrics(texts: readonly string[], opts: DiversityOptions = {}): DiversityMetrics {
  const tokenized = texts.map(tokenize);
  // Tokens become small integers and an n-gram the id of its (n − 1)-gram prefix times the vocabulary
  // size plus its last token, so every count is a Map of numbers, not of joined strings.
  const vocab = new Map<string, number>();
  const words: string[] = [];
  const ids = tokenized.map((t) =>
    t.map((w) => {
      let id = vocab.get(w);
      if (id === undefined) vocab.set(w, (id = words.push(w) - 1));
      return id;
    }),
  );
  const v = Math.max(1, words.length);
  const distinct = {} as DiversityMetrics['distinct'];
  const top = {} as DiversityMetrics['top'];
  const topOpening = {} as DiversityMetrics['topOpening'];
  /** gramIds[c][i]: the id of comment c's (n − 1)-gram starting at token i, from the previous order. */
  let prevIds: number[][] = ids.map((t) => t.map(() => 0));
  let prevGrams: number[][] = [];
  for (const n of NGRAM_ORDERS) {
    const index = new Map<number, number>(); // n-gram key → dense id
    const counts: number[] = [];
    const grams: number[][] = []; // each dense id's tokens, to spell it out
    const openings = new Map<number, number>();
    let total = 0;
    const nextIds: number[][] = ids.map((t, c) => {
      const out: number[] = [];
      for (let i = 0; i + n <= t.length; i++) {
        const key = (n === 1 ? 0 : prevIds[c][i]) * v + t[i + n - 1];
        let id = index.get(key);
        if (id === undefined) {
          index.set(key, (id = counts.push(0) - 1));
          grams.push(n === 1 ? [t[i]] : [...prevGrams[prevIds[c][i]], t[i + n - 1]]);
        }
        counts[id]++;
        out.push(id);
        if (i === 0) openings.set(id, (openings.get(id) ?? 0) + 1);
      }
      total += out.length;
      return out;
    });
    const spell = (id: number) => grams[id].map((w) => words[w]).join(' ');
    distinct[`${n}`] = total === 0 ? null : counts.length / total;
    top[`${n}`] = topCounts(
      counts.map((count, id) => [id, count] as const),
      spell,
    );
    topOpening[`${n}`] = topCounts([...openings], spell);
    prevIds = nextIds;
    prevGrams = grams;
  }
  const tokens = tokenized.reduce((sum, t) => sum + t.length, 0);
  return {
    comments: texts.length,
    tokens,
    distinct,
    entropyBits: unigramEntropyBits(tokenized),
    meanCommentTtr: meanTtr(tokenized),
    selfBleu: selfBleu(tokenized, opts),
    top,
    topOpening,
  };
}

export function unigramEntropyBits(tokenized: readonly (readonly string[])[]): number | null {
  const counts = new Map<string, number>();
  let total = 0;
  for (const t of tokenized) {
    for (const w of t) counts.set(w, (counts.get(w) ?? 0) + 1);
    total += t.length;
  }
  if (total === 0) return null;
  let h = 0;
  for (const c of counts.values()) h -= (c / total) * Math.log2(c / total);
  return h;
}

export function meanTtr(tokenized: readonly (readonly string[])[]): number | null {
  const withTokens = tokenized.filter((t) => t.length > 0);
  if (withTokens.length === 0) return null;
  return withTokens.reduce((s, t) => s + new Set(t).size / t.length, 0) / withTokens.length;
}

/**
 * The TOP_N largest counts, ties in code-unit order of the n-gram. Only the n-grams that can make the
 * list (a count at least the TOP_N-th largest) are spelled out and sorted.
 */
function topCounts(entries: readonly (readonly [number, number])[], spell: (id: number) => string): NgramCount[] {
  if (entries.length === 0) return [];
  const largest = entries.map(([, c]) => c).sort((a, b) => b - a);
  const floor = largest[Math.min(TOP_N, largest.length) - 1];
  return entries
    .filter(([, c]) => c >= floor)
    .map(([id, count]) => ({ ngram: spell(id), count }))
    .sort((a, b) => b.count - a.count || (a.ngram < b.ngram ? -1 : a.ngram > b.ngram ? 1 : 0))
    .slice(0, TOP_N);
}
