// Search/Replace blocks from crafted file pairs, through the real path: the fake Gerrit's DiffInfo of
// the two files (its end-of-file and CRLF conventions are real Gerrit's), the build's own anchoring
// to form the example's hunk, then blocks and verification. A property test runs random file pairs.
import assert from 'node:assert/strict';
import { buildDiffInfo } from '../../../../../test/fake-gerrit/diffInfo';
import { fileVersionFromText } from '../../../../../test/fake-gerrit/fixtureTypes';
import { seededRandom } from '../../../../../test/fake-gerrit/faults';
import { anchorComments, type CommentSpan } from '../../../build/stages/anchoring';
import { parseDiffInfo } from '../../../build/stages/diffInfo';
import { exampleSearchReplace, renderBlocks, type SearchReplaceOutcome } from './exampleBlocks';
import { applyBlocks, sha256Hex, verifyBlocks } from './verify';

const RULES = { aroundLines: 3, contextLines: 3 };

/** DiffInfo JSON of patch set N (`a`) → N + 1 (`b`), as the fake Gerrit serves it with whitespace=IGNORE_NONE. */
function diffJson(a: string, b: string, parents?: [string, string]): string {
  return JSON.stringify(
    buildDiffInfo({
      pathA: 'f.py',
      pathB: 'f.py',
      a: fileVersionFromText(a),
      b: fileVersionFromText(b),
      whitespace: 'IGNORE_NONE',
      shas: ['a'.repeat(40), 'b'.repeat(40)],
      parents: parents && [fileVersionFromText(parents[0]), fileVersionFromText(parents[1])],
    }),
  );
}

/** The example the build forms for a comment spanning `span` (1-based lines of `a`), as Search/Replace. */
function example(
  a: string,
  b: string,
  opts: { span?: CommentSpan; mergeGapLines?: number; parents?: [string, string]; rules?: typeof RULES } = {},
): SearchReplaceOutcome {
  const json = diffJson(a, b, opts.parents);
  const diff = parseDiffInfo(json);
  const span = opts.span ?? { first: 1, last: Math.max(1, diff.aLines) };
  const { hunks } = anchorComments(diff, [span], opts.rules ?? RULES);
  assert.equal(hunks.length, 1, 'the comment anchors one hunk');
  return exampleSearchReplace(json, hunks[0], opts.mergeGapLines ?? 2);
}

function verified(sr: SearchReplaceOutcome) {
  assert.ok(sr.ok, sr.ok ? '' : `${sr.reason}: ${sr.detail}`);
  return sr;
}

