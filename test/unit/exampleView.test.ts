// The inspector's example documents: whole files with comments on their real lines, the hunk alone as
// the setting or the fallback, and document names made of sanitised host text.
import assert from 'node:assert/strict';
import { buildDiffInfo } from '../fake-gerrit/diffInfo';
import { fileVersionFromText } from '../fake-gerrit/fixtureTypes';
import { anchorComments } from '../../src/core/build/stages/anchoring';
import { parseDiffInfo } from '../../src/core/build/stages/diffInfo';
import type { ExampleComment, ExampleRecord } from '../../src/core/review/inspect/example';
import { exampleView, viewThreads } from '../../src/extension/diff/exampleView';
import { readablePath } from '../../src/extension/diff/docNames';

const file = (n: number, changed?: number) =>
  Array.from({ length: n }, (_, i) => (i + 1 === changed ? `L${i + 1}` : `l${i + 1}`)).join('\n') + '\n';

function record(): { example: ExampleRecord; diff: string } {
  const diff = JSON.stringify(
    buildDiffInfo({
      pathA: 'a.py',
      pathB: 'a.py',
      a: fileVersionFromText(file(20)),
      b: fileVersionFromText(file(20, 12)),
      whitespace: 'IGNORE_NONE',
      shas: ['a'.repeat(40), 'b'.repeat(40)],
    }),
  );
  const [hunk] = anchorComments(parseDiffInfo(diff), [{ first: 12, last: 12 }], {
    aroundLines: 3,
    contextLines: 3,
  }).hunks;
  const comment = {
    id: 1,
    gerritId: 'c1',
    author: 'u_1',
    message: 'x',
    line: 12,
    range: null,
    inReplyTo: null,
    updated: null,
    removedBy: null,
  } satisfies ExampleComment;
  return {
    diff,
    example: {
      id: 1,
      key: 'o/1/1/9/a.py',
      beforeStart: hunk.beforeStart,
      afterStart: hunk.afterStart,
      before: hunk.beforeText,
      after: hunk.afterText,
      comments: [comment],
    } as ExampleRecord,
  };
}

describe('inspector: example documents', () => {
  it('puts a comment on its file line in whole files, and on its hunk line in the hunk alone', () => {
    const { example, diff } = record();
    assert.equal(example.beforeStart, 9);
    const whole = exampleView(example, 'whole', () => diff);
    assert.equal(whole.whole, true);
    assert.equal(whole.before, file(20));
    assert.equal(whole.after, file(20, 12));
    assert.deepEqual(whole.beforeHunk, { from: 8, to: 15 });
    assert.equal(viewThreads(whole)[0].startLine, 11, 'Gerrit line 12 is document line 11 (0-based)');
    const hunk = exampleView(example, 'hunk', () => {
      throw new Error('the hunk alone reads no diff');
    });
    assert.equal(hunk.before, example.before);
    assert.equal(viewThreads(hunk)[0].startLine, 3);
  });

  it('falls back to the hunk alone, saying why, when no diff is stored', () => {
    const { example } = record();
    const v = exampleView(example, 'whole', () => null);
    assert.deepEqual([v.whole, v.fallback, v.before], [false, 'no diff of the file is stored', example.before]);
  });

  it('names a document `/<org> #<change> <file>` with host text cut to safe characters', () => {
    assert.equal(
      readablePath('openstack', 930005, 'nova/compute/manager.py'),
      '/openstack #930005 nova/compute/manager.py',
    );
    assert.equal(readablePath('o', 1, '../../etc/pa\u202Esswd\n.py'), '/o #1 _/_/etc/pa_sswd_.py');
    assert.equal(readablePath('o', 1, 'dir with space/ü.py'), '/o #1 dir_with_space/ü.py');
    const deep = readablePath('o', 1, `${'d/'.repeat(500)}f.py`);
    assert.ok(deep.length < 260 && deep.endsWith('/d/f.py') && deep.includes('…/'), deep);
  });
});
