import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { DEFAULT_RULES } from '../ruleParameters';
import { automaticWindows, findProtectedOverlaps } from './decontaminate';
import { ProtectedMatcher, type ExampleTexts, type ReferenceText } from './matcher';
import { matchingPolicy } from './policy';

const DEFAULT_POLICY = matchingPolicy(DEFAULT_RULES);
const ref = (id: string, field: ReferenceText['field'], text: string, set = 'bench-test'): ReferenceText => ({
  set,
  id,
  field,
  text,
});
const example = (over: Partial<ExampleTexts> = {}): ExampleTexts => ({
  before: 'int a = 0;\n',
  after: 'int a = 1;\n',
  comments: [{ id: 'c1', message: 'use one here' }],
  ...over,
});

describe('ProtectedMatcher, default policies', () => {
  const method = 'public int size() {\n    return count;\n}';
  const matcher = new ProtectedMatcher(
    [
      ref('m1', 'before', method),
      ref('m2', 'after', 'x = 1'),
      ref('c1', 'comment', 'Please add a unit test for the empty case.'),
      ref('blank', 'after', '  \n\t'),
    ],
    DEFAULT_POLICY,
  );

  it('matches a whole side, whitespace collapsed, against either reference side', () => {
    const m = matcher.match(example({ after: 'public   int size() {\n\treturn count;\n}\n' }));
    assert.deepEqual(m && [m.policy, m.id, m.side, m.start, m.end], [
      'whole_side',
      'm1',
      'after',
      0,
      'public   int size() {\n\treturn count;\n}'.length,
    ]);
  });

  it('finds a complete reference side inside a longer side, and reports its span in the raw text', () => {
    const before = 'class A {\n  public int size() {\n      return count;\n  }\n  int other;\n}\n';
    const m = matcher.match(example({ before }));
    assert.equal(m?.policy, 'side_substring');
    assert.equal(before.slice(m!.start, m!.end), 'public int size() {\n      return count;\n  }');
  });

  it('needs token boundaries at both ends of a substring: "x = 1" is not inside "max = 10"', () => {
    assert.equal(matcher.match(example({ before: 'int max = 10;' })), null);
    assert.equal(matcher.match(example({ before: 'int x = 1;' }))?.id, 'm2');
  });

  it('never matches an empty or whitespace-only reference side (it would be inside everything)', () => {
    assert.equal(matcher.match(example({ before: '  \n\t', after: 'y' })), null);
  });

  it('matches a whole comment, whitespace collapsed, naming the comment', () => {
    const m = matcher.match(
      example({
        comments: [
          { id: 'k0', message: 'fine' },
          { id: 'g1', message: 'Please add a unit test\nfor the empty case.' },
        ],
      }),
    );
    assert.deepEqual(m && [m.policy, m.id, m.side, m.commentId, m.start, m.end], [
      'whole_comment',
      'c1',
      'comment',
      'g1',
      0,
      'Please add a unit test\nfor the empty case.'.length,
    ]);
  });

  it('matches a run of at least 5 word-like tokens shared with a reference comment, but not of 4', () => {
    const message = 'Nit: we should add a unit test, for this.';
    const m = matcher.match(example({ comments: [{ id: 'g2', message }] }));
    assert.equal(m?.policy, 'comment_substring');
    assert.equal(message.slice(m!.start, m!.end), 'add a unit test, for');
    assert.equal(matcher.match(example({ comments: [{ id: 'g3', message: 'maybe add a unit test?' }] })), null);
  });

  it('leaves the optional policies off by default: a shared 15-gram or a Jaccard of 0.9 alone does not match', () => {
    const long = Array.from({ length: 20 }, (_, i) => `t${i}`).join(' ');
    const m = new ProtectedMatcher([ref('r', 'before', `${long} end`)], DEFAULT_POLICY);
    assert.equal(m.match(example({ before: `start ${long}` })), null);
  });
});

describe('ProtectedMatcher, optional policies', () => {
  const long = Array.from({ length: 20 }, (_, i) => `t${i}`).join(' ');

  it('shared_ngram: any 15 consecutive whitespace tokens in common', () => {
    const m = new ProtectedMatcher([ref('r', 'before', `${long} end`)], { ...DEFAULT_POLICY, ngramTokens: 15 });
    const before = `start ${long}`;
    const hit = m.match(example({ before }));
    assert.equal(hit?.policy, 'shared_ngram');
    assert.equal(before.slice(hit!.start, hit!.end), long);
    assert.equal(m.match(example({ before: long.split(' ').slice(0, 14).join(' ') })), null);
  });

  it('token_jaccard: the sets of distinct whitespace tokens of a side and a reference side', () => {
    const m = new ProtectedMatcher([ref('r', 'after', 'a b c d')], {
      ...DEFAULT_POLICY,
      wholeSide: false,
      sideSubstring: false,
      tokenJaccard: 0.5,
    });
    const hit = m.match(example({ before: 'd c a x x' }));
    assert.deepEqual(hit && [hit.policy, hit.jaccard], ['token_jaccard', 0.6]);
    assert.equal(m.match(example({ before: 'a b x y z' })), null, 'J = 2/7');
  });

  it('file_sha256: the whole file at N or N + 1, byte for byte', () => {
    const file = 'line 1\nline 2\n';
    const digest = (s: string) => createHash('sha256').update(s).digest('hex');
    const m = new ProtectedMatcher([ref('f', 'before', file)], { ...DEFAULT_POLICY, fileSha256: true });
    const e = example({
      before: 'line 2\n',
      after: 'line 3\n',
      fileSha256: { before: digest('x'), after: digest(file) },
    });
    assert.deepEqual(m.match(e) && [m.match(e)!.policy, m.match(e)!.side], ['file_sha256', 'after']);
    assert.equal(new ProtectedMatcher([ref('f', 'before', file)], DEFAULT_POLICY).match(e), null);
  });
});

