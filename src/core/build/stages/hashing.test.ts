import assert from 'node:assert/strict';
import type { CorpusConfig } from '../../ground/config/types';
import { DEFAULT_RULES } from '../../rules/ruleParameters';
import { canonicalJson } from '../../ground/text/canonicalJson';
import { configHash, rulesVersion } from './hashing';

const config = (over: Partial<CorpusConfig> = {}): CorpusConfig => ({
  name: 'c',
  db: 'corpus.sqlite',
  start: '2024-10-01',
  salt: { env: 'SALT' },
  windows: [{ name: 'pilot', from: '2024-10-01', to: '2024-11-01' }],
  hosts: [{ org: 'openstack', url: 'https://review.example', query: 'status:merged', minIntervalMs: 1000 }],
  rules: DEFAULT_RULES,
  ...over,
});

describe('build hashing', () => {
  it('writes canonical JSON whatever the key order', () => {
    assert.equal(
      canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } }),
      '{"a":{"d":[2,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('hashes the same config the same, and a changed config differently', () => {
    assert.equal(configHash(config()), configHash(JSON.parse(JSON.stringify(config()))));
    assert.notEqual(configHash(config()), configHash(config({ name: 'other' })));
    // The dataset card's license and title decide nothing: editing them needs no rebuild.
    assert.equal(configHash(config({ card: { license: 'cc-by-4.0', prettyName: 'X' } })), configHash(config()));
  });

  it('changes the rules version with a rule setting or a bot template, not with a window', () => {
    const base = rulesVersion(config());
    assert.equal(rulesVersion(config({ windows: [{ name: 'pilot', from: '2024-10-01', to: '2024-12-01' }] })), base);
    assert.notEqual(rulesVersion(config({ rules: { ...DEFAULT_RULES, maxLinesPerSide: 10 } })), base);
    assert.notEqual(rulesVersion(config({ hosts: [{ ...config().hosts[0], botTemplates: ['^x$'] }] })), base);
  });

  it('keeps bot-name patterns in the config hash but out of the rules version: they decide at fetch', () => {
    const named = config({ hosts: [{ ...config().hosts[0], extraBotNamePatterns: ['^gerritbot$'] }] });
    assert.notEqual(configHash(named), configHash(config()));
    assert.equal(rulesVersion(named), rulesVersion(config()));
    assert.equal(
      rulesVersion(config({ hosts: [{ ...config().hosts[0], botNamePatterns: [] }] })),
      rulesVersion(config()),
    );
  });

  it('changes the rules version with a registered reference set, its content, or the windows that protect train', () => {
    const base = rulesVersion(config());
    const one = rulesVersion(config(), [{ name: 'codereviewer-test', sha256: 'a'.repeat(64) }]);
    assert.notEqual(one, base);
    assert.notEqual(rulesVersion(config(), [{ name: 'codereviewer-test', sha256: 'b'.repeat(64) }]), one);
    assert.equal(rulesVersion(config(), []), base);
    const withTrain = config({
      windows: [
        { name: 'train', from: '2024-10-01', to: '2024-11-01' },
        { name: 'dev', from: '2024-11-01', to: '2024-12-01' },
      ],
    });
    assert.notEqual(
      rulesVersion(withTrain),
      rulesVersion(config({ windows: [{ name: 'train', from: '2024-10-01', to: '2024-11-01' }] })),
    );
  });
});
