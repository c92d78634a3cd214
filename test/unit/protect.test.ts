// `review-corpus protect` end to end on the sample corpus (a real sql.js file on disk): a registered set
// is stored whole with its hash and time, the next build removes what overlaps it under
// protected_overlap with the evidence naming it, diff and verify stay honest, and every bad input is
// one line naming the culprit.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSampleCorpus, SAMPLE_PROTECTED_SET } from '../../scripts/sample-corpus';
import { runCli } from '../../src/cli/main';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { acquireWriterLock } from '../../src/core/ground/store/writerLock';
import { referenceSetHash, parseReferences } from '../../src/core/rules/decontam/referenceSets';
import { FABRICATED_BENCHMARK_TEST_JSONL } from '../fixtures/protected/fabricatedBenchmarkTest';

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

// The greeter of the sample (qt change 600112, train, kept), re-indented: a whole before side.
const GREETER =
  'int main(int argc, char *argv[]) {\n QApplication app(argc, argv);\n QLabel größe(QStringLiteral("Grüße aus Köln"));';

describe('review-corpus protect', function () {
  this.timeout(60_000);
  let dir: string;
  let db: string;
  const refs = (name: string, lines: unknown[]) => {
    const file = path.join(dir, name);
    writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
    return file;
  };
  const latest = async () => {
    const store = await CorpusStore.open(db);
    try {
      const build = Number(store.scalar('SELECT max(id) FROM builds'));
      return {
        build,
        rows: store.all<{ unit_key: string; rule: string; evidence: string | null }>(
          "SELECT unit_key, rule, evidence FROM decisions WHERE build_id = ? AND rule = 'protected_overlap' ORDER BY unit_key",
          [build],
        ),
      };
    } finally {
      store.close();
    }
  };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-protect-'));
    ({ dbFile: db } = await buildSampleCorpus(dir));
  });

  it('registers a set in the file with its SHA-256 and time, and the next build removes what overlaps it', async () => {
    const file = refs('codereviewer-test.jsonl', [
      { id: 'g1', before: GREETER },
      { id: 'g2', comment: 'nothing of the sample' },
    ]);
    const r = await cli('protect', '--db', db, '--name', 'codereviewer-test', file);
    assert.equal(r.code, 0, r.err);
    const items = parseReferences(readFileSync(file, 'utf8'), file);
    assert.match(
      r.out,
      new RegExp(`^protected "codereviewer-test": 2 items, sha256 ${referenceSetHash(items)}, registered \\d{4}-`),
    );
    const before = await latest();
    assert.deepEqual(
      before.rows.map((x) => x.unit_key),
      ['wikimedia/1090015/1/1/resources/src/fx/fxDebounce.js'],
      "only the sample's own set so far",
    );

    const built = await cli('build', '--db', db);
    assert.equal(built.code, 0, built.err);
    const after = await latest();
    const greeter = after.rows.find((x) => x.unit_key === 'qt/600112/1/4/examples/widgets/fx/greeter/greeter.cpp');
    assert.ok(greeter, JSON.stringify(after.rows));
    assert.deepEqual(JSON.parse(greeter.evidence!), {
      reference_set: 'codereviewer-test',
      reference_id: 'g1',
      reference_field: 'before',
      policy: 'side_substring',
      side: 'before',
      span_start: 0,
      span_end: JSON.parse(greeter.evidence!).span_end,
    });
    const store = await CorpusStore.open(db);
    try {
      const text = String(
        store.scalar('SELECT before_text FROM examples WHERE build_id = ? AND example_key = ?', [
          after.build,
          greeter.unit_key,
        ]),
      );
      const e = JSON.parse(greeter.evidence!);
      assert.equal(
        text.slice(e.span_start, e.span_end).replace(/\s+/g, ' '),
        GREETER.replace(/\s+/g, ' '),
        'the span is the matched text',
      );
      const funnel = JSON.parse(String(store.scalar('SELECT funnel FROM builds WHERE id = ?', [after.build])));
      assert.deepEqual(
        funnel.decontamination.references.map((s: { name: string; items: number }) => `${s.name} ${s.items}`),
        ['codereviewer-test 2', `${SAMPLE_PROTECTED_SET} 3`],
      );
      assert.deepEqual(funnel.decontamination.automatic, [], 'cross-window decontamination is off by default');
      assert.match(funnel.decontamination.note, /^Decontamination is not a guarantee/);
      assert.equal(
        funnel.organizations.qt.windows.train.funnel.find((x: { rule: string }) => x.rule === 'protected_overlap')
          .removed,
        1,
      );
      const versions = store.all<{ rules_version: string }>(
        'SELECT rules_version FROM builds WHERE id IN (?, ?) ORDER BY id',
        [before.build, after.build],
      );
      assert.notEqual(
        versions[0].rules_version,
        versions[1].rules_version,
        'the registered set is part of the rules version',
      );
    } finally {
      store.close();
    }
    const diff = await cli('diff', '--db', db, '--from', String(before.build), '--to', String(after.build));
    assert.match(
      diff.out,
      /^left\tqt\/600112\/1\/4\/examples\/widgets\/fx\/greeter\/greeter\.cpp\tprotected_overlap$/m,
    );
    assert.equal((await cli('verify', '--db', db, '--reproduce')).out, 'clean', 'a rebuild needs nothing but the file');
  });

  it('replaces a registered set only with --replace, and records both registrations', async () => {
    const file = refs('again.jsonl', [{ id: 'g1', comment: 'another text' }]);
    const refused = await cli('protect', '--db', db, '--name', 'codereviewer-test', file);
    assert.equal(refused.code, 2);
    assert.match(
      refused.err,
      /^review-corpus: protect: a set named "codereviewer-test" is registered already \(sha256 [0-9a-f]{12}…, .*\); --replace replaces it$/,
    );
    const replaced = await cli('protect', '--db', db, '--name', 'codereviewer-test', '--replace', file);
    assert.equal(replaced.code, 0, replaced.err);
    const store = await CorpusStore.open(db);
    try {
      assert.deepEqual(
        store
          .all('SELECT action, items FROM protected_set_events WHERE name = ? ORDER BY id', ['codereviewer-test'])
          .map((e) => `${e.action} ${e.items}`),
        ['registered 2', 'replaced 1'],
      );
      assert.equal(store.scalar('SELECT count(*) FROM protected_items WHERE set_name = ?', ['codereviewer-test']), 1);
    } finally {
      store.close();
    }
  });

  it('says in one line which line of the file is wrong, or which id repeats, and writes nothing', async () => {
    const cases: [unknown[], RegExp][] = [
      [[{ id: 'a', before: 'x' }, '{"id": "b", "before": '], /^review-corpus: .*bad\.jsonl:2: not valid JSON/],
      [
        [
          { id: 'a', before: 'x' },
          { id: 'b', after: 'y' },
          { id: 'a', comment: 'z' },
        ],
        /^review-corpus: .*bad\.jsonl:3: duplicate id "a" \(first on line 1\)$/,
      ],
      [[{ id: 'a', befor: 'x' }], /^review-corpus: .*bad\.jsonl:1: "befor" is not a known field/],
      [[{ before: 'x' }], /^review-corpus: .*bad\.jsonl:1: "id" is required/],
      [[{ id: 'a' }], /^review-corpus: .*bad\.jsonl:1: item "a" has none of before, after, comment$/],
      [[{ id: 'a', before: 3 }], /^review-corpus: .*bad\.jsonl:1: "before" must be a string$/],
    ];
    for (const [lines, message] of cases) {
      const r = await cli('protect', '--db', db, '--name', 'bad-set', refs('bad.jsonl', lines));
      assert.equal(r.code, 2, JSON.stringify(lines));
      assert.match(r.err, message);
    }
    const missing = await cli('protect', '--db', db, '--name', 'bad-set', path.join(dir, 'nope.jsonl'));
    assert.match(missing.err, /nope\.jsonl: cannot read the reference file \(ENOENT\)$/);
    assert.match(
      (await cli('protect', '--db', db, '--name', 'bad set', refs('ok.jsonl', [{ id: 'a', before: 'x' }]))).err,
      /--name "bad set": a set name is/,
    );
    assert.match(
      (await cli('protect', '--db', db, '--name', 'x')).err,
      /^review-corpus: protect: give exactly one <references\.jsonl> \(got 0\)$/,
    );
    assert.match(
      (
        await cli(
          'protect',
          '--db',
          path.join(dir, 'none.sqlite'),
          '--name',
          'x',
          refs('ok.jsonl', [{ id: 'a', before: 'x' }]),
        )
      ).err,
      /none\.sqlite/,
    );
    const store = await CorpusStore.open(db);
    try {
      assert.equal(store.scalar("SELECT count(*) FROM protected_sets WHERE name = 'bad-set'"), 0);
    } finally {
      store.close();
    }
  });

  it('takes the writer lock: while another writer holds the file it fails naming the holder', async () => {
    const lock = await acquireWriterLock(db, { command: 'review-corpus build' });
    try {
      const r = await cli(
        'protect',
        '--db',
        db,
        '--name',
        'locked',
        '--wait',
        '0',
        refs('ok.jsonl', [{ id: 'a', before: 'x' }]),
      );
      assert.equal(r.code, 2);
      assert.match(r.err, /in use by pid \d+ \(review-corpus build, since/);
    } finally {
      lock.release();
    }
  });

  it("registers the sample's fabricated set exactly as its JSONL reads", () => {
    assert.equal(parseReferences(FABRICATED_BENCHMARK_TEST_JSONL, 'x').length, 3);
  });
});
