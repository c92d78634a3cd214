// Export's publishable outputs on the sample corpus (a real sql.js file, through the CLI's command
// module): counts.csv whose rows chain, curation_audit.jsonl with one line per removal, and the dataset
// card, whose YAML a real YAML parser reads and whose numbers equal dataset-funnel.json's.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load } from 'js-yaml';
import MarkdownIt from 'markdown-it';
import { buildSampleCorpus, SAMPLE_AUDIT } from '../../scripts/sample-corpus';
import { runCli } from '../../src/cli/main';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { latestBuildId } from '../../src/core/review/inspect/groups';
import { setLabel } from '../../src/core/review/labels/labels';
import { labelAudit } from '../../src/core/review/labels/labelAudit';
import { sizeCategory } from '../../src/core/publish/export/cardHeader';
import type { DatasetFunnel } from '../../src/core/build/reports/funnelReport';
import { isSwitchedOff } from '../../src/core/rules/switchedOff';
import { mdText } from '../../src/core/ground/text/markdown';

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err };
}

interface CsvRow {
  org: string;
  stage: string;
  rule: string;
  unit: string;
  input: number;
  removed: number | null;
  /** `off` in the removed column: a rule the config switched off (removed null). */
  off: boolean;
  /** Why removed is empty, or a lower bound; '' when it is neither. */
  note: string;
  remaining: number;
}

/** One CSV line's fields, RFC 4180 quoting read back (a note may hold commas and quotes). */
function csvFields(line: string): string[] {
  return [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2],
  );
}

function readCounts(file: string): CsvRow[] {
  const [header, ...lines] = readFileSync(file, 'utf8').trimEnd().split('\n');
  assert.equal(header, 'org,stage,rule,unit,input,removed,removed_note,remaining');
  return lines.map((l) => {
    const [org, stage, rule, unit, input, removed, note, remaining] = csvFields(l);
    if (removed === '') assert.match(note, /^not counted: \S/, `${org} ${rule}: an empty removed says why`);
    return {
      org,
      stage,
      rule,
      unit,
      input: Number(input),
      removed: removed === '' || removed === 'off' ? null : Number(removed),
      off: removed === 'off',
      note,
      remaining: Number(remaining),
    };
  });
}

interface Card {
  license: string;
  language?: string[];
  pretty_name: string;
  size_categories: string[];
  configs: { config_name: string; data_files: { split: string; path: string }[] }[];
  dataset_info: { splits: { name: string; num_examples: number }[] };
}

