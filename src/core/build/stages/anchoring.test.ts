import assert from 'node:assert/strict';
import { anchorComments } from './anchoring';
import { parseDiffInfo } from './diffInfo';

const lines = (from: number, to: number, prefix = 'l') =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);
const diff = (content: unknown[], extra: Record<string, unknown> = {}) =>
  parseDiffInfo(JSON.stringify({ content, ...extra }));
const rules = { aroundLines: 3, contextLines: 3 };

// Lines 1..20; line 10 replaced.
const replace10 = diff([{ ab: lines(1, 9) }, { a: ['l10'], b: ['L10'] }, { ab: lines(11, 20) }]);

describe('anchorComments', () => {
  it('forms the hunk of the touched edit with context, both sides numbered', () => {
    const { changedAround, hunks } = anchorComments(replace10, [{ first: 10, last: 10 }], rules);
    assert.deepEqual(changedAround, [true]);
    assert.equal(hunks.length, 1);
    const h = hunks[0];
    assert.deepEqual(
      [h.beforeStart, h.afterStart, h.editLinesBefore, h.editLinesAfter, h.beforeLines, h.afterLines],
      [7, 7, 1, 1, 7, 7],
    );
    assert.equal(h.beforeText, 'l7\nl8\nl9\nl10\nl11\nl12\nl13\n');
    assert.equal(h.afterText, 'l7\nl8\nl9\nL10\nl11\nl12\nl13\n');
  });

  it('decides "changed around" at exactly aroundLines', () => {
    const { changedAround, hunks } = anchorComments(
      replace10,
      [
        { first: 7, last: 7 },
        { first: 6, last: 6 },
        { first: 14, last: 14 },
      ],
      rules,
    );
    assert.deepEqual(changedAround, [true, false, false]);
    assert.equal(hunks.length, 1);
    assert.deepEqual(hunks[0].comments, [0]);
    assert.equal(hunks[0].beforeStart, 7, 'the edit and its context, not the commented line');
  });

  it('lets a pure insertion touch a window it borders', () => {
    // b lines inserted before A line 11 (after line 10).
    const ins = diff([{ ab: lines(1, 10) }, { b: ['new'] }, { ab: lines(11, 20) }]);
    const { changedAround, hunks } = anchorComments(
      ins,
      [
        { first: 7, last: 7 },
        { first: 6, last: 6 },
        { first: 14, last: 14 },
        { first: 15, last: 15 },
      ],
      rules,
    );
    assert.deepEqual(changedAround, [true, false, true, false]);
    assert.equal(hunks.length, 1, 'the two comments share the insertion');
    assert.equal(hunks[0].editLinesBefore, 0);
    assert.equal(hunks[0].editLinesAfter, 1);
  });

  it('takes a range comment from start_line to end_line', () => {
    const { changedAround } = anchorComments(
      replace10,
      [
        { first: 1, last: 7 },
        { first: 1, last: 6 },
      ],
      rules,
    );
    assert.deepEqual(changedAround, [true, false]);
  });
});

describe('anchorComments: merging and context', () => {
  it('merges comments whose hunks overlap and keeps apart those that do not', () => {
    // Edits at 5 and 9 (gap of three common lines 6..8): contexts overlap. Edit at 30 is far away.
    const d = diff([
      { ab: lines(1, 4) },
      { a: ['l5'], b: ['L5'] },
      { ab: lines(6, 8) },
      { a: ['l9'], b: ['L9'] },
      { ab: lines(10, 29) },
      { a: ['l30'], b: ['L30'] },
      { ab: lines(31, 40) },
    ]);
    const { hunks } = anchorComments(
      d,
      [
        { first: 3, last: 3 },
        { first: 11, last: 11 },
        { first: 30, last: 30 },
      ],
      rules,
    );
    assert.equal(hunks.length, 2);
    assert.deepEqual(hunks[0].comments, [0, 1]);
    assert.equal(hunks[0].beforeText, lines(2, 12).join('\n') + '\n');
    assert.equal(
      hunks[0].afterText,
      ['l2', 'l3', 'l4', 'L5', 'l6', 'l7', 'l8', 'L9', 'l10', 'l11', 'l12'].join('\n') + '\n',
    );
    assert.deepEqual(hunks[1].comments, [2]);
  });

  it('never lets context cross into another edit', () => {
    // Edits at 5 and 7, one common line between; a comment on 3 (window 0..6) touches only the first.
    const d = diff([
      { ab: lines(1, 4) },
      { a: ['l5'], b: ['L5'] },
      { ab: ['l6'] },
      { a: ['l7'], b: ['L7'] },
      { ab: lines(8, 12) },
    ]);
    const { hunks } = anchorComments(d, [{ first: 2, last: 2 }], rules);
    assert.equal(hunks[0].afterText, 'l2\nl3\nl4\nL5\nl6\n');
    assert.equal(hunks[0].editLinesAfter, 1);
  });
});

