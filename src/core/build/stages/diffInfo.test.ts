import assert from 'node:assert/strict';
import { parseDiffInfo, sideText, textLineCount } from './diffInfo';

describe('parseDiffInfo', () => {
  it('numbers both sides through ab, a/b and skip chunks', () => {
    const d = parseDiffInfo(
      JSON.stringify({
        content: [
          { ab: ['l1', 'l2'] },
          { a: ['old3'], b: ['new3', 'new4'] },
          { skip: 10 },
          { ab: ['x'] },
          { b: ['added'] },
          { skip: { left: 2, right: 3 } },
        ],
      }),
    );
    assert.deepEqual(
      d.chunks.map((c) => [c.common, c.skipped, c.aStart, c.aLen, c.bStart, c.bLen]),
      [
        [true, false, 1, 2, 1, 2],
        [false, false, 3, 1, 3, 2],
        [true, true, 4, 10, 5, 10],
        [true, false, 14, 1, 15, 1],
        [false, false, 15, 0, 16, 1],
        [true, true, 15, 2, 17, 3],
      ],
    );
    assert.equal(d.aLines, 16);
    assert.equal(d.bLines, 19);
  });

  it('joins consecutive a and b entries into one edit', () => {
    const d = parseDiffInfo(JSON.stringify({ content: [{ ab: ['k'] }, { a: ['x'] }, { b: ['y'] }, { ab: ['k2'] }] }));
    assert.equal(d.chunks.length, 3);
    assert.deepEqual([d.chunks[1].a, d.chunks[1].b], [['x'], ['y']]);
  });

  it('keeps CRLF lines and non-ASCII text as sent, counting the "" after a final newline as Gerrit does', () => {
    const d = parseDiffInfo(JSON.stringify({ content: [{ ab: ['naïve\r', '日本\r'] }, { a: [''] }] }));
    assert.deepEqual(d.chunks[0].a, ['naïve\r', '日本\r']);
    assert.deepEqual([d.aLines, d.bLines], [3, 2]);
  });

  it("keeps a due_to_rebase edit apart from the author's edit next to it", () => {
    const d = parseDiffInfo(
      JSON.stringify({
        content: [{ ab: ['k'] }, { a: ['x'], b: ['y'] }, { b: ['upstream'], due_to_rebase: true }, { ab: ['k2'] }],
      }),
    );
    assert.deepEqual(
      d.chunks.map((c) => [c.common, c.dueToRebase, c.aLen, c.bLen]),
      [
        [true, false, 1, 1],
        [false, false, 1, 1],
        [false, true, 0, 1],
        [true, false, 1, 1],
      ],
    );
  });
});

describe('parseDiffInfo: whitespace, errors and bytes', () => {
  it('reads a whitespace-ignored {a, b, common: true} entry as the edit its bytes are', () => {
    const d = parseDiffInfo(JSON.stringify({ content: [{ a: ['  x'], b: ['    x'], common: true }] }));
    assert.deepEqual(
      d.chunks.map((c) => [c.common, c.a, c.b]),
      [[false, ['  x'], ['    x']]],
    );
  });

  it('rejects what is not a DiffInfo', () => {
    assert.throws(() => parseDiffInfo('{"meta_a": {}}'), /no content/);
    assert.throws(() => parseDiffInfo('{"content": [{"ab": [1]}]}'), /not a list of lines/);
    assert.throws(() => parseDiffInfo('not json'));
  });

  it("gives a side's bytes back from its lines: LF, CRLF, no final newline, empty", () => {
    for (const text of ['a\nb\n', 'a\r\nb\r\n', 'a\nb', '', '\n', 'a\n\n']) {
      const all = text.split('\n');
      assert.equal(sideText(all, 1, all.length), text, JSON.stringify(text));
      assert.equal(
        sideText(all.slice(0, 1), 1, all.length),
        all.length > 1 ? `${all[0]}\n` : all[0],
        JSON.stringify(text),
      );
    }
    assert.deepEqual(['a\nb\n', 'a\nb', '', '\n', 'a\n\n'].map(textLineCount), [2, 2, 0, 1, 2]);
  });
});
