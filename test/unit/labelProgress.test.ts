// Labelling progress on the hand-built audit corpus (auditFixture.ts) in a real sql.js file: labelled /
// total for the audit sample, for a tree filter, and for Kept when the filter names no rule; only the
// rater's own labels count, and a label of an example outside the scope does not.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditItems, drawAuditSample } from '../../src/core/review/labels/auditSample';
import { setLabel } from '../../src/core/review/labels/labels';
import { describeProgress, scopeLabelled, scopeTotal } from '../../src/core/review/labels/labelProgress';
import { buildAuditFixture, keyOf } from './auditFixture';

describe('labelling progress', () => {
  it('counts the rater’s labels of the scope’s examples, of all the scope holds', async () => {
    const store = await buildAuditFixture(path.join(mkdtempSync(path.join(tmpdir(), 'rc-progress-')), 'c.sqlite'));
    // Build 2 keeps 10 (o1 left as suggested_edit): openstack train o2–o6, dev o7–o8, qt train q1–q3.
    assert.equal(scopeTotal(store, 2, {}), 10, 'no filter: the kept examples');
    assert.equal(scopeTotal(store, 2, { org: 'openstack', window: 'train' }), 5);
    assert.equal(scopeTotal(store, 2, { rule: 'suggested_edit' }), 1);
    assert.equal(scopeTotal(store, 2, { flagged: true }), 1, 'o3 has an open flag');

    store.transaction(() => {
      setLabel(store, keyOf('o2'), 'me', 'answers', 't');
      setLabel(store, keyOf('o7'), 'me', 'unsure', 't');
      setLabel(store, keyOf('o1'), 'me', 'does_not', 't'); // removed in build 2: outside Kept
      setLabel(store, keyOf('o3'), 'someone-else', 'answers', 't');
    });
    assert.equal(scopeLabelled(store, 2, 'me', {}), 2);
    assert.equal(scopeLabelled(store, 2, 'me', { org: 'openstack', window: 'train' }), 1);
    assert.equal(scopeLabelled(store, 2, 'me', { rule: 'suggested_edit' }), 1);
    assert.equal(scopeLabelled(store, 2, 'someone-else', {}), 1);
    assert.equal(scopeLabelled(store, 1, 'me', {}), 3, 'build 1 kept o1 too');

    const sample = store.transaction(() => drawAuditSample(store, { buildId: 2, size: 4, seed: 's', at: 't' }));
    const keys = auditItems(store, sample.id).map((i) => i.exampleKey);
    assert.equal(scopeTotal(store, 2, { audit: true }), 4, 'the audit sample');
    const mine = [keyOf('o2'), keyOf('o7')].filter((k) => keys.includes(k)).length;
    assert.equal(scopeLabelled(store, 2, 'me', { audit: true }), mine);
    assert.equal(describeProgress({ labelled: 1234, total: 5000 }), '1,234 / 5,000 labelled');
    store.close();
  });
});
