// Switching a rule off from corpus.json (`rules.enabled`), end to end on the sample corpus (fetched from
// the loopback fake Gerrit into a real sql.js file on disk) through the CLI: suggested_edit, a code rule,
// goes off and on again; its rows read "off" (never 0) in the funnel, counts.csv and the card; the switch
// is in the config hash and the rules version (absent or true hashing as before); `diff` from the build
// with it off to the one with it on reconciles, naming suggested_edit for every example that left; and a
// switch that names no rule, or a rule that cannot be switched, is one line naming it, with nothing built.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSampleCorpus } from '../../scripts/sample-corpus';
import { runCli } from '../../src/cli/main';

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

interface Row {
  rule: string;
  removed: number | null;
  notCounted?: string;
}
interface Funnel {
  build: number;
  rulesVersion: string;
  organizations: Record<string, { funnel: Row[]; windows: Record<string, { funnel: Row[] }> }>;
}

describe('rules.enabled: switching a rule off from corpus.json', function () {
  this.timeout(120_000);
  let dir: string;
  let db: string;
  let sample: Record<string, unknown> & { rules: Record<string, unknown> };

  /** A corpus.json beside the sample's: its config with `rules` changed as given. */
  const configWith = (name: string, rules: Record<string, unknown>) => {
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify({ ...sample, rules: { ...sample.rules, ...rules } }, null, 2) + '\n');
    return file;
  };
  const build = async (config: string) => {
    const r = await cli('build', '--db', db, '--config', config);
    assert.equal(r.code, 0, r.err);
    const funnel = JSON.parse((await cli('funnel', '--db', db, '--json')).out) as Funnel;
    return { out: r.out, funnel };
  };
  const buildsIn = async () => (await cli('funnel', '--db', db, '--json')).out;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-switches-'));
    const built = await buildSampleCorpus(dir);
    db = built.dbFile;
    sample = JSON.parse(readFileSync(built.configFile, 'utf8'));
  });

  it('switches suggested_edit off: "off" in the funnel, counts.csv and the card, and in both hashes', async () => {
    const on = await build(configWith('on.json', {}));
    const onAgain = await build(configWith('on-explicit.json', { enabled: { suggested_edit: true } }));
    const off = await build(configWith('off.json', { enabled: { suggested_edit: false } }));
    const hashes = (o: string) => /rules (\w{12})/.exec(o.split('\n').at(-1)!)![1];
    assert.equal(hashes(onAgain.out), hashes(on.out), 'a switch set true is the rules version without it');
    assert.notEqual(hashes(off.out), hashes(on.out), 'a rule switched off changes the rules version');

    for (const [org, o] of Object.entries(off.funnel.organizations)) {
      for (const rows of [o.funnel, ...Object.values(o.windows).map((w) => w.funnel)]) {
        const row = rows.find((r) => r.rule === 'suggested_edit')!;
        assert.equal(row.removed, null, `${org}: off, never 0`);
        assert.equal(row.notCounted, 'off: rules.enabled.suggested_edit is false (set in corpus.json)');
      }
    }
    const table = (await cli('funnel', '--db', db)).out;
    assert.match(table, /\n {2}examples +suggested_edit +examples +off\n/);
    assert.match(table, /\n {2}off: suggested_edit: rules\.enabled\.suggested_edit is false \(set in corpus\.json\)\n/);

    const out = path.join(dir, 'off-export', 'examples.jsonl');

    mkdirSync(path.dirname(out), { recursive: true });
    const exported = await cli('export', '--db', db, '--out', out);
    assert.equal(exported.code, 0, exported.err);
    const counts = readFileSync(path.join(dir, 'off-export', 'counts.csv'), 'utf8');
    assert.match(counts, /\nopenstack,examples,suggested_edit,examples,\d+,off,.*,\d+\n/);
    const card = readFileSync(path.join(dir, 'off-export', 'README.md'), 'utf8');
    // Markdown escapes read without their backslashes.
    assert.match(
      card.replace(/\\/g, ''),
      /\d+\. `suggested_edit`: a comment holds a Gerrit suggested edit\. \*\*Off in this build\*\* \(rules\.enabled\.suggested_edit is false \(set in corpus\.json\)\)\./,
    );
    assert.match(card, /\| examples \| `suggested_edit` \| examples \| \d+ \| off \| \d+ \|/);
  });

  it('reconciles the build with suggested_edit off against the one with it on, naming suggested_edit for each example that left', async () => {
    const off = await build(configWith('off.json', { enabled: { suggested_edit: false } }));
    const on = await build(configWith('on.json', {}));
    const removedOn = Object.values(on.funnel.organizations).reduce(
      (n, o) => n + (o.funnel.find((r) => r.rule === 'suggested_edit')!.removed ?? 0),
      0,
    );
    assert.ok(removedOn >= 2, `suggested_edit removes examples of the sample (${removedOn})`);

    const json = await cli(
      'diff',
      '--db',
      db,
      '--from',
      String(off.funnel.build),
      '--to',
      String(on.funnel.build),
      '--json',
    );
    assert.equal(json.code, 0, json.err);
    const c = JSON.parse(json.out) as {
      left: { key: string; rule: string }[];
      reconciliation: string;
      cells: { keptFrom: number; left: number; entered: number; keptTo: number }[];
    };
    assert.equal(c.left.length, removedOn, 'every example suggested_edit removes left');
    assert.deepEqual([...new Set(c.left.map((m) => m.rule))], ['suggested_edit']);
    assert.doesNotMatch(c.reconciliation, /DOES NOT RECONCILE/);
    for (const x of c.cells) assert.equal(x.keptFrom - x.left + x.entered, x.keptTo);

    const text = await cli('diff', '--db', db, '--from', String(off.funnel.build), '--to', String(on.funnel.build));
    const left = text.out.split('\n').filter((l) => l.startsWith('left\t'));
    assert.equal(left.length, removedOn);
    for (const l of left) assert.match(l, /^left\t[^\t]+\tsuggested_edit$/);
    assert.doesNotMatch(text.out, /DOES NOT RECONCILE/);
  });

  it('says in one line which switch is wrong, and builds nothing', async () => {
    const before = await buildsIn();
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { suggested_edits: false },
        /^review-corpus: .*bad\.json: rules\.enabled\.suggested_edits is not a known field \(did you mean "suggested_edit"\?\)$/,
      ],
      [
        { nothing_left: false },
        /^review-corpus: .*bad\.json: rules\.enabled\.nothing_left cannot be switched off: an example needs a comment the comment rules kept; switch those rules off instead \(got false\)$/,
      ],
      [
        { protected_comment: false },
        /rules\.enabled\.protected_comment cannot be switched off: rules\.protectedCommentLevel switches it \(got false\)$/,
      ],
      [{ suggested_edit: 'no' }, /rules\.enabled\.suggested_edit must be true or false \(got "no"\)$/],
    ];
    for (const [enabled, message] of cases) {
      const r = await cli('build', '--db', db, '--config', configWith('bad.json', { enabled }));
      assert.notEqual(r.code, 0, JSON.stringify(enabled));
      assert.equal(r.err.split('\n').length, 1, `one line: ${r.err}`);
      assert.match(r.err, message);
    }
    assert.equal(await buildsIn(), before, 'no build was written');
  });
});
