// Where the inspector draws a comment: Gerrit's exact range, made safe for VS Code.
import assert from 'node:assert/strict';
import { exactRange, groupThreads } from '../../src/extension/diff/threads';
import type { ExampleComment } from '../../src/core/review/inspect/example';

const comment = (over: Partial<ExampleComment>): ExampleComment =>
  ({
    gerritId: 'c1',
    author: 'u_1',
    message: 'x',
    line: 12,
    range: null,
    inReplyTo: null,
    removedBy: null,
    ...over,
  }) as ExampleComment;

describe('comment ranges in the inspector', () => {
  it("ends a range at character 0 on the line before, as Gerrit's exclusive end means", () => {
    // Whole lines 10 and 11 selected in Gerrit's UI: end_line 12, end_character 0.
    const c = comment({ range: { startLine: 10, startCharacter: 0, endLine: 12, endCharacter: 0 } });
    assert.deepEqual(exactRange(c, 1), { first: 10, last: 11, startCharacter: 0, endCharacter: undefined });
    const [t] = groupThreads({
      comments: [c],
      beforeStart: 8,
      before: Array.from({ length: 8 }, (_, i) => `l${i + 8}`).join('\n') + '\n',
    });
    assert.deepEqual([t.startLine, t.endLine, t.endCharacter], [2, 3, undefined]);
  });

  it('keeps a range ending inside its line as it is', () => {
    assert.deepEqual(
      exactRange(comment({ range: { startLine: 10, startCharacter: 4, endLine: 10, endCharacter: 9 } }), 1),
      { first: 10, last: 10, startCharacter: 4, endCharacter: 9 },
    );
  });

  it('clamps negative or non-integer characters from a host instead of passing them to VS Code', () => {
    assert.deepEqual(
      exactRange(comment({ range: { startLine: 3, startCharacter: -5, endLine: 4, endCharacter: -1 } }), 1),
      { first: 3, last: 3, startCharacter: 0, endCharacter: undefined },
      'a negative end reads as 0: nothing of line 4',
    );
    assert.equal(
      exactRange(comment({ range: { startLine: 3, startCharacter: 2.7, endLine: 4, endCharacter: Number.NaN } }), 1)
        .endCharacter,
      undefined,
    );
  });
});
