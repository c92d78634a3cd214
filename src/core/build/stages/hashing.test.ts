import assert from 'node:assert/strict';
import type { CorpusConfig } from '../../ground/config/types';
import { DEFAULT_RULES } from '../../rules/ruleParameters';
import { canonicalJson } from '../../ground/text/canonicalJson';
import { configHash, rulesVersion } from './hashing';
import type { CrossWindowConfig } from '../../ground/config/types';
import { crossWindowDefaults, legacyCrossWindow } from '../../rules/decontam/crossWindow';

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
});

describe('build hashing: reference sets, switches and cross-window', () => {
  it('changes the rules version with a registered reference set, its content, or the windows that protect train (cross-window on)', () => {
    const base = rulesVersion(config());
    const one = rulesVersion(config(), [{ name: 'codereviewer-test', sha256: 'a'.repeat(64) }]);
    assert.notEqual(one, base);
    assert.notEqual(rulesVersion(config(), [{ name: 'codereviewer-test', sha256: 'b'.repeat(64) }]), one);
    assert.equal(rulesVersion(config(), []), base);
    const on = { decontam: { crossWindow: { ...crossWindowDefaults(), enabled: true } } };
    const trainDev = [
      { name: 'train', from: '2024-10-01', to: '2024-11-01' },
      { name: 'dev', from: '2024-11-01', to: '2024-12-01' },
    ];
    const trainOnly = [{ name: 'train', from: '2024-10-01', to: '2024-11-01' }];
    assert.notEqual(
      rulesVersion(config({ ...on, windows: trainDev })),
      rulesVersion(config({ ...on, windows: trainOnly })),
    );
    assert.equal(
      rulesVersion(config({ windows: trainDev })),
      rulesVersion(config({ windows: trainOnly })),
      'off (the default): no window protects train',
    );
  });

  it('hashes a rule switch only when it switches a rule off: absent or true hashes as before', () => {
    const rules = (enabled: Record<string, boolean>) => config({ rules: { ...DEFAULT_RULES, enabled } });
    for (const same of [rules({}), rules({ suggested_edit: true })]) {
      assert.equal(configHash(same), configHash(config()));
      assert.equal(rulesVersion(same), rulesVersion(config()));
    }
    const off = rules({ suggested_edit: false });
    assert.notEqual(configHash(off), configHash(config()));
    assert.notEqual(rulesVersion(off), rulesVersion(config()));
    assert.equal(rulesVersion(rules({ suggested_edit: false, size: true })), rulesVersion(off));
  });

  it('hashes cross-window decontamination off as a config without it, and on with its own policy', () => {
    const windows = [
      { name: 'train', from: '2024-10-01', to: '2024-11-01' },
      { name: 'dev', from: '2024-11-01', to: '2024-12-01' },
    ];
    const cross = (over: Partial<CrossWindowConfig>) =>
      config({ windows, decontam: { crossWindow: { ...crossWindowDefaults(), ...over } } });
    const none = config({ windows });
    assert.equal(configHash(cross({})), configHash(none), 'off, written out, is off');
    assert.equal(rulesVersion(cross({})), rulesVersion(none));
    const on = cross({ enabled: true });
    assert.notEqual(configHash(on), configHash(none));
    assert.notEqual(rulesVersion(on), rulesVersion(none));
    assert.notEqual(rulesVersion(cross({ enabled: true, commentTokens: 8 })), rulesVersion(on), 'its policy counts');
    // Its policy is named only when it is not the registered sets': a build before the setting, whose
    // cross-window pass used the registered sets' policy, keeps its rules version.
    const rules = { ...DEFAULT_RULES, protectedCommentTokens: 8 };
    const asBefore = config({ windows, rules, decontam: { crossWindow: legacyCrossWindow(rules) } });
    const same = config({
      windows,
      rules,
      decontam: { crossWindow: { ...crossWindowDefaults(), enabled: true, commentTokens: 8 } },
    });
    assert.equal(rulesVersion(same), rulesVersion(asBefore));
  });
});
