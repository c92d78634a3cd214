import assert from 'node:assert/strict';
import { load } from 'js-yaml';
import { validateCorpusConfig } from '../../rules/corpusJson/loadConfig';
import { cardHeader, sizeCategory, splitNames } from './cardHeader';

describe("the card's YAML header", () => {
  it("puts a count in the Hub's size bucket, a boundary in the bucket above", () => {
    assert.deepEqual([0, 999, 1000, 9999, 10_000, 999_999, 1_000_000, 2e12].map(sizeCategory), [
      'n<1K',
      'n<1K',
      '1K<n<10K',
      '1K<n<10K',
      '10K<n<100K',
      '100K<n<1M',
      '1M<n<10M',
      'n>1T',
    ]);
  });

  it('makes split names the datasets library accepts, unique', () => {
    const names = splitNames(['train', 'dev-2025', 'dev_2025', 'a.b', '..', 'été']);
    assert.deepEqual([...names.values()], ['train', 'dev_2025', 'dev_2025_2', 'a.b', '_._._', '_t_']);
    for (const n of names.values()) assert.match(n, /^\w+(\.\w+)*$/);
  });

  it('names splits by card.splits, dev as validation by default, and refuses a mapping that collides or names no window', () => {
    assert.deepEqual([...splitNames(['pilot', 'train', 'dev']).values()], ['pilot', 'train', 'validation']);
    assert.deepEqual([...splitNames(['train', 'dev'], { train: 'training' }).values()], ['training', 'dev']);
    const base = {
      name: 'c',
      start: '2024-10-01',
      salt: { env: 'S' },
      windows: [
        { name: 'train', from: '2024-10-01', to: '2024-11-01' },
        { name: 'dev', from: '2024-11-01', to: '2024-12-01' },
      ],
      hosts: [{ org: 'o', url: 'https://h.example', minIntervalMs: 0 }],
    };
    assert.deepEqual(validateCorpusConfig({ ...base, card: { splits: { dev: 'validation' } } }).card?.splits, {
      dev: 'validation',
    });
    assert.throws(
      () => validateCorpusConfig({ ...base, card: { splits: { dev: 'train' } } }),
      /card\.splits publishes windows "train" and "dev" as one split "train"/,
    );
    assert.throws(
      () => validateCorpusConfig({ ...base, card: { splits: { deev: 'x' } } }),
      /card\.splits\.deev names no window/,
    );
    assert.throws(
      () => validateCorpusConfig({ ...base, card: { splits: { dev: 'dev-2' } } }),
      /card\.splits\.dev must be a split name/,
    );
    assert.equal(
      validateCorpusConfig({ ...base, card: { license: 'mit' } }).card?.splits,
      undefined,
      'no default written in',
    );
  });
});

describe("the card's YAML header: values and license", () => {
  it('keeps every value inside its field, whatever the title holds', () => {
    const title = 'x"\nlicense: mit\n---\n# y';
    const yaml = load(
      cardHeader({
        title,
        card: { license: 'apache-2.0' },
        splits: [{ window: 'w', split: 'w', path: 'data/w.jsonl', examples: 3 }],
      }).replace(/^---\n|---\n$/g, ''),
    ) as Record<string, unknown>;
    assert.equal(yaml.pretty_name, title);
    assert.equal(yaml.license, 'apache-2.0');
  });

  it('takes card.license only as a Hub license id, naming the field otherwise', () => {
    const base = {
      name: 'c',
      start: '2024-10-01',
      salt: { env: 'S' },
      windows: [{ name: 'w', from: '2024-10-01', to: '2024-11-01' }],
      hosts: [{ org: 'o', url: 'https://h.example', minIntervalMs: 0 }],
    };
    assert.equal(
      validateCorpusConfig({ ...base, card: { license: 'cc-by-4.0', language: ['en'] } }).card?.license,
      'cc-by-4.0',
    );
    assert.throws(
      () => validateCorpusConfig({ ...base, card: { license: 'CC BY 4.0' } }),
      /card\.license must be a Hugging Face license id/,
    );
    assert.throws(() => validateCorpusConfig({ ...base, card: { language: ['English'] } }), /card\.language/);
  });
});