describe('Search/Replace export: blocks', () => {
  it('grows a SEARCH over repeated lines, above first, until it occurs once', () => {
    const a = 'a\nx = 1\nb\nx = 1\nc\n';
    const sr = verified(example(a, 'a\nx = 1\nb\nx = 2\nc\n'));
    // "x = 1\n" occurs twice; with "b\n" above it, once.
    assert.deepEqual(sr.blocks, [{ search: 'b\nx = 1\n', replace: 'b\nx = 2\n' }]);
    assert.equal(applyBlocks(sr.base, sr.blocks), 'a\nx = 1\nb\nx = 2\nc\n');
    // Above, then below, in turn: "b\nx\n" is still twice, "b\nx\nd\n" once (above again would take "a\nb\nx\n", twice, then "c\na\nb\nx\n").
    const turns = verified(
      example('a\nb\nx\nc\na\nb\nx\nd\n', 'a\nb\nx\nc\na\nb\nX\nd\n', { span: { first: 7, last: 7 } }),
    );
    assert.deepEqual(turns.blocks, [{ search: 'b\nx\nd\n', replace: 'b\nX\nd\n' }]);
  });

  it('keeps a SEARCH that is unique already as the edited lines alone', () => {
    const sr = verified(example('a\nb\nc\n', 'a\nB\nc\n'));
    assert.deepEqual(sr.blocks, [{ search: 'b\n', replace: 'B\n' }]);
  });

  it('grows below when an edit at the very start of the file has nothing above', () => {
    const sr = verified(example('x\nx\ny\n', 'z\nx\ny\n'));
    assert.deepEqual(sr.blocks, [{ search: 'x\nx\n', replace: 'z\nx\n' }]);
    assert.equal(applyBlocks(sr.base, sr.blocks), 'z\nx\ny\n');
  });

  it('inserts before the first line of a file', () => {
    const sr = verified(example('a\nb\n', 'new\na\nb\n'));
    assert.deepEqual(sr.blocks, [{ search: 'a\n', replace: 'new\na\n' }]);
  });

  it('edits at the very end: appends to a file without a final newline, and deletes its last line', () => {
    const appended = verified(example('a\nb', 'a\nb\nc'));
    assert.deepEqual(appended.blocks, [{ search: 'b', replace: 'b\nc' }]);
    assert.equal(applyBlocks(appended.base, appended.blocks), 'a\nb\nc');
    const deleted = verified(example('a\nb\nc', 'a\nb'));
    assert.deepEqual(deleted.blocks, [{ search: '\nc', replace: '' }]);
    assert.equal(applyBlocks(deleted.base, deleted.blocks), 'a\nb');
  });

  it('adds and removes a final newline, byte for byte', () => {
    const removed = verified(example('a\nb\n', 'a\nb'));
    assert.equal(applyBlocks(removed.base, removed.blocks), 'a\nb');
    assert.equal(removed.target_sha256, sha256Hex('a\nb'));
    const added = verified(example('a\nb', 'a\nb\n'));
    assert.equal(applyBlocks(added.base, added.blocks), 'a\nb\n');
    assert.equal(added.base_sha256, sha256Hex('a\nb'));
  });

  it('keeps CRLF line ends as content: the "\\r" stays in SEARCH and REPLACE', () => {
    const sr = verified(example('a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\n'));
    assert.deepEqual(sr.blocks, [{ search: 'b\r\n', replace: 'B\r\n' }]);
    assert.equal(sr.target_sha256, sha256Hex('a\r\nB\r\nc\r\n'));
    const lastLine = verified(example('a\r\nb\r\nc', 'a\r\nb\r\nC'));
    assert.deepEqual(lastLine.blocks, [{ search: 'c', replace: 'C' }]);
  });
});

