import assert from 'node:assert/strict';
import { sampleIndices, selfBleu, sentenceBleu } from './selfBleu';
import { tokenize } from './tokenize';

const A = ['consider', 'using', 'a', 'constant'];
const B = ['consider', 'using', 'a', 'map', 'here'];
const C = ['why', 'why', 'not'];
const close = (actual: number | null, expected: number, what: string) => {
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${what}: ${actual} ≠ ${expected}`);
};

describe('Self-BLEU (BLEU-4, NLTK sentence_bleu with method1)', () => {
  // Each expected value was computed by hand below and checked against NLTK 3.8
  // (sentence_bleu(refs, hyp, smoothing_function=SmoothingFunction().method1)).
  it('A against B, C: p = 3/4, 2/3, 1/2, 0/1 → 0.1/1; r = 3 (tie of 3 and 5 → shorter), c = 4 > r → BP 1; (0.025)^(1/4)', () => {
    close(sentenceBleu([B, C], A), Math.pow(0.75 * (2 / 3) * 0.5 * 0.1, 0.25), 'A');
    close(sentenceBleu([B, C], A), 0.3976353643835253, 'A (NLTK)');
  });

  it('B against A, C: p = 3/5, 2/4, 1/3, 0/2 → 0.1/2; r = 4 < c = 5 → BP 1; (0.005)^(1/4)', () => {
    close(sentenceBleu([A, C], B), Math.pow(0.6 * 0.5 * (1 / 3) * 0.05, 0.25), 'B');
    close(sentenceBleu([A, C], B), 0.26591479484724945, 'B (NLTK)');
  });

  it('C against A, B: no unigram matches → 0, before smoothing', () => {
    assert.equal(sentenceBleu([A, B], C), 0);
  });

  it('a short hypothesis: "consider using" against A, B: p = 1, 1, 0.1, 0.1; r = 4, c = 2 → BP e^(1 − 2)', () => {
    close(sentenceBleu([A, B], ['consider', 'using']), Math.exp(-1) * Math.pow(0.01, 0.25), 'short');
    close(sentenceBleu([A, B], ['consider', 'using']), 0.11633369384516798, 'short (NLTK)');
  });

  it('Self-BLEU of A, B, C is the mean of the three: (0.39764 + 0.26591 + 0) / 3', () => {
    const r = selfBleu([A, B, C]);
    close(r.value, (0.3976353643835253 + 0.26591479484724945) / 3, 'self-BLEU');
    assert.deepEqual(
      { sampleSize: r.sampleSize, population: r.population, seed: r.seed },
      { sampleSize: 3, population: 3, seed: 0 },
    );
  });

  it('leaves comments with no token out, and gives null below two', () => {
    assert.equal(selfBleu([A, B, C, []]).population, 3);
    assert.equal(selfBleu([A, []]).value, null);
  });

  it('the fast path equals sentence_bleu of each sampled comment against the others', () => {
    const texts = [
      'Please add a test for this.',
      'Can we add a test here?',
      'Please add a comment for this.',
      'Why is this needed?',
      'Add a test, please.',
      'This is needed for the test',
      'nit: typo',
      'Can we use a map here?',
      'a a a a a a',
    ].map(tokenize);
    const naive =
      texts.reduce(
        (s, t, i) =>
          s +
          sentenceBleu(
            texts.filter((_, j) => j !== i),
            t,
          ),
        0,
      ) / texts.length;
    close(selfBleu(texts).value, naive, 'fast = naive');
  });

  it('samples with its seed: the same seed the same sample, sorted, without repeats', () => {
    const a = sampleIndices(1000, 50, 7);
    assert.deepEqual(a, sampleIndices(1000, 50, 7));
    assert.notDeepEqual(a, sampleIndices(1000, 50, 8));
    assert.equal(new Set(a).size, 50);
    assert.deepEqual(
      a,
      [...a].sort((x, y) => x - y),
    );
    assert.deepEqual(sampleIndices(3, 50, 7), [0, 1, 2]);
    const texts = Array.from({ length: 40 }, (_, i) => ['w', `t${i % 7}`, 'x']);
    const r = selfBleu(texts, { sample: 10, seed: 3 });
    assert.deepEqual([r.sampleSize, r.population, r.seed], [10, 40, 3]);
  });
});
