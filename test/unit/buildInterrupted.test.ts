import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { CorpusFixture } from './buildFixture';

describe('a build after an interrupted fetch', () => {
  it('counts a change the fetch listed but never read under fetch_error, not as kept', async () => {
    const fx = await CorpusFixture.create(path.join(mkdtempSync(path.join(tmpdir(), 'rc-int-')), 'corpus.sqlite'));
    const id = fx.change({ number: 501, created: '2025-01-10T10:00:00Z' });
    fx.store.run("UPDATE changes SET fetch_state = 'listed' WHERE id = ?", [id]);
    const result = await runBuild(fx.store);
    assert.equal(
      fx.store.scalar(
        "SELECT rule FROM decisions WHERE build_id = ? AND unit = 'changes' AND unit_key = 'openstack/501'",
        [result.buildId],
      ),
      'fetch_error',
    );
    fx.store.close();
  });
});