describe("Search/Replace export: merged blocks and the hunk's edits", () => {
  it('merges two edits one line apart into one block, and keeps them apart with mergeGapLines 0', () => {
    const a = 'p\nq\nr\ns\nt\n';
    const b = 'p\nQ\nr\nS\nt\n';
    assert.deepEqual(verified(example(a, b)).blocks, [{ search: 'q\nr\ns\n', replace: 'Q\nr\nS\n' }]);
    const apart = verified(example(a, b, { mergeGapLines: 0 }));
    assert.deepEqual(apart.blocks, [
      { search: 'q\n', replace: 'Q\n' },
      { search: 's\n', replace: 'S\n' },
    ]);
    assert.equal(applyBlocks(apart.base, apart.blocks), b);
  });

  it('sr_overlap: two blocks one line apart that both need the line between them', () => {
    // "b" and "d" each occur twice; "b\nc\n" and "c\nd\n" once: both SEARCHes take the "c" between them.
    const a = 'b\nc\nd\nb\nx\ny\nd\n';
    const b = 'B\nc\nD\nb\nx\ny\nd\n';
    const sr = example(a, b, { mergeGapLines: 0, span: { first: 1, last: 3 } });
    assert.equal(sr.ok, false);
    assert.equal(sr.reason, 'sr_overlap', sr.ok ? '' : sr.detail);
    // Merged (the default gap), the same edits are one verified block.
    assert.deepEqual(verified(example(a, b, { span: { first: 1, last: 3 } })).blocks, [
      { search: 'b\nc\nd\n', replace: 'B\nc\nD\n' },
    ]);
  });

  it('sr_not_unique: a file whose halves are identical, edited the same way at the start of each', () => {
    const half = 'import os\ndef f():\n    return 1\n\n';
    const edited = 'import sys\ndef f():\n    return 1\n\n';
    const sr = example(half + half, edited + edited);
    assert.equal(sr.ok, false);
    assert.equal(sr.reason, 'sr_not_unique');
    assert.match(sr.ok ? '' : sr.detail, /block 1's SEARCH occurs 2 times/);
  });

  it("applies only the example's hunk: an edit elsewhere in the file stays as in patch set N", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    const a = lines.join('\n') + '\n';
    const b = lines.map((l, i) => (i === 4 ? 'LINE 5' : i === 34 ? 'LINE 35' : l)).join('\n') + '\n';
    const sr = verified(example(a, b, { span: { first: 5, last: 5 } }));
    assert.equal(sr.edits_outside_hunk, 1);
    assert.equal(sr.after_sha256, sha256Hex(b));
    const onlyThisHunk = lines.map((l, i) => (i === 4 ? 'LINE 5' : l)).join('\n') + '\n';
    assert.equal(applyBlocks(sr.base, sr.blocks), onlyThisHunk);
    assert.equal(sr.target_sha256, sha256Hex(onlyThisHunk));
    // A hunk holding every edit of the file turns N into N + 1's whole file.
    const whole = verified(example(a, b, { span: { first: 1, last: 40 } }));
    assert.equal(whole.edits_outside_hunk, 0);
    assert.equal(whole.target_sha256, whole.after_sha256);
  });

  it("applies a due_to_rebase edit inside the hunk, as the example's after side holds it", () => {
    // The middle line changed upstream (between the parents); the author edited the first and last.
    const parents: [string, string] = ['p\nk\nmid\nk2\nq\n', 'p\nk\nMID\nk2\nq\n'];
    const a = 'first\nk\nmid\nk2\nlast\n';
    const b = 'FIRST\nk\nMID\nk2\nLAST\n';
    const diff = JSON.parse(diffJson(a, b, parents));
    assert.deepEqual(
      diff.content.filter((c: { due_to_rebase?: boolean }) => c.due_to_rebase),
      [{ a: ['mid'], b: ['MID'], due_to_rebase: true }],
    );
    const sr = verified(example(a, b, { parents, span: { first: 1, last: 5 }, mergeGapLines: 0 }));
    assert.equal(sr.blocks.length, 3);
    assert.equal(applyBlocks(sr.base, sr.blocks), b);
    assert.equal(sr.edits_outside_hunk, 0);
  });

  it('includes an edit that only removes the final newline when it ends the hunk', () => {
    const sr = verified(example('x\ny\n', 'x\ny', { span: { first: 2, last: 2 } }));
    assert.equal(sr.edits_outside_hunk, 0);
    assert.equal(applyBlocks(sr.base, sr.blocks), 'x\ny');
  });
});

describe('Search/Replace export: failures and rendering', () => {
  it('fails honestly: sr_mismatch when a block set does not give the target, sr_no_diff without the whole files', () => {
    assert.deepEqual(verifyBlocks('a\nb\n', [{ search: 'b\n', replace: 'c\n' }], sha256Hex('a\nB\n')).ok, false);
    assert.equal(
      (verifyBlocks('a\nb\n', [{ search: 'b\n', replace: 'c\n' }], sha256Hex('a\nB\n')) as { reason: string }).reason,
      'sr_mismatch',
    );
    // A later SEARCH found first inside an earlier REPLACE: applied in order, the result is wrong.
    const v = verifyBlocks(
      'k\nm\n',
      [
        { search: 'k\n', replace: 'k\nm\n' },
        { search: 'm\n', replace: 'M\n' },
      ],
      sha256Hex('k\nm\nM\n'),
    );
    assert.equal(v.ok ? '' : v.reason, 'sr_mismatch');
    const skipped = exampleSearchReplace(
      JSON.stringify({ content: [{ skip: 3 }] }),
      { beforeStart: 1, afterStart: 1, beforeText: 'a', afterText: 'b' },
      2,
    );
    assert.equal(skipped.ok ? '' : skipped.reason, 'sr_no_diff');
    assert.equal(
      (
        exampleSearchReplace(null, { beforeStart: 1, afterStart: 1, beforeText: '', afterText: 'x' }, 2) as {
          reason: string;
        }
      ).reason,
      'sr_no_diff',
    );
  });

  it("renders the blocks under a ### path header with the usual markers, the path's controls escaped", () => {
    assert.equal(
      renderBlocks('src/f.py', [
        { search: 'a\n', replace: 'b\n' },
        { search: 'c', replace: '' },
      ]),
      '### src/f.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\nc\n=======\n>>>>>>> REPLACE\n',
    );
    assert.equal(renderBlocks('x\n<<<<<<< SEARCH', []), '### x\\x0a<<<<<<< SEARCH\n');
  });
});

