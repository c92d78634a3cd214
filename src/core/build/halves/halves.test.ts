import assert from 'node:assert/strict';
import { halfOf, suffixOf, totalVariation } from './halves';

describe('halves', () => {
  it('splits by project lists, leaving other projects unassigned', () => {
    const cfg = { window: 'train', by: 'projects' as const, a: ['openstack/nova'], b: ['openstack/cinder'] };
    assert.equal(halfOf(cfg, 'openstack', 1, 'openstack/nova'), 'a');
    assert.equal(halfOf(cfg, 'openstack', 1, 'openstack/cinder'), 'b');
    assert.equal(halfOf(cfg, 'openstack', 1, 'openstack/swift'), null);
  });

  it('splits by a salted hash of the change number: stable, and about even', () => {
    const cfg = { window: 'train', by: 'hash' as const, salt: 's' };
    assert.equal(halfOf(cfg, 'qt', 600101, 'x'), halfOf(cfg, 'qt', 600101, 'y'), 'the project does not matter');
    let a = 0;
    for (let n = 0; n < 2000; n++) if (halfOf(cfg, 'qt', n, 'p') === 'a') a++;
    assert.ok(a > 900 && a < 1100, `${a} of 2000 in half a`);
    const other = { ...cfg, salt: 't' };
    let moved = 0;
    for (let n = 0; n < 200; n++) if (halfOf(cfg, 'qt', n, 'p') !== halfOf(other, 'qt', n, 'p')) moved++;
    assert.ok(moved > 50, 'another salt gives another split');
  });

  it('measures the total variation distance between suffix mixes', () => {
    assert.equal(totalVariation({ '.py': 2, '.rst': 2 }, { '.py': 1, '.rst': 1 }), 0);
    assert.equal(totalVariation({ '.py': 1 }, { '.rst': 3 }), 1);
    assert.ok(Math.abs(totalVariation({ '.py': 3, '.rst': 1 }, { '.py': 1, '.rst': 1 }) - 0.25) < 1e-12);
  });

  it('takes the suffix, or the file name when there is none', () => {
    assert.equal(suffixOf('nova/api/x.py'), '.py');
    assert.equal(suffixOf('tools/Makefile'), 'Makefile');
  });
});
