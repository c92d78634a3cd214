// The three indexes against the obvious nested loops they replace, on seeded random texts: each finds
// exactly what the loop finds (no miss, no false hit).
import assert from 'node:assert/strict';
import { JaccardIndex } from './jaccardIndex';
import { NgramIndex } from './ngramIndex';
import { SubstringIndex } from './substringIndex';
import { collapseWhitespace, rawSpan, whitespaceTokens, wordTokens } from './text';

function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

const ALPHABET = 'ab c';
function randomText(rand: () => number, length: number, alphabet = ALPHABET): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(rand() * alphabet.length)];
  return out;
}

describe('decontamination text', () => {
  it('collapses every whitespace run to one space and maps each character back to the raw text', () => {
    const raw = '  int x =\t1;\r\n\n  return  x;\n';
    const c = collapseWhitespace(raw);
    assert.equal(c.text, 'int x = 1; return x;');
    const at = c.text.indexOf('return x;');
    const span = rawSpan(c, at, at + 'return x;'.length);
    assert.equal(raw.slice(span.start, span.end), 'return  x;');
    assert.equal(collapseWhitespace(' \n\t ').text, '');
  });

  it('splits word-like tokens apart from punctuation, and whitespace tokens at whitespace only', () => {
    const t = 'Please, rename foo_bar(x)!';
    const w = wordTokens(t);
    assert.deepEqual(
      Array.from(w.starts).map((s, i) => t.slice(s, w.ends[i])),
      ['Please', 'rename', 'foo_bar', 'x'],
    );
    const s = whitespaceTokens(t);
    assert.deepEqual(
      Array.from(s.starts).map((x, i) => t.slice(x, s.ends[i])),
      ['Please,', 'rename', 'foo_bar(x)!'],
    );
  });
});

describe('SubstringIndex (Rabin–Karp, one anchor per pattern)', () => {
  it('finds every occurrence the nested loop finds, for patterns of every length from 1 to 150', () => {
    const rand = prng(7);
    const patterns: string[] = [];
    for (let i = 0; i < 300; i++) patterns.push(randomText(rand, 1 + Math.floor(rand() * (i < 60 ? 6 : 150))));
    const index = new SubstringIndex(patterns);
    for (let t = 0; t < 200; t++) {
      // Texts hold copies of some patterns, plus noise.
      let text = randomText(rand, Math.floor(rand() * 200));
      if (t % 2 === 0) text += patterns[Math.floor(rand() * patterns.length)] + randomText(rand, 20);
      const expected = new Set<string>();
      patterns.forEach((p, i) => {
        for (let at = text.indexOf(p); at >= 0; at = text.indexOf(p, at + 1)) expected.add(`${i}@${at}`);
      });
      const actual = new Set(index.find(text, () => true, false).map((h) => `${h.pattern}@${h.start}`));
      assert.deepEqual(actual, expected, `text ${t}`);
    }
  });

  it('stops at the first accepted hit and passes over rejected ones', () => {
    const index = new SubstringIndex(['abc', 'bcd']);
    assert.deepEqual(
      index.find('xxabcd', (h) => h.pattern === 1),
      [{ pattern: 1, start: 3 }],
    );
    assert.deepEqual(
      index.find('xxabcd', () => false),
      [],
    );
  });
});

describe('NgramIndex (rolling hash over tokens)', () => {
  it('finds the leftmost shared run of k tokens, widened, exactly as the nested loop does', () => {
    const rand = prng(11);
    const words = ['a', 'b', 'c', 'd', 'e'];
    const sentence = (n: number) => Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]).join(' ');
    const refs = Array.from({ length: 80 }, () => sentence(3 + Math.floor(rand() * 12)));
    const refTokens = refs.map((r) => ({ text: r, tokens: wordTokens(r) }));
    const k = 4;
    const index = new NgramIndex(refTokens, k);
    for (let t = 0; t < 300; t++) {
      const text = sentence(Math.floor(rand() * 14));
      const tokens = text.split(' ').filter(Boolean);
      let expected: string | null = null;
      outer: for (let i = 0; i + k <= tokens.length; i++) {
        for (let r = 0; r < refs.length; r++) {
          const rt = refs[r].split(' ');
          for (let j = 0; j + k <= rt.length; j++) {
            if (tokens.slice(i, i + k).join(' ') === rt.slice(j, j + k).join(' ')) {
              expected = `${i}`;
              break outer;
            }
          }
        }
      }
      const run = index.find({ text, tokens: wordTokens(text) });
      assert.equal(run ? `${run.textFirst}` : null, expected, `text "${text}"`);
      if (run) {
        const rt = refs[run.reference].split(' ');
        assert.deepEqual(
          tokens.slice(run.textFirst, run.textFirst + run.length),
          rt.slice(run.refFirst, run.refFirst + run.length),
        );
        assert.ok(run.length >= k);
      }
    }
  });
});

describe('JaccardIndex (prefix filtering)', () => {
  it('finds the best reference with Jaccard ≥ t over distinct tokens, as the nested loop does', () => {
    const rand = prng(5);
    const vocab = Array.from({ length: 30 }, (_, i) => `t${i}`);
    const set = () =>
      Array.from({ length: 1 + Math.floor(rand() * 12) }, () => vocab[Math.floor(rand() * (rand() < 0.5 ? 8 : 30))]);
    const refs = Array.from({ length: 150 }, set);
    for (const threshold of [0.3, 0.5, 0.8, 1]) {
      const index = new JaccardIndex(refs, threshold);
      for (let t = 0; t < 200; t++) {
        const x = [...set(), ...(t % 3 === 0 ? ['unknown-token'] : [])];
        const xs = new Set(x);
        let best: { r: number; j: number } | null = null;
        refs.forEach((ref, r) => {
          const ys = new Set(ref);
          const shared = [...xs].filter((v) => ys.has(v)).length;
          const j = shared / (xs.size + ys.size - shared);
          if (j >= threshold && (!best || j > best.j)) best = { r, j };
        });
        const found = index.find(x);
        const b = best as { r: number; j: number } | null;
        assert.deepEqual(found && { r: found.reference, j: found.jaccard }, b, `t=${threshold}, set ${x.join(' ')}`);
      }
    }
  });
});
