import assert from 'node:assert/strict';
import { detectFlags, fencedBlocks } from './detect';

describe('flag detection', () => {
  const before = 'x = 1\ny = 2\n';
  const after = 'x = 1\ny = compute(2)\n';

  it('flags a fenced block that equals the after side, with the span of the whole block', () => {
    const message = 'Do this:\n```\ny = compute(2)\n```\nthanks';
    const [flag] = detectFlags({ before, after, comments: [{ id: 7, message }] }).filter(
      (f) => f.reason === 'fenced_after_side',
    );
    assert.ok(flag);
    assert.equal(message.slice(flag.commentSpan.start, flag.commentSpan.end), '```\ny = compute(2)\n```');
  });

  it('reads fences line by line: an info string opens, only a bare fence closes, an unclosed one is no block', () => {
    assert.deepEqual(
      fencedBlocks('```py\na\n```python\nb\n```\r\nrest\n```\nopen').map((b) => b.body),
      ['a\n```python\nb\n'],
    );
    assert.deepEqual(fencedBlocks('```'), []);
  });

  it('stays linear on a hostile comment of a megabyte of unclosed fences', () => {
    const message = '```\n'.repeat(10) + 'x\n' + '```py\n'.repeat(170_000);
    assert.ok(message.length > 1_000_000);
    // Quadratic, this took minutes (a lazy regex rescanning to the end for each of 170k openings).
    const blocks = fencedBlocks(message);
    assert.equal(blocks.length, 5);
    assert.deepEqual(
      detectFlags({ before, after, comments: [{ id: 1, message }] }).filter((f) => f.reason === 'fenced_after_side'),
      [],
    );
  });
});