function readCard(file: string): { yaml: Card; body: string } {
  const text = readFileSync(file, 'utf8');
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  assert.ok(m, 'README.md opens with a YAML block between --- lines');
  return { yaml: load(m[1]) as Card, body: m[2] };
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

describe('dataset card', function () {
  this.timeout(120_000);
  let dir: string;
  let db: string;
  let configFile: string;
  let funnel: DatasetFunnel;
  const out = () => path.join(dir, 'publish', 'examples.jsonl');

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-card-'));
    ({ dbFile: db, configFile } = await buildSampleCorpus(dir));
    const config = JSON.parse(readFileSync(configFile, 'utf8'));
    config.card = { license: 'cc-by-4.0', language: ['en'], prettyName: 'Sample review corpus' };
    configFile = path.join(dir, 'with-card.json');
    writeFileSync(configFile, JSON.stringify(config));
    mkdirSync(path.join(dir, 'publish'));
    const r = await cli('export', '--db', db, '--out', out(), '--config', configFile);
    assert.equal(r.code, 0, r.err.join('\n'));
    assert.deepEqual(r.err, [], 'a card with a license: no warning');
    for (const f of [
      'examples.jsonl',
      'dataset-funnel.json',
      'counts.csv',
      'curation_audit.jsonl',
      'README.md',
      'data/train.jsonl',
    ]) {
      assert.ok(r.out.includes(path.join(dir, 'publish', f)), `the CLI names ${f} among what it wrote:\n${r.out}`);
    }
    funnel = JSON.parse(readFileSync(path.join(dir, 'publish', 'dataset-funnel.json'), 'utf8'));
  });

  it("counts.csv: input − removed = remaining, and each rule's remaining is the next rule's input within a unit kind", async () => {
    const rows = readCounts(path.join(dir, 'publish', 'counts.csv'));
    const store = await CorpusStore.open(db);
    try {
      const build = latestBuildId(store)!;
      const decisions = (where: string) =>
        Number(
          store.scalar(`SELECT count(*) FROM decisions WHERE build_id = ? AND org = ? AND ${where}`, [build, org]),
        );
      let org = '';
      for (const [name, o] of Object.entries(funnel.organizations)) {
        org = name;
        const mine = rows.filter((r) => r.org === org);
        // One row per funnel row, in the funnel's order, with the funnel's removed.
        assert.deepEqual(
          mine.map((r) => [r.stage, r.rule, r.unit, r.removed]),
          o.funnel.map((r) => [r.stage, r.rule, r.unit, r.removed]),
          org,
        );
        assert.deepEqual(
          mine.filter((r) => r.off).map((r) => r.rule),
          o.funnel.filter((r) => isSwitchedOff(r.notCounted)).map((r) => r.rule),
          `${org}: "off" exactly where the funnel says a rule was switched off`,
        );
        for (const r of mine)
          if (r.removed !== null) assert.equal(r.input - r.removed, r.remaining, `${org} ${r.stage}/${r.rule}`);
        for (const unit of ['changes', 'comments', 'hunks', 'examples']) {
          const u = mine.filter((r) => r.unit === unit);
          for (let i = 1; i < u.length; i++)
            assert.equal(u[i].input, u[i - 1].remaining, `${org}: ${u[i].rule} starts from what ${u[i - 1].rule} left`);
        }
        const last = (unit: string) => mine.filter((r) => r.unit === unit).at(-1)!;
        const first = (unit: string) => mine.find((r) => r.unit === unit)!;
        assert.equal(
          first('examples').input,
          last('hunks').remaining,
          `${org}: a hunk no hunk rule removed is an example`,
        );
        // The ends of each unit kind are the build's own units.
        assert.equal(last('changes').remaining, decisions("unit = 'changes' AND rule = 'kept'"));
        assert.equal(
          first('comments').input,
          decisions("unit = 'comments'"),
          `${org}: the comment rules see every comment of the kept changes`,
        );
        assert.equal(last('comments').remaining, decisions("unit = 'comments' AND rule = 'kept'"));
        assert.equal(first('hunks').input, decisions("unit IN ('hunks', 'examples')"));
        const keptInWindows = Object.values(o.windows).reduce((n, w) => n + (w.examples ?? 0), 0);
        assert.equal(
          last('examples').remaining,
          keptInWindows + (o.counters.outside_windows ?? 0),
          `${org}: what is left is what the windows hold`,
        );
        assert.ok(first('changes').input >= decisions("unit = 'changes'"));
      }
    } finally {
      store.close();
    }
  });

  it('label-audit-<org>.json beside them: the label audit of the sample corpus, one file per organization of the sample', async () => {
    const store = await CorpusStore.open(db);
    try {
      const report = labelAudit(store, latestBuildId(store)!)!;
      assert.deepEqual(
        report.organizations.map((o) => o.org),
        ['openstack', 'qt', 'wikimedia'],
      );
      for (const o of report.organizations) {
        assert.deepEqual(JSON.parse(readFileSync(path.join(dir, 'publish', `label-audit-${o.org}.json`), 'utf8')), o);
        assert.deepEqual(
          o.raters.map((r) => r.kind),
          ['model', 'human'],
        );
      }
    } finally {
      store.close();
    }
  });

  it('curation_audit.jsonl: one line per removed decision, with its rule and its stored evidence', async () => {
    const audit = lines(path.join(dir, 'publish', 'curation_audit.jsonl')).map((l) => JSON.parse(l));
    const store = await CorpusStore.open(db);
    try {
      const build = latestBuildId(store)!;
      const removed = store.all<{
        unit: string;
        unit_key: string;
        org: string;
        window: string | null;
        stage: string;
        rule: string;
        evidence: string | null;
      }>(
        "SELECT unit, unit_key, org, window, stage, rule, evidence FROM decisions WHERE build_id = ? AND rule != 'kept'",
        [build],
      );
      assert.ok(removed.length > 20);
      assert.equal(audit.length, removed.length);
      const byKey = new Map(audit.map((a) => [`${a.unit}\0${a.key}`, a]));
      for (const d of removed) {
        const a = byKey.get(`${d.unit}\0${d.unit_key}`);
        assert.ok(a, `${d.unit} ${d.unit_key} has its line`);
        assert.deepEqual(a, {
          unit: d.unit,
          key: d.unit_key,
          org: d.org,
          window: d.window,
          stage: d.stage,
          rule: d.rule,
          evidence: d.evidence === null ? null : JSON.parse(d.evidence),
        });
      }
      // The funnel counts the same removals, less listing records that never had a key.
      const funnelRemoved = Object.values(funnel.organizations).reduce(
        (n, o) => n + o.funnel.reduce((m, r) => m + (r.removed ?? 0), 0),
        0,
      );
      assert.ok(funnelRemoved >= audit.length);
      assert.ok(!audit.some((a) => a.rule === 'kept'));
    } finally {
      store.close();
    }
  });

  it("the card's YAML: one split per window with its file, license and language from the config, the size category, all equal to the funnel", () => {
    const { yaml } = readCard(path.join(dir, 'publish', 'README.md'));
    assert.equal(yaml.license, 'cc-by-4.0');
    assert.deepEqual(yaml.language, ['en']);
    assert.equal(yaml.pretty_name, 'Sample review corpus');
    assert.equal(yaml.configs.length, 1);
    assert.equal(yaml.configs[0].config_name, 'default');
    // The config sets no card.splits: the default names the dev window's split "validation".
    const expected = [
      ['pilot', 'pilot'],
      ['train', 'train'],
      ['dev', 'validation'],
    ].map(([w, s]) => ({
      w,
      s,
      n: Object.values(funnel.organizations).reduce((n, o) => n + (o.windows[w].examples ?? 0), 0),
    }));
    assert.deepEqual(
      yaml.configs[0].data_files,
      expected.map(({ s }) => ({ split: s, path: `data/${s}.jsonl` })),
      'the sealed test window has no split',
    );
    assert.deepEqual(
      yaml.dataset_info.splits,
      expected.map(({ s, n }) => ({ name: s, num_examples: n })),
    );
    for (const { w, s, n } of expected) {
      const split = lines(path.join(dir, 'publish', `data/${s}.jsonl`)).map((l) => JSON.parse(l));
      assert.equal(split.length, n, `data/${s}.jsonl holds window ${w}'s examples`);
      assert.ok(split.every((e) => e.window === w));
    }
    const total = expected.reduce((n, e) => n + e.n, 0);
    assert.equal(
      total,
      lines(out()).length,
      'the splits hold every exported example (none is outside a window in the sample)',
    );
    assert.deepEqual(yaml.size_categories, [sizeCategory(total)]);
    assert.deepEqual(yaml.size_categories, ['n<1K']);
  });

  it("the card's body: the funnel table of each organization, the sealed window's hash and the versions, as the file records them", async () => {
    const { body } = readCard(path.join(dir, 'publish', 'README.md'));
    const rows = readCounts(path.join(dir, 'publish', 'counts.csv'));
    const fmt = (n: number | null) => (n === null ? 'not counted' : n.toLocaleString('en-US'));
    for (const org of Object.keys(funnel.organizations)) {
      const section = body.split(`### \`${org}\``)[1].split('\n\n')[1];
      const table = section
        .split('\n')
        .slice(2)
        .map((l) => l.split(' | ').map((c) => c.replace(/^\| |`| \|$|^\|$/g, '')));
      assert.deepEqual(
        table,
        rows
          .filter((r) => r.org === org)
          .map((r) => [
            r.stage,
            r.rule,
            r.unit,
            fmt(r.input),
            r.off ? 'off' : fmt(r.removed),
            fmt(r.remaining),
            mdText(r.note),
          ]),
        `${org}'s table is counts.csv`,
      );
    }
    const store = await CorpusStore.open(db);
    try {
      const b = store.get<{ id: number; rules_version: string; config_hash: string; corpus_hash: string }>(
        'SELECT * FROM builds WHERE id = ?',
        [latestBuildId(store)!],
      )!;
      for (const v of [b.rules_version, b.config_hash, b.corpus_hash])
        assert.ok(body.includes(`\`${v}\``), `the card names ${v}`);
      const sealed = String(store.scalar("SELECT seal_hash FROM windows WHERE name = 'test'"));
      assert.match(
        body,
        new RegExp(`\\| \`test\` \\| 2025-11-01 \\| 2026-11-01 \\| sealed \\(definition sha256 \`${sealed}\`\\)`),
      );
    } finally {
      store.close();
    }
    // Every rule, in order, with its description.
    assert.match(body, /1\. `created_before_start`: change created before the corpus start date\./);
    // The sample corpus's audit (scripts/sample-corpus.ts): drawn from build 1, read against the exported build.
    assert.match(
      body,
      new RegExp(
        `## Label audit\\n\\nA seeded sample of 12 kept examples of build 1 \\(asked ${SAMPLE_AUDIT.size}, seed \`${SAMPLE_AUDIT.seed}\``,
      ),
    );
    assert.match(body, new RegExp(`\\| \`${SAMPLE_AUDIT.modelRater}\` \\| model \\| `));
    // The agreement among all raters, beside the pairwise κ: figures with their seeded intervals.
    assert.match(body, /Agreement among all raters \(Fleiss' κ and nominal Krippendorff's α, /);
    assert.match(body, /\| all \| all \(2\) \| \d+ \| (?:-?\d\.\d{3} \(-?\d\.\d{3} to -?\d\.\d{3}\)|not defined) \| /);
    // The probe and what could not be counted, in the funnel's own words (Markdown-escaped): qt's probe failed in the sample.
    assert.match(
      body,
      /## Comment-count probe\n\n.+\n\n`openstack`: probe held\\: 0 of 1 had comments \(sample 50, seed 20241001, 1 candidate, at `[^`]+`\)\./,
    );
    assert.match(body, /`qt`: probe failed\\: 1 of 2 had comments\\; fetched without the shortcut/);
    assert.match(body, /## What was not counted\n\n.+\n\n(?:- .+\n)*- `qt`, `no_comments`: not counted, probe failed/);
    for (const org of Object.keys(funnel.organizations)) {
      const n = funnel.organizations[org].counters.nothing_left_overlap!;
      assert.ok(
        body.includes(`- \`${org}\`: overlap with nothing\\_left\\: ${n === 0 ? 'none' : n}`),
        `${org}'s overlap note, with its number`,
      );
    }
    for (const org of Object.keys(funnel.organizations)) {
      const tic = funnel.organizations[org].counters.target_in_comment;
      assert.ok(body.includes(`| all |`) && tic !== null);
    }
    if (funnel.decontamination) {
      const html = new MarkdownIt().render(body);
      assert.ok(html.includes(`<blockquote>\n<p>${funnel.decontamination.note}</p>`), 'the note, word for word');
    } else {
      assert.match(body, /No decontamination was applied/);
    }
  });

  it('says "license: unknown" and warns once without a license, and shows label shares once labels exist', async () => {
    const store = await CorpusStore.open(db);
    const build = latestBuildId(store)!;
    const keys = store
      .all<{ example_key: string }>(
        'SELECT example_key FROM examples WHERE build_id = ? AND rule IS NULL ORDER BY example_key LIMIT 4',
        [build],
      )
      .map((r) => r.example_key);
    // Without an audit sample the card lists the labels the file records, by rater.
    store.exec('DELETE FROM audit_items; DELETE FROM audit_samples; DELETE FROM labels; DELETE FROM label_raters');
    (['answers', 'answers', 'does_not', 'unsure'] as const).forEach((l, i) => setLabel(store, keys[i], 'r_rater_a', l));
    (['answers', 'does_not', 'does_not'] as const).forEach((l, i) => setLabel(store, keys[i], 'r_rater_b', l));
    store.save();
    store.close();
    const plain = path.join(dir, 'plain', 'examples.jsonl');
    mkdirSync(path.dirname(plain));
    const r = await cli('export', '--db', db, '--out', plain);
    assert.equal(r.code, 0, r.err.join('\n'));
    assert.deepEqual(r.err, [
      'review-corpus: warning: the dataset card says "license: unknown": the config stored with the build sets no card.license',
    ]);
    const { yaml, body } = readCard(path.join(dir, 'plain', 'README.md'));
    assert.equal(yaml.license, 'unknown');
    assert.equal(yaml.language, undefined);
    assert.equal(yaml.pretty_name, 'sample');
    assert.match(body, /\| `r_rater_a` \| 4 \| 2 \| 1 \| 1 \| 0\.500 \|/);
    assert.match(body, /\| `r_rater_b` \| 3 \| 1 \| 2 \| 0 \| 0\.333 \|/);
    // κ on the three both labelled: observed 2/3, chance 2/3·1/3 + 1/3·2/3 = 4/9, so κ = (2/9)/(5/9) = 0.4.
    assert.match(body, /\| `r_rater_a` \| `r_rater_b` \| 3 \| 0\.400 \|/);
  });

  it('renders a hostile project name inert: no link, image or tag in the rendered card', async () => {
    const hostile =
      '<img src=x onerror=alert(1)> [click](https://evil.example/x) ![i](https://evil.example/i.png) www.evil.example a@evil.example `|` **b**\n# heading';
    const store = await CorpusStore.open(db);
    const build = latestBuildId(store)!;
    store.run(
      `UPDATE changes SET project = ? WHERE id = (SELECT change_id FROM examples WHERE build_id = ? AND rule IS NULL ORDER BY id LIMIT 1)`,
      [hostile, build],
    );
    store.save();
    store.close();
    const hostileOut = path.join(dir, 'hostile', 'examples.jsonl');
    mkdirSync(path.dirname(hostileOut));
    assert.equal((await cli('export', '--db', db, '--out', hostileOut, '--config', configFile)).code, 0);
    const text = readFileSync(path.join(dir, 'hostile', 'README.md'), 'utf8');
    assert.ok(existsSync(path.join(dir, 'hostile', 'counts.csv')));
    // The Hub renders GitHub-flavoured Markdown; markdown-it with raw HTML and linkify on is stricter still.
    const html = new MarkdownIt({ html: true, linkify: true }).render(text.replace(/^---\n[\s\S]*?\n---\n/, ''));
    assert.doesNotMatch(html, /<a[\s>]/, 'no link at all in the card');
    assert.doesNotMatch(html, /<img/);
    assert.doesNotMatch(html, /<strong>b<\/strong>/);
    assert.doesNotMatch(html, /<h1>heading/);
    assert.match(
      html,
      /<code>&lt;img src=x onerror=alert\(1\)&gt; \[click\]\(https:\/\/evil\.example\/x\)/,
      'the name shows as text',
    );
  });
});
