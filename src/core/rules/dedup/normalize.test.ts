import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { normalisedDigest } from './digest';
import { isWhitespaceCode, normalizeHunkText } from './normalize';
import { TokenBuffer } from './tokenScan';
import { rng } from './testHunks';

const sha = (text: string): string => createHash('sha256').update(text).digest('base64');

const ASCII_PIECES = ['a', 'foo', '()', ';', ' ', '  ', '\t', '\n', '\r\n', '\r', '\v', '\f'];
const OTHER_PIECES = ['é', '日本', '\u{1F600}', '\u00a0', '\u2003', '\u3000', '\x01', '\x7f'];

/** Random text mixing code, every kind of whitespace and CRLF; odd calls add control characters and non-ASCII. */
let calls = 0;
function messyText(r: () => number): string {
  const pieces = calls++ % 2 === 0 ? ASCII_PIECES : [...ASCII_PIECES, ...OTHER_PIECES];
  return Array.from({ length: Math.floor(r() * 40) }, () => pieces[Math.floor(r() * pieces.length)]).join('');
}

describe('dedup normalisation', () => {
  it('drops trailing whitespace on every line', () => {
    assert.equal(normalizeHunkText('int a = 1;  \t\nint b;\t\n'), 'int a = 1;\nint b;\n');
  });

  it('turns CRLF into LF', () => {
    assert.equal(normalizeHunkText('a\r\nb\r\n'), 'a\nb\n');
  });

  it('collapses runs of whitespace, including indentation and Unicode spaces, to one space', () => {
    assert.equal(normalizeHunkText('\t\tif  (x\u00a0\u2003==\t1)'), ' if (x == 1)');
  });

  it('keeps line breaks, so re-wrapped code is not equal', () => {
    assert.notEqual(normalizeHunkText('a b'), normalizeHunkText('a\nb'));
    assert.equal(normalizeHunkText('a\n\n  \nb'), 'a\n\n\nb');
  });

  it('treats a lone CR as whitespace inside a line', () => {
    assert.equal(normalizeHunkText('a\rb\r'), 'a b');
  });

  it('classifies exactly the code units that \\s matches as whitespace', () => {
    for (let c = 0; c < 0x10000; c++)
      assert.equal(isWhitespaceCode(c), /\s/.test(String.fromCharCode(c)), `U+${c.toString(16)}`);
  });
});

describe('dedup normalisation: fingerprints, digests and tokens', () => {
  it('fingerprints equal normalised texts equally and different ones differently', () => {
    const r = rng(7);
    const pick = (xs: string[]): string => xs[Math.floor(r() * xs.length)];
    const fingerprint = (text: string): number => {
      const buffer = new TokenBuffer();
      buffer.scan(text);
      return buffer.fingerprint();
    };
    const byText = new Map<string, number>();
    for (let n = 0; n < 3000; n++) {
      const normalised = normalizeHunkText(messyText(r));
      // The same normalised text with other whitespace: runs, tabs, Unicode spaces, trailing blanks, CRLF.
      const variant = normalised
        .split('\n')
        .map(
          (line) =>
            line.replace(/ /g, () => pick([' ', '  ', '\t', '\u00a0 ', ' \u3000'])) + pick(['', ' ', '\t ', '\r']),
        )
        .join(pick(['\n', '\r\n', ' \n']));
      assert.equal(normalizeHunkText(variant), normalised);
      assert.equal(fingerprint(variant), fingerprint(normalised), JSON.stringify([variant, normalised]));
      byText.set(normalised, fingerprint(normalised));
    }
    assert.ok(byText.size > 2000);
    assert.equal(new Set(byText.values()).size, byText.size);
  });

  it('gives equal digests to hunks that differ only in whitespace, and different ones otherwise', () => {
    const a = normalisedDigest('if (x) {\r\n\treturn  1;  \r\n}', 'return 2;');
    const b = normalisedDigest('if (x) {\n    return 1;\n}', 'return 2;   ');
    const c = normalisedDigest('if (x) {\n    return 1;\n}', 'return 3;');
    assert.equal(a, b);
    assert.notEqual(c, a);
    assert.equal(normalisedDigest('if (x) {\r\n\treturn  1;  \r\n}'), normalisedDigest('if (x) {\n return 1;\n}'));
    assert.equal(a, sha('if (x) {\n return 1;\n}\0return 2;'));
  });

  it('tokenizes the raw text into exactly the whitespace-separated tokens of the normalised text', () => {
    const r = rng(11);
    const buffer = new TokenBuffer(4);
    for (let n = 0; n < 2000; n++) {
      const text = messyText(r);
      buffer.count = 0;
      buffer.scan(text);
      const got = Array.from({ length: buffer.count }, (_, t) => text.slice(buffer.starts[t], buffer.ends[t]));
      assert.deepEqual(
        got,
        normalizeHunkText(text)
          .split(/\s+/)
          .filter((t) => t !== ''),
        JSON.stringify(text),
      );
    }
  });
});
