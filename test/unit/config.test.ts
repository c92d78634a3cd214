import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configSource, redactConfig } from '../../src/core/ground/config/configFile';
import { loadCorpusConfig, validateCorpusConfig } from '../../src/core/rules/corpusJson/loadConfig';
import { PRODUCT_WINDOWS } from '../../src/core/ground/config/types';
import { DEFAULT_RULES } from '../../src/core/rules/ruleParameters';
import { RULE_PARAMETERS } from '../../src/core/rules/ruleParameters';
import { corpusSchemaText } from '../../src/core/rules/corpusJson/corpusSchema';
import { ruleSwitchesSchema } from '../../src/core/rules/ruleSwitches';

const valid = () => ({
  name: 'sample',
  start: '2024-10-01',
  salt: { env: 'REVIEW_CORPUS_SALT' },
  windows: [
    { name: 'pilot', from: '2024-10-01', to: '2024-11-01' },
    { name: 'test', from: '2025-11-01', to: '2026-11-01', sealed: true },
  ],
  hosts: [
    {
      org: 'openstack',
      url: 'https://review.example/',
      query: 'status:merged',
      minIntervalMs: 1000,
      botTemplates: ['^Hint: '],
    },
  ],
  rules: { maxLinesPerSide: 20 } as Record<string, unknown>,
});

type Raw = ReturnType<typeof valid> & Record<string, unknown>;

function rejects(mutate: (c: Raw) => void, pattern: RegExp): void {
  const c = valid() as Raw;
  mutate(c);
  assert.throws(
    () => validateCorpusConfig(c, 'corpus.json'),
    (e: Error) => {
      assert.equal(e.name, 'UserError');
      assert.match(e.message, /^corpus\.json: /);
      assert.match(e.message, pattern);
      assert.ok(!e.message.includes('\n'), `one line: ${e.message}`);
      return true;
    },
  );
}

