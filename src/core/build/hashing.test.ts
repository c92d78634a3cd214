import assert from 'node:assert/strict';
import { DEFAULT_RULES, type CorpusConfig } from '../config/types';
import { canonicalJson, configHash, rulesVersion } from './hashing';

const config = (over: Partial<CorpusConfig> = {}): CorpusConfig => ({
  name: 'c', db: 'corpus.sqlite', start: '2024-10-01', salt: { env: 'SALT' },
  windows: [{ name: 'pilot', from: '2024-10-01', to: '2024-11-01' }],
  hosts: [{ org: 'openstack', url: 'https://review.example', query: 'status:merged', minIntervalMs: 1000 }],
  rules: DEFAULT_RULES, ...over,
});

describe('build hashing', () => {
  it('writes canonical JSON whatever the key order', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } }), '{"a":{"d":[2,{"y":2,"z":1}]},"b":1}');
  });

  it('hashes the same config the same, and a changed config differently', () => {
    assert.equal(configHash(config()), configHash(JSON.parse(JSON.stringify(config()))));
    assert.notEqual(configHash(config()), configHash(config({ name: 'other' })));
  });

  it('changes the rules version with a rule setting or a bot template, not with a window', () => {
    const base = rulesVersion(config());
    assert.equal(rulesVersion(config({ windows: [{ name: 'pilot', from: '2024-10-01', to: '2024-12-01' }] })), base);
    assert.notEqual(rulesVersion(config({ rules: { ...DEFAULT_RULES, maxLinesPerSide: 10 } })), base);
    assert.notEqual(rulesVersion(config({ hosts: [{ ...config().hosts[0], botTemplates: ['^x$'] }] })), base);
  });
});
