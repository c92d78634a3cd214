import assert from 'node:assert/strict';
import { findTargetInComments, normaliseLines, targetOf } from './targetInComment';

describe('target_in_comment', () => {
  const before = 'def f(x):\n    a = 1\n    return x+1\n    b = 2\n';
  const after = 'def f(x):\n    a = 1\n    return compute_total(x, 1)\n    b = 2\n';

  it('takes the after side without the context it shares with the before side', () => {
    assert.equal(targetOf(before, after), '    return compute_total(x, 1)');
    assert.equal(targetOf('a\nb\n', 'a\nb\nc\n'), 'c');
    assert.equal(targetOf('same\n', 'same\n'), '');
  });

  it('normalises whitespace per line and drops blank lines', () => {
    assert.equal(normaliseLines('  foo(  a,\tb )  \r\n\n  bar\n'), 'foo( a, b )\nbar');
  });

  it('finds the target typed in a comment, whitespace aside', () => {
    const found = findTargetInComments(before, after, ['nit', 'Should this be   return compute_total(x,  1) ?']);
    assert.deepEqual(found, { comment: 1, target: 'return compute_total(x, 1)' });
  });

  it('needs a multi-line target on consecutive lines of the comment', () => {
    const b = 'x\nold\ny\n';
    const a = 'x\nfirst_new_line(alpha)\nsecond_new_line(beta)\ny\n';
    assert.ok(findTargetInComments(b, a, ['maybe:\n  first_new_line(alpha)\n  second_new_line(beta)\nthanks']));
    assert.equal(findTargetInComments(b, a, ['first_new_line(alpha) and second_new_line(beta)']), null);
  });

  it('ignores targets shorter than 20 characters', () => {
    assert.equal(findTargetInComments('a\nx = 1\nb\n', 'a\nx = 2\nb\n', ['use x = 2']), null);
  });

  it('does not match when the comment says something else', () => {
    assert.equal(findTargetInComments(before, after, ['please add a docstring']), null);
  });
});