describe('findProtectedOverlaps', () => {
  const cand = (key: string, window: string | null, before: string, comments: string[] = []) => ({
    key,
    window,
    texts: {
      before,
      after: `${before} // changed`,
      comments: comments.map((m, i) => ({ id: `${key}-${i}`, message: m })),
    },
  });
  const windows = { protectedWindows: automaticWindows(['pilot', 'train', 'dev', 'test']), policy: DEFAULT_POLICY };

  it('checks every window against registered sets, and train against every other window when cross-window is on', () => {
    const candidates = [
      cand('dev/1', 'dev', 'int shared = 1;'),
      cand('train/1', 'train', 'int shared = 1;'),
      cand('train/2', 'train', 'int other = 2;'),
      cand('pilot/1', 'pilot', 'int bench = 3;'),
      cand('train/3', 'train', 'x(); int onlyInDev = 4;'),
      cand('dev/2', 'dev', 'int onlyInDev = 4;'),
    ];
    const found = findProtectedOverlaps(candidates, [ref('b1', 'before', 'int bench = 3;')], DEFAULT_POLICY, windows);
    const byKey = new Map([...found].map(([i, m]) => [candidates[i].key, `${m.set} ${m.id} ${m.policy}`]));
    assert.deepEqual(Object.fromEntries(byKey), {
      'pilot/1': 'bench-test b1 whole_side',
      'train/1': 'window:dev dev/1 whole_side',
      'train/3': 'window:dev dev/2 side_substring',
    });
    const off = findProtectedOverlaps(candidates, [ref('b1', 'before', 'int bench = 3;')], DEFAULT_POLICY);
    assert.deepEqual(
      [...off.keys()].map((i) => candidates[i].key),
      ['pilot/1'],
      'without the cross-window pass (off), only the registered set',
    );
  });

  it("checks train against other windows under the cross-window policy, not the registered sets'", () => {
    const candidates = [
      cand('dev/1', 'dev', 'int a = 1;', ['please add a unit test for this']),
      cand('train/1', 'train', 'int b = 2;', ['could you add a unit test for this case']),
    ];
    const strict = { ...windows, policy: { ...DEFAULT_POLICY, commentTokens: 8 } };
    assert.equal(findProtectedOverlaps(candidates, [], DEFAULT_POLICY, strict).size, 0, '6 shared tokens < 8');
    const found = findProtectedOverlaps(candidates, [], { ...DEFAULT_POLICY, commentTokens: 0 }, windows);
    assert.deepEqual(
      [...found].map(([i, m]) => [candidates[i].key, m.policy, m.referenceMatched]),
      [['train/1', 'comment_substring', 'add a unit test for this']],
      "the cross-window policy's 5 tokens, whatever the registered sets' policy; the other window's matched text",
    );
  });

  it('protects nothing automatically in a corpus without a window named train', () => {
    const candidates = [cand('a', 'early', 'int shared = 1;'), cand('b', 'late', 'int shared = 1;')];
    const cross = { protectedWindows: automaticWindows(['early', 'late']), policy: DEFAULT_POLICY };
    assert.equal(findProtectedOverlaps(candidates, [], DEFAULT_POLICY, cross).size, 0);
  });

  it('does not protect train with a dev example that a registered set removed', () => {
    const candidates = [
      cand('dev/1', 'dev', 'int devOnly = 3;', ['one two three four five']),
      cand('train/1', 'train', 'y(); int devOnly = 3; z();'),
    ];
    const found = findProtectedOverlaps(
      candidates,
      [ref('b1', 'comment', 'one two three four five six')],
      DEFAULT_POLICY,
      windows,
    );
    assert.deepEqual(
      [...found.keys()],
      [0],
      'dev/1 goes (registered set); train/1 stays, since dev/1 is no longer in dev',
    );
    assert.deepEqual(
      [...findProtectedOverlaps(candidates, [], DEFAULT_POLICY, windows).keys()],
      [1],
      'without the set, dev/1 protects train/1',
    );
  });
});