describe('corpus config', () => {
  it('reads a valid config, filling the rule defaults', () => {
    const c = validateCorpusConfig(valid());
    assert.equal(c.db, 'corpus.sqlite');
    assert.equal(c.hosts[0].url, 'https://review.example', 'trailing slash dropped');
    assert.equal(c.rules.maxLinesPerSide, 20);
    assert.equal(c.rules.aroundLines, DEFAULT_RULES.aroundLines);
  });

  it('does not change the object it validates', () => {
    const raw = valid();
    const before = JSON.stringify(raw);
    validateCorpusConfig(raw);
    assert.equal(JSON.stringify(raw), before);
  });

  const cases: [string, (c: Raw) => void, RegExp][] = [
    [
      'a missing name',
      (c) => {
        delete (c as Partial<Raw>).name;
      },
      /: name is required$/,
    ],
    [
      'an empty name',
      (c) => {
        c.name = '';
      },
      /: name must not be empty$/,
    ],
    [
      'a bad start date',
      (c) => {
        c.start = '2024-13-45';
      },
      /start must be a calendar date YYYY-MM-DD \(got "2024-13-45"\)/,
    ],
    [
      'a window ending before it starts',
      (c) => {
        c.windows[0].to = '2024-09-01';
      },
      /windows\[0\]\.to must be after from/,
    ],
    [
      'overlapping windows',
      (c) => {
        c.windows[1].from = '2024-10-15';
      },
      /windows "pilot" and "test" overlap/,
    ],
    [
      'a repeated window name',
      (c) => {
        c.windows[1].name = 'pilot';
      },
      /windows\[1\]\.name repeats window "pilot"/,
    ],
    [
      'a host URL that is not http',
      (c) => {
        c.hosts[0].url = 'ftp://x';
      },
      /hosts\[0\]\.url must be an http\(s\) URL/,
    ],
    [
      'a host URL with a query',
      (c) => {
        c.hosts[0].url = 'https://x.example/r?x=1';
      },
      /hosts\[0\]\.url must be an http\(s\) URL without user, password, query or fragment/,
    ],
    [
      // The URL is stored in the corpus file and published in each record's source and the card.
      'a host URL carrying a user and password',
      (c) => {
        c.hosts[0].url = 'https://alice:s3cret@x.example/r';
      },
      /hosts\[0\]\.url must be an http\(s\) URL without user, password, query or fragment/,
    ],
    [
      'a negative interval',
      (c) => {
        c.hosts[0].minIntervalMs = -5;
      },
      /hosts\[0\]\.minIntervalMs must be ≥ 0 \(got -5\)/,
    ],
    [
      'a bad bot template regex',
      (c) => {
        c.hosts[0].botTemplates = ['('];
      },
      /hosts\[0\]\.botTemplates\[0\] is not a valid regex \(.*Unterminated group\)/,
    ],
    [
      'a bad bot-name pattern',
      (c) => {
        Object.assign(c.hosts[0], { extraBotNamePatterns: ['^ok$', '[bot'] });
      },
      /hosts\[0\]\.extraBotNamePatterns\[1\] is not a valid regex \(.*Unterminated character class\)/,
    ],
    [
      'an empty bot-name pattern',
      (c) => {
        Object.assign(c.hosts[0], { botNamePatterns: [''] });
      },
      /hosts\[0\]\.botNamePatterns\[0\] must not be empty/,
    ],
    [
      'a repeated organization',
      (c) => {
        c.hosts.push({ ...c.hosts[0] });
      },
      /hosts\[1\]\.org repeats organization "openstack"/,
    ],
    [
      'an unknown rule',
      (c) => {
        c.rules.maxLines = 3;
      },
      /rules\.maxLines is not a known field/,
    ],
    [
      'an unknown top-level field',
      (c) => {
        c.hots = [];
      },
      /: hots is not a known field \(did you mean "hosts"\?\)/,
    ],
    [
      'a db outside the folder',
      (c) => {
        c.db = '../x.sqlite';
      },
      /: db must name a file beside the config/,
    ],
    [
      'an absolute db',
      (c) => {
        c.db = '/tmp/x.sqlite';
      },
      /: db must name a file beside the config/,
    ],
    [
      'LSH bands × rows over the permutations',
      (c) => {
        c.rules.lshBands = 32;
      },
      /rules\.lshBands × lshRows must not exceed minhashPermutations/,
    ],
    [
      'halves of a window that does not exist',
      (c) => {
        c.halves = { by: 'hash' };
      },
      /halves\.window names no window \("train"\)/,
    ],
    [
      'project halves without their lists',
      (c) => {
        c.halves = { by: 'projects', window: 'pilot', a: ['x'] };
      },
      /halves\.b is required/,
    ],
  ];
  for (const [what, mutate, pattern] of cases) {
    it(`names the field for ${what}`, () => rejects(mutate, pattern));
  }

  describe('is strict (schemas/corpus.schema.json)', () => {
    it('refuses a misspelt "sealed", which would otherwise leave the window unsealed', () => {
      rejects((c) => {
        (c.windows[1] as Record<string, unknown>).seald = true;
        delete c.windows[1].sealed;
      }, /: windows\[1\]\.seald is not a known field \(did you mean "sealed"\?\)$/);
    });

    it('refuses an unknown field at every level', () => {
      rejects((c) => {
        (c.salt as Record<string, unknown>).value = 'x';
      }, /: salt\.value is not a known field/);
      rejects((c) => {
        (c.hosts[0] as Record<string, unknown>).minInterval = 5;
      }, /: hosts\[0\]\.minInterval is not a known field \(did you mean "minIntervalMs"\?\)/);
      rejects((c) => {
        c.halves = { by: 'hash', window: 'pilot', seed: 'x' };
      }, /: halves\.seed is not a known field/);
      rejects((c) => {
        c.rules.aroundLine = 2;
      }, /: rules\.aroundLine is not a known field \(did you mean "aroundLines"\?\)/);
    });

    it('takes only calendar dates', () => {
      rejects((c) => {
        c.windows[0].to = '2024-02-30';
      }, /: windows\[0\]\.to must be a calendar date YYYY-MM-DD \(got "2024-02-30"\)$/);
      rejects((c) => {
        c.start = '2023-02-29';
      }, /: start must be a calendar date/);
      rejects((c) => {
        c.windows[1].from = '2025-11-1';
      }, /: windows\[1\]\.from must be a calendar date/);
      assert.equal(
        validateCorpusConfig({ ...valid(), start: '2024-02-29' }).start,
        '2024-02-29',
        'a leap day is a date',
      );
    });

    it('bounds the rule thresholds: integers where a count is meant, and sensible minimums', () => {
      rejects((c) => {
        c.rules.maxLinesPerSide = 0;
      }, /: rules\.maxLinesPerSide must be ≥ 1 \(got 0\)$/);
      rejects((c) => {
        c.rules.aroundLines = 1.5;
      }, /: rules\.aroundLines must be an integer \(got 1\.5\)$/);
      rejects((c) => {
        c.rules.maxGrowthRatio = 0.5;
      }, /: rules\.maxGrowthRatio must be ≥ 1/);
      rejects((c) => {
        c.rules.nearDuplicateJaccard = 1.2;
      }, /: rules\.nearDuplicateJaccard must be ≤ 1/);
      rejects((c) => {
        c.rules.nearDuplicateJaccard = 0;
      }, /: rules\.nearDuplicateJaccard must be > 0/);
      rejects((c) => {
        c.rules.boilerplateMinChanges = 1;
      }, /: rules\.boilerplateMinChanges must be ≥ 2/);
      rejects((c) => {
        c.rules.acknowledgements = ['ok', 3];
      }, /: rules\.acknowledgements\[1\] must be a string \(got 3\)/);
      rejects((c) => {
        c.hosts[0].minIntervalMs = 0.5;
      }, /: hosts\[0\]\.minIntervalMs must be an integer/);
      rejects((c) => {
        (c.hosts[0] as Record<string, unknown>).pageSize = 0;
      }, /: hosts\[0\]\.pageSize must be ≥ 1/);
      rejects((c) => {
        (c.hosts[0] as Record<string, unknown>).botAccounts = [1.5];
      }, /: hosts\[0\]\.botAccounts\[0\] must be an integer/);
    });

    it('names types and allowed values', () => {
      rejects((c) => {
        (c.windows[1] as Record<string, unknown>).sealed = 'yes';
      }, /: windows\[1\]\.sealed must be true or false \(got "yes"\)$/);
      rejects((c) => {
        c.halves = { by: 'random', window: 'pilot' };
      }, /: halves\.by must be one of "projects", "hash" \(got "random"\)$/);
      rejects((c) => {
        c.halves = { by: 'hash', window: 'pilot', a: ['x'] };
      }, /: halves\.a is used only with by: "projects"/);
      rejects((c) => {
        c.windows = [];
      }, /: windows must hold at least one item$/);
      rejects((c) => {
        (c as Record<string, unknown>).salt = 'REVIEW_CORPUS_SALT';
      }, /: salt must be an object/);
    });

    it('takes a contact that is an e-mail address or an https URL', () => {
      assert.equal(validateCorpusConfig({ ...valid(), contact: 'corpus@example.org' }).contact, 'corpus@example.org');
      assert.equal(
        validateCorpusConfig({ ...valid(), contact: 'https://example.org/corpus' }).contact,
        'https://example.org/corpus',
      );
      for (const bad of ['nobody', 'http://example.org/corpus', 'https://example.org/a (b)', 'me@example.org; x', '']) {
        rejects((c) => {
          c.contact = bad;
        }, /: contact must be an e-mail address or an https:\/\/ URL/);
      }
    });

    it('completes the config with the defaults the schema documents', () => {
      const schema = JSON.parse(readFileSync(path.resolve('schemas/corpus.schema.json'), 'utf8'));
      const raw = valid();
      raw.rules = {};
      delete (raw.windows[1] as { sealed?: boolean }).sealed;
      const c = validateCorpusConfig({ ...raw, halves: { by: 'hash', window: 'pilot' } });
      assert.equal(c.db, schema.properties.db.default);
      assert.deepEqual(
        c.rules,
        schema.properties.rules.properties &&
          Object.fromEntries(
            Object.entries(schema.properties.rules.properties as Record<string, { default: unknown }>)
              .filter(([k]) => k !== 'enabled') // the switches: absent until a config sets one
              .map(([k, v]) => [k, v.default]),
          ),
      );
      assert.equal(c.windows[1].sealed, schema.properties.windows.items.properties.sealed.default);
      assert.equal(c.hosts[0].pageSize, schema.properties.hosts.items.properties.pageSize.default);
      assert.equal(
        validateCorpusConfig({ ...valid(), hosts: [{ org: 'x', url: 'https://x.example', minIntervalMs: 0 }] }).hosts[0]
          .query,
        schema.properties.hosts.items.properties.query.default,
      );
      const halves = validateCorpusConfig({
        ...valid(),
        windows: [{ name: 'train', from: '2024-10-01', to: '2024-11-01' }],
        halves: { by: 'hash' },
      }).halves;
      assert.equal(halves?.window, schema.properties.halves.properties.window.default);
    });
  });

  it('names the file for invalid JSON', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'rc-cfg-')), 'corpus.json');
    writeFileSync(file, '{ "name": ');
    assert.throws(
      () => loadCorpusConfig(file),
      new RegExp(`^UserError: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not valid JSON`),
    );
  });

  it('names the file it read in every schema error, and remembers it for later messages', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'rc-cfg-')), 'corpus.json');
    writeFileSync(
      file,
      JSON.stringify({ ...valid(), windows: [{ name: 'test', from: '2025-11-01', to: '2026-11-01', seald: true }] }),
    );
    assert.throws(() => loadCorpusConfig(file), {
      message: `${file}: windows[0].seald is not a known field (did you mean "sealed"?)`,
    });
    writeFileSync(file, JSON.stringify(valid()));
    assert.equal(configSource(loadCorpusConfig(file)), file);
  });

  it('keeps the contact and bot account ids out of the config stored in a corpus file', () => {
    const c = validateCorpusConfig({
      ...valid(),
      contact: 'corpus@example.org',
      hosts: [{ ...valid().hosts[0], botAccounts: [1000104] }],
    });
    const stored = JSON.stringify(redactConfig(c));
    assert.ok(!stored.includes('corpus@example.org'));
    assert.ok(!stored.includes('1000104'));
    validateCorpusConfig(JSON.parse(stored), 'stored config');
  });

  it('reads the product windows as a valid config', () => {
    const c = validateCorpusConfig({ ...valid(), windows: PRODUCT_WINDOWS.map((w) => ({ ...w })) });
    assert.deepEqual(
      c.windows.map((w) => [w.name, w.sealed]),
      [
        ['pilot', false],
        ['train', false],
        ['dev', false],
        ['test', true],
      ],
    );
  });

  describe('the schema is generated from the rule parameters', () => {
    it('schemas/corpus.schema.json is what src/core/rules/corpusJson/corpusSchema.ts generates (npm run schema)', () => {
      assert.equal(
        readFileSync(path.resolve('schemas/corpus.schema.json'), 'utf8'),
        corpusSchemaText(),
        'run `npm run schema`',
      );
    });

    it('ships a JSON Schema whose rule defaults and bounds are the rule parameters', async () => {
      const schema = (await import('../../schemas/corpus.schema.json')).default as unknown as {
        properties: { rules: { properties: Record<string, unknown> } };
      };
      const { enabled, ...parameters } = schema.properties.rules.properties;
      assert.deepEqual(parameters, JSON.parse(JSON.stringify(RULE_PARAMETERS)));
      assert.deepEqual(enabled, JSON.parse(JSON.stringify(ruleSwitchesSchema())), "rules.enabled: the funnel's rules");
      for (const [key, value] of Object.entries(DEFAULT_RULES)) {
        assert.deepEqual(
          (schema.properties.rules.properties[key] as { default?: unknown })?.default,
          value,
          `schema default for rules.${key}`,
        );
      }
    });
  });
});