describe('Search/Replace export: property', () => {
  it('property: random file pairs (repeats, CRLF, no final newline) round-trip to the target, and to N + 1 when the hunk holds every edit', () => {
    const random = seededRandom(17);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    const vocabulary = ['x', 'y', 'return 0', '', '}', '    pass', 'z\r'];
    const file = (n: number) => {
      const lines = Array.from({ length: n }, () => pick(vocabulary));
      return lines.length === 0 ? '' : lines.join('\n') + (random() < 0.7 ? '\n' : '');
    };
    const edit = (text: string) => {
      const lines = text === '' ? [] : text.split('\n');
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--) {
        const at = Math.floor(random() * (lines.length + 1));
        const op = random();
        if (op < 0.4) lines.splice(at, 0, pick(vocabulary) + '!');
        else if (op < 0.7 && lines.length > 0) lines.splice(Math.min(at, lines.length - 1), 1);
        else if (lines.length > 0) lines[Math.min(at, lines.length - 1)] += '?';
      }
      return lines.join('\n');
    };
    let ok = 0;
    let wholeFile = 0;
    const failures: Record<string, number> = {};
    for (let i = 0; i < 400; i++) {
      const a = file(Math.floor(random() * 14));
      const b = edit(a);
      if (a === b) continue;
      const diff = parseDiffInfo(diffJson(a, b));
      const first = 1 + Math.floor(random() * Math.max(1, diff.aLines));
      const big = random() < 0.5;
      const { hunks } = anchorComments(
        diff,
        [{ first: big ? 1 : first, last: big ? Math.max(1, diff.aLines) : first }],
        big ? { aroundLines: 100, contextLines: 100 } : RULES,
      );
      for (const h of hunks) {
        const sr = exampleSearchReplace(diffJson(a, b), h, Math.floor(random() * 3));
        if (!sr.ok) {
          assert.notEqual(sr.reason, 'sr_no_diff', `case ${i}: ${JSON.stringify([a, b])} ${sr.detail}`);
          failures[sr.reason] = (failures[sr.reason] ?? 0) + 1;
          continue;
        }
        ok++;
        assert.equal(sha256Hex(sr.base), sha256Hex(a), `case ${i}: the base file rebuilt byte for byte`);
        assert.equal(sr.after_sha256, sha256Hex(b), `case ${i}: N + 1's file rebuilt byte for byte`);
        assert.equal(sha256Hex(applyBlocks(sr.base, sr.blocks)), sr.target_sha256, `case ${i}`);
        if (sr.edits_outside_hunk === 0) {
          wholeFile++;
          assert.equal(applyBlocks(a, sr.blocks), b, `case ${i}: ${JSON.stringify([a, b, sr.blocks])}`);
        }
      }
    }
    assert.ok(
      ok > 200 && wholeFile > 100,
      `${ok} verified, ${wholeFile} to N + 1's whole file; failed ${JSON.stringify(failures)}`,
    );
  });
});
