import assert from 'node:assert/strict';
import { parseDiffInfo } from './diffInfo';

describe('parseDiffInfo', () => {
  it('numbers both sides through ab, a/b and skip chunks', () => {
    const d = parseDiffInfo(JSON.stringify({
      content: [{ ab: ['l1', 'l2'] }, { a: ['old3'], b: ['new3', 'new4'] }, { skip: 10 }, { ab: ['x'] }, { b: ['added'] }, { skip: { left: 2, right: 3 } }],
    }));
    assert.deepEqual(d.chunks.map((c) => [c.common, c.skipped, c.aStart, c.aLen, c.bStart, c.bLen]), [
      [true, false, 1, 2, 1, 2],
      [false, false, 3, 1, 3, 2],
      [true, true, 4, 10, 5, 10],
      [true, false, 14, 1, 15, 1],
      [false, false, 15, 0, 16, 1],
      [true, true, 15, 2, 17, 3],
    ]);
    assert.equal(d.aLines, 16);
    assert.equal(d.bLines, 19);
  });

  it('joins consecutive a and b entries into one edit', () => {
    const d = parseDiffInfo(JSON.stringify({ content: [{ ab: ['k'] }, { a: ['x'] }, { b: ['y'] }, { ab: ['k2'] }] }));
    assert.equal(d.chunks.length, 3);
    assert.deepEqual([d.chunks[1].a, d.chunks[1].b], [['x'], ['y']]);
  });

  it('keeps CRLF lines and non-ASCII text as sent, and reads the no-final-newline marker', () => {
    const d = parseDiffInfo(JSON.stringify({ content: [{ ab: ['naïve\r', '日本\r'] }], x_no_newline_at_end: { a: false, b: true } }));
    assert.deepEqual(d.chunks[0].a, ['naïve\r', '日本\r']);
    assert.equal(d.aNoFinalNewline, false);
    assert.equal(d.bNoFinalNewline, true);
  });

  it('rejects what is not a DiffInfo', () => {
    assert.throws(() => parseDiffInfo('{"meta_a": {}}'), /no content/);
    assert.throws(() => parseDiffInfo('{"content": [{"ab": [1]}]}'), /not a list of lines/);
    assert.throws(() => parseDiffInfo('not json'));
  });
});