describe('anchorComments: bytes, rebase edits and size', () => {
  it('gives the file bytes back: CRLF, no final newline on one side, non-ASCII', () => {
    // Side A ends in "\r\n" (Gerrit's "" after it), side B lacks a final newline.
    const d = diff([{ ab: ['α\r', 'β\r'] }, { a: ['γ\r', ''], b: ['γ2'] }]);
    const { hunks } = anchorComments(d, [{ first: 3, last: 3 }], rules);
    assert.equal(hunks[0].beforeText, 'α\r\nβ\r\nγ\r\n');
    assert.equal(hunks[0].afterText, 'α\r\nβ\r\nγ2');
    assert.deepEqual([hunks[0].beforeLines, hunks[0].afterLines], [3, 3]);
  });

  it('adds no blank line for the "" Gerrit sends after a final newline', () => {
    const d = diff([{ ab: lines(1, 8) }, { a: ['l9'], b: ['L9'] }, { ab: [''] }]);
    const { hunks } = anchorComments(d, [{ first: 9, last: 9 }], rules);
    assert.equal(hunks[0].beforeText, 'l6\nl7\nl8\nl9\n');
    assert.equal(hunks[0].afterText, 'l6\nl7\nl8\nL9\n');
    assert.deepEqual([hunks[0].beforeLines, hunks[0].afterLines], [4, 4]);
  });

  it('keeps the final newline when the hunk ends before the last line', () => {
    const d = diff([{ a: ['a'], b: ['b'] }, { ab: lines(2, 10) }]);
    const { hunks } = anchorComments(d, [{ first: 1, last: 1 }], rules);
    assert.equal(hunks[0].afterText, 'b\nl2\nl3\nl4\n');
  });

  it('never counts a due_to_rebase edit as an answer, but keeps and counts it inside a hunk', () => {
    const rebaseOnly = diff([
      { ab: lines(1, 4) },
      { a: ['l5'], b: ['upstream 5'], due_to_rebase: true },
      { ab: lines(6, 12) },
    ]);
    const none = anchorComments(rebaseOnly, [{ first: 5, last: 5 }], rules);
    assert.deepEqual([none.changedAround, none.hunks.length], [[false], 0]);

    // The author's edits at 4 and 6 around an upstream line at 5: one hunk, its after side as N + 1 holds it.
    const mixed = diff([
      { ab: lines(1, 3) },
      { a: ['l4'], b: ['L4'] },
      { a: ['l5'], b: ['upstream 5'], due_to_rebase: true },
      { a: ['l6'], b: ['L6'] },
      { ab: lines(7, 12) },
    ]);
    const { changedAround, hunks } = anchorComments(mixed, [{ first: 4, last: 6 }], {
      aroundLines: 0,
      contextLines: 0,
    });
    assert.deepEqual(changedAround, [true]);
    assert.equal(hunks[0].afterText, 'L4\nupstream 5\nL6\n');
    assert.deepEqual([hunks[0].editLinesBefore, hunks[0].editLinesAfter, hunks[0].rebaseEditedLines], [2, 2, 2]);
  });

  it('forms the hunk of a 200k-line edit without running out of stack', () => {
    // Spreading 200k lines into push() overflowed the stack and failed the whole build.
    const d = diff([{ a: lines(1, 200_000), b: lines(1, 200_000, 'L') }, { ab: [''] }]);
    const { hunks } = anchorComments(d, [{ first: 5, last: 5 }], rules);
    assert.deepEqual([hunks[0].beforeLines, hunks[0].afterLines, hunks[0].editLinesAfter], [200_000, 200_000, 200_000]);
  });
});
