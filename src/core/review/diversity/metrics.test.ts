import assert from 'node:assert/strict';
import { diversityMetrics, meanTtr, unigramEntropyBits } from './metrics';
import { tokenize } from './tokenize';

// The hand-computed fixture. Tokens (lowercased word runs):
//   A "Consider using a constant."   → consider using a constant        (4)
//   B "Consider using a map here."   → consider using a map here        (5)
//   C "Why? Why not?"                → why why not                      (3)
//   D "?!"                           → (none)                           (0)
const FIXTURE = ['Consider using a constant.', 'Consider using a map here.', 'Why? Why not?', '?!'];
const close = (actual: number | null, expected: number, what: string) => {
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≠ ${expected}`);
};

describe('diversity metrics', () => {
  const m = diversityMetrics(FIXTURE);

  it('tokenizes to lowercased word runs, splitting at apostrophes and punctuation', () => {
    assert.deepEqual(tokenize("It's `foo_bar()`, DON'T — naïve 42"), ['it', 's', 'foo_bar', 'don', 't', 'naïve', '42']);
    assert.deepEqual(tokenize('?!'), []);
  });

  it('distinct-1: 8 distinct unigrams of 12 (consider using a constant map here why not)', () => {
    assert.equal(m.tokens, 12);
    close(m.distinct['1'], 8 / 12, 'distinct-1');
  });

  it('distinct-2: 7 distinct of 9 bigrams (A 3, B 4, C 2; "consider using" and "using a" twice)', () => {
    close(m.distinct['2'], 7 / 9, 'distinct-2');
  });

  it('distinct-3: 5 distinct of 6 trigrams (A 2, B 3, C 1; "consider using a" twice)', () => {
    close(m.distinct['3'], 5 / 6, 'distinct-3');
  });

  it('unigram entropy in bits: 4 tokens at 2/12 and 4 at 1/12 → (2/3)·log2 6 + (1/3)·log2 12 = 2.9182958', () => {
    close(m.entropyBits, (2 / 3) * Math.log2(6) + (1 / 3) * Math.log2(12), 'entropy');
    close(m.entropyBits, 2.918295834054489, 'entropy');
    // One token repeated: no uncertainty.
    assert.equal(unigramEntropyBits([['a', 'a'], ['a']]), 0);
    assert.equal(unigramEntropyBits([[]]), null);
  });

  it('type-token ratio: whole set = distinct-1; mean per comment (1 + 1 + 2/3) / 3 = 8/9, D (no token) left out', () => {
    close(meanTtr(FIXTURE.map(tokenize)), 8 / 9, 'mean TTR');
    close(m.meanCommentTtr, 8 / 9, 'mean TTR');
    assert.equal(meanTtr([[]]), null);
  });

  it('top n-grams: by count, ties in code-unit order', () => {
    assert.deepEqual(m.top['1'], [
      { ngram: 'a', count: 2 },
      { ngram: 'consider', count: 2 },
      { ngram: 'using', count: 2 },
      { ngram: 'why', count: 2 },
      { ngram: 'constant', count: 1 },
      { ngram: 'here', count: 1 },
      { ngram: 'map', count: 1 },
      { ngram: 'not', count: 1 },
    ]);
    assert.deepEqual(m.top['2'].slice(0, 2), [
      { ngram: 'consider using', count: 2 },
      { ngram: 'using a', count: 2 },
    ]);
    assert.deepEqual(m.top['3'][0], { ngram: 'consider using a', count: 2 });
  });

  it('top opening n-grams: the first n tokens of each comment with at least n', () => {
    assert.deepEqual(m.topOpening['1'], [
      { ngram: 'consider', count: 2 },
      { ngram: 'why', count: 1 },
    ]);
    assert.deepEqual(m.topOpening['2'], [
      { ngram: 'consider using', count: 2 },
      { ngram: 'why why', count: 1 },
    ]);
    assert.deepEqual(m.topOpening['3'], [
      { ngram: 'consider using a', count: 2 },
      { ngram: 'why why not', count: 1 },
    ]);
  });

  it('keeps only ten, and says null (not 0) for a set without n-grams', () => {
    const many = diversityMetrics(Array.from({ length: 12 }, (_, i) => `w${i}`));
    assert.equal(many.top['1'].length, 10);
    const empty = diversityMetrics([]);
    assert.equal(empty.distinct['1'], null);
    assert.equal(empty.entropyBits, null);
    assert.equal(empty.selfBleu.value, null);
    assert.equal(diversityMetrics(['one']).distinct['2'], null);
  });
});
