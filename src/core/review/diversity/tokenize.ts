// The one tokenization every diversity metric uses: lowercased word tokens, a token being a maximal
// run of Unicode letters, digits or underscores. Everything else (spaces, punctuation, apostrophes,
// backticks) separates tokens, so "It's" gives "it", "s" and `foo_bar()` gives "foo_bar" — the same
// split the CuREV paper's tables show ("it s", "don t").

const WORD = /[\p{L}\p{N}_]+/gu;

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** The n-grams of one comment, each joined by a single space (tokens hold no space). */
export function ngrams(tokens: readonly string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= tokens.length; i++) out.push(tokens.slice(i, i + n).join(' '));
  return out;
}
