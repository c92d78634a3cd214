// Whole files for the inspector from crafted file pairs, through the real path: the fake Gerrit's
// DiffInfo of the two files (real Gerrit's end-of-file and CRLF conventions), the build's anchoring to
// form the example's hunk, then the files rebuilt byte for byte and the hunk found in them.
import assert from 'node:assert/strict';
import { buildDiffInfo } from '../../../../test/fake-gerrit/diffInfo';
import { fileVersionFromText } from '../../../../test/fake-gerrit/fixtureTypes';
import { anchorComments, type CommentSpan } from '../../build/stages/anchoring';
import { parseDiffInfo } from '../../build/stages/diffInfo';
import { exampleWholeFiles, type ExampleWholeFiles } from './wholeFile';

const RULES = { aroundLines: 3, contextLines: 1 };

function shown(
  a: string | null,
  b: string,
  span: CommentSpan,
  paths: [string, string] = ['f.py', 'f.py'],
): ExampleWholeFiles & { beforeText: string; afterText: string } {
  const json = JSON.stringify(
    buildDiffInfo({
      pathA: paths[0],
      pathB: paths[1],
      a: a === null ? null : fileVersionFromText(a),
      b: fileVersionFromText(b),
      whitespace: 'IGNORE_NONE',
      shas: ['a'.repeat(40), 'b'.repeat(40)],
    }),
  );
  const { hunks } = anchorComments(parseDiffInfo(json), [span], RULES);
  assert.equal(hunks.length, 1, 'the comment anchors one hunk');
  const out = exampleWholeFiles(json, hunks[0]);
  assert.ok(out.ok, out.ok ? '' : out.reason);
  return { ...out, beforeText: hunks[0].beforeText, afterText: hunks[0].afterText };
}

/** The document lines [from, to) as the editor splits them. */
const linesOf = (text: string, s: { from: number; to: number }) => text.split('\n').slice(s.from, s.to);

describe('inspector: whole files from the stored diff', () => {
  it('gives both files of an LF file byte for byte, and the hunk on its real lines', () => {
    const a = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\n';
    const b = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nL11\nl12\n';
    const w = shown(a, b, { first: 11, last: 11 });
    assert.equal(w.before, a);
    assert.equal(w.after, b);
    assert.deepEqual(w.beforeHunk, { from: 9, to: 12 }); // l10..l12: one line of context each side
    assert.deepEqual(linesOf(w.before, w.beforeHunk), ['l10', 'l11', 'l12']);
    assert.deepEqual(linesOf(w.after, w.afterHunk), ['l10', 'L11', 'l12']);
  });

  it('keeps CRLF line ends', () => {
    const a = 'a\r\nb\r\nc\r\nd\r\n';
    const b = 'a\r\nb\r\nC\r\nd\r\n';
    const w = shown(a, b, { first: 3, last: 3 });
    assert.equal(w.before, a);
    assert.equal(w.after, b);
    assert.deepEqual(w.beforeHunk, { from: 1, to: 4 });
  });

  it('keeps a missing final newline, and one added by the next patch set', () => {
    const noEnd = shown('a\nb\nc', 'a\nB\nc', { first: 2, last: 2 });
    assert.equal(noEnd.before, 'a\nb\nc');
    assert.equal(noEnd.after, 'a\nB\nc');
    const added = shown('a\nb\nc', 'a\nb\nc\n', { first: 3, last: 3 });
    assert.equal(added.before, 'a\nb\nc');
    assert.equal(added.after, 'a\nb\nc\n');
  });

  it('shows an empty file as empty, and a file that did not exist as empty', () => {
    const empty = shown('', 'x\ny\n', { first: 1, last: 1 });
    assert.equal(empty.before, '');
    assert.equal(empty.after, 'x\ny\n');
    assert.deepEqual(empty.beforeHunk, { from: 0, to: 0 });
    const added = shown(null, 'x\n', { first: 1, last: 1 });
    assert.equal(added.before, '');
    assert.equal(added.after, 'x\n');
  });

  it("gives a renamed file's old and new text", () => {
    const w = shown('a\nb\nc\n', 'a\nbb\nc\n', { first: 2, last: 2 }, ['old/name.py', 'new/name.py']);
    assert.equal(w.before, 'a\nb\nc\n');
    assert.equal(w.after, 'a\nbb\nc\n');
    assert.deepEqual(linesOf(w.after, w.afterHunk), ['a', 'bb', 'c']);
  });

  it('says why when there is no diff, a skip, or a diff the hunk is not in', () => {
    const hunk = { beforeStart: 1, afterStart: 1, beforeText: 'a\n', afterText: 'b\n' };
    assert.deepEqual(exampleWholeFiles(null, hunk), { ok: false, reason: 'no diff of the file is stored' });
    assert.equal(exampleWholeFiles('{"content":[{"skip":3}]}', hunk).ok, false);
    assert.equal(exampleWholeFiles('{"content":[{"ab":["x",""]}]}', hunk).ok, false);
    assert.match((exampleWholeFiles('not json', hunk) as { reason: string }).reason, /not DiffInfo/);
  });
});
