import assert from 'node:assert/strict';
import { visibleEscapes, visibleEscapesInJson } from './visibleEscapes';

describe('visible escapes for host text', () => {
  it('shows terminal controls as \\x escapes: ESC, BEL, CSI sequences and OSC hyperlinks', () => {
    assert.equal(visibleEscapes('a\x1b[31mred\x1b[0m'), 'a\\x1b[31mred\\x1b[0m');
    assert.equal(
      visibleEscapes('\x1b]8;;https://evil.example\x07click\x1b]8;;\x07'),
      '\\x1b]8;;https://evil.example\\x07click\\x1b]8;;\\x07',
    );
    assert.equal(
      visibleEscapes('\x9b2J \x9d0;title\x9c'),
      '\\x9b2J \\x9d0;title\\x9c',
      'C1 CSI, OSC and ST act alone in some terminals',
    );
    assert.equal(visibleEscapes('tab\tnew\nline\rdel\x7f\0'), 'tab\\x09new\\x0aline\\x0ddel\\x7f\\x00');
  });

  it('shows bidi controls as \\u escapes', () => {
    assert.equal(visibleEscapes('evil\u202egpj.py'), 'evil\\u202egpj.py');
    const all = '\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029';
    assert.equal(
      visibleEscapes(all),
      '\\u061c\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u2028\\u2029',
    );
  });

  it('leaves printable text alone, non-ASCII and zero-width joiners included, and is idempotent', () => {
    const text = 'src/ünïcode/файл.py — 日本語 👩‍💻 a\u200bb \\x1b [x](y) $(alert)';
    assert.equal(visibleEscapes(text), text);
    const once = visibleEscapes('\x1b\u202e');
    assert.equal(visibleEscapes(once), once);
  });

  it('escapes in JSON what JSON.stringify leaves raw, keeping the same value', () => {
    const value = { 'k\u202e': ['\x1b[2J', '\x9b', '\u2066x\u2069', 'ok'] };
    const json = visibleEscapesInJson(JSON.stringify(value, null, 2));
    assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(json), json);
    assert.deepEqual(JSON.parse(json), value);
  });
});
