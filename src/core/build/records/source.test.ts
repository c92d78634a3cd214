import assert from 'node:assert/strict';
import { changeUrl, exampleSource, hunkLines, type SourceRow, type StoredRevisions } from './source';
import { recordFieldRows } from './recordSchema';

const row: SourceRow = {
  url: 'https://review.example.org/r',
  project: 'openstack/nova',
  number: 930001,
  path: 'nova/a.py',
  ps_before: 1,
  ps_after: 2,
  before_start: 10,
  after_start: 11,
  before_text: 'a\nb\n',
  after_text: 'a\nB\n',
};
const stored: StoredRevisions = {
  revisionBefore: '1'.repeat(40),
  revisionAfter: '2'.repeat(40),
  kindAfter: 'REWORK',
  targetPath: null,
  status: null,
};

describe('source of a published record', () => {
  it('hunkLines: the lines a text covers as an editor counts them; an empty text is null (Gerrit\'s final "" is no line)', () => {
    const cases: [number, string, [number, number] | null][] = [
      [5, '', null],
      [5, 'one\n', [5, 5]],
      [5, 'one', [5, 5]], // the file's last line, without a final newline
      [5, 'one\ntwo\n', [5, 6]],
      [5, 'one\r\ntwo\r\n', [5, 6]], // CRLF: "\r" is part of the line
      [5, 'one\r\ntwo', [5, 6]],
      [1, '\n', [1, 1]], // one empty line
    ];
    for (const [first, text, want] of cases) assert.deepEqual(hunkLines(first, text), want, JSON.stringify(text));
  });

  it('a hunk empty on one side: that side has no lines; a file N + 1 deleted (or added) has no path there', () => {
    const deleted = exampleSource({ ...row, after_text: '' }, { ...stored, status: 'D' });
    assert.equal(deleted.lines_after, null);
    assert.equal(deleted.file_after, null);
    assert.deepEqual(deleted.lines_before, [10, 11]);
    assert.equal(deleted.file_before, 'nova/a.py');
    const added = exampleSource({ ...row, before_text: '' }, { ...stored, status: 'A' });
    assert.equal(added.lines_before, null);
    assert.equal(added.file_before, null);
    assert.deepEqual(added.lines_after, [11, 12]);
    assert.equal(added.file_after, 'nova/a.py');
  });

  it('follows a rename to the path at N + 1, and marks only an unrecorded kind', () => {
    const renamed = exampleSource(row, { ...stored, targetPath: 'nova/b.py', status: null });
    assert.deepEqual([renamed.file_before, renamed.file_after], ['nova/a.py', 'nova/b.py']);
    assert.equal('kind_unrecorded' in renamed, false, 'absent where the kind was recorded');
    assert.equal(exampleSource(row, { ...stored, kindAfter: null }).kind_unrecorded, true);
  });

  it('change_url: the host as configured, each project segment encoded, so a host cannot add a query, fragment or segment', () => {
    assert.equal(exampleSource(row, stored).change_url, 'https://review.example.org/r/c/openstack/nova/+/930001');
    assert.equal(changeUrl('https://h.example/', 'a b/c?d#e/f%', 7), 'https://h.example/c/a%20b/c%3Fd%23e/f%25/+/7');
    for (const moving of ['a/../b', './a', 'a//b', '/a', 'a/'])
      assert.equal(changeUrl('https://h.example', moving, 7), 'https://h.example/c/7', moving);
  });

  it('host: the configured URL without a trailing "/" or any user name and password in it', () => {
    assert.equal(
      exampleSource({ ...row, url: 'https://review.example.org/r/' }, stored).host,
      'https://review.example.org/r',
    );
    const secret = exampleSource({ ...row, url: 'https://alice:s3cret@review.example.org/r' }, stored);
    assert.equal(secret.host, 'https://review.example.org/r');
    assert.doesNotMatch(JSON.stringify(secret), /alice|s3cret/);
  });

  it("the schema's optional fields say when they are absent", () => {
    const optional = recordFieldRows().filter((r) => r.optional);
    assert.deepEqual(
      optional.map((r) => r.field),
      [
        'comments[].rewritten_comment',
        'comments[].rewritten_comment.curev',
        'comments[].rewritten_comment.curev+',
        'source.kind_unrecorded',
      ],
    );
    for (const r of optional.filter((o) => !o.field.includes('curev'))) assert.match(r.description, /absent/, r.field);
  });
});
