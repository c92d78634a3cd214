import assert from 'node:assert/strict';
import { exampleName, exampleNameOfKey } from './exampleName';
import { exampleKey } from '../../build/stages/exampleStage';

describe('an example’s name', () => {
  it('names organization, change, file and line; the same from its key', () => {
    const parts = { org: 'openstack', changeNumber: 930005, path: 'nova/compute/manager.py', line: 120 };
    assert.equal(exampleName(parts), 'openstack #930005 nova/compute/manager.py line 120');
    assert.equal(exampleName({ ...parts, line: null }), 'openstack #930005 nova/compute/manager.py');
    assert.equal(
      exampleNameOfKey(exampleKey('openstack', 930005, 3, 120, 'nova/compute/manager.py')),
      exampleName(parts),
    );
    assert.equal(exampleNameOfKey('not a key'), undefined);
  });
});
