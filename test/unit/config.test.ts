import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCorpusConfig, validateCorpusConfig } from '../../src/core/config/loadConfig';
import { DEFAULT_RULES } from '../../src/core/config/types';

const valid = () => ({
  name: 'sample',
  start: '2024-10-01',
  salt: { env: 'REVIEW_CORPUS_SALT' },
  windows: [
    { name: 'pilot', from: '2024-10-01', to: '2024-11-01' },
    { name: 'test', from: '2025-11-01', to: '2026-11-01', sealed: true },
  ],
  hosts: [{ org: 'openstack', url: 'https://review.example/', query: 'status:merged', minIntervalMs: 1000, botTemplates: ['^Hint: '] }],
  rules: { maxLinesPerSide: 20 },
});

describe('corpus config', () => {
  it('reads a valid config, filling the rule defaults', () => {
    const c = validateCorpusConfig(valid());
    assert.equal(c.db, 'corpus.sqlite');
    assert.equal(c.hosts[0].url, 'https://review.example', 'trailing slash dropped');
    assert.equal(c.rules.maxLinesPerSide, 20);
    assert.equal(c.rules.aroundLines, DEFAULT_RULES.aroundLines);
  });

  const cases: [string, (c: ReturnType<typeof valid>) => void, RegExp][] = [
    ['a missing name', (c) => { delete (c as Partial<typeof c>).name; }, /name must be a non-empty string/],
    ['a bad start date', (c) => { c.start = '2024-13-45'; }, /start must be a date/],
    ['a window ending before it starts', (c) => { c.windows[0].to = '2024-09-01'; }, /windows\[0\]\.to must be after from/],
    ['overlapping windows', (c) => { c.windows[1].from = '2024-10-15'; }, /overlap/],
    ['a host URL that is not http', (c) => { c.hosts[0].url = 'ftp://x'; }, /hosts\[0\]\.url must be an http\(s\) URL/],
    ['a negative interval', (c) => { c.hosts[0].minIntervalMs = -5; }, /hosts\[0\]\.minIntervalMs must be a number/],
    ['a bad bot template regex', (c) => { c.hosts[0].botTemplates = ['(']; }, /hosts\[0\]\.botTemplates\[0\] is not a valid regex/],
    ['an unknown rule', (c) => { (c.rules as Record<string, number>).maxLines = 3; }, /rules\.maxLines is not a known rule setting/],
    ['an unknown top-level field', (c) => { (c as Record<string, unknown>).hots = []; }, /hots is not a known field/],
    ['a db outside the folder', (c) => { (c as Record<string, unknown>).db = '../x.sqlite'; }, /db must name a file beside the config/],
  ];
  for (const [what, mutate, pattern] of cases) {
    it(`names the field for ${what}`, () => {
      const c = valid();
      mutate(c);
      assert.throws(() => validateCorpusConfig(c, 'corpus.json'), (e: Error) => {
        assert.match(e.message, /^corpus\.json: /);
        assert.match(e.message, pattern);
        assert.ok(!e.message.includes('\n'));
        return true;
      });
    });
  }

  it('names the file for invalid JSON', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'rc-cfg-')), 'corpus.json');
    writeFileSync(file, '{ "name": ');
    assert.throws(() => loadCorpusConfig(file), new RegExp(`^UserError: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not valid JSON`));
  });

  it('ships a JSON Schema whose rule defaults match the code', async () => {
    const schema = (await import('../../schemas/corpus.schema.json')).default as { properties: { rules: { properties: Record<string, { default?: unknown }> } } };
    for (const [key, value] of Object.entries(DEFAULT_RULES)) {
      assert.deepEqual(schema.properties.rules.properties[key]?.default, value, `schema default for rules.${key}`);
    }
  });
});
