// `review-corpus export --format search-replace` on the sample corpus (fetched from the fake Gerrit,
// built by the real code): the golden JSONL, the report beside it, and the round trip of every
// exported block set, checked against the fixtures' own file texts, not the stored diffs.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSampleCorpus } from '../../scripts/sample-corpus';
import { runCli } from '../../src/cli/main';
import { applyBlocks, sha256Hex } from '../../src/core/publish/export/searchReplace/verify';
import { SAMPLE_ORGS } from '../fake-gerrit/server';
import { loadOrgFixture } from '../fake-gerrit/fixtureStore';
import { fileVersionToText, type FixtureChange } from '../fake-gerrit/fixtureTypes';

const GOLDEN = path.resolve('test/fixtures/golden/search-replace.jsonl');

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

interface Line {
  id: string;
  org: string;
  change: number;
  path: string;
  psBefore: number;
  psAfter: number;
  base_sha256: string;
  target_sha256: string;
  after_sha256: string;
  edits_outside_hunk: number;
  blocks: { search: string; replace: string }[];
  rendered: string;
  base: string;
  comments: unknown[];
  window: string | null;
}

/** A file's text at a patch set, from the fixture the fake Gerrit serves (a rename followed to its new path). */
function fixtureText(
  changes: Map<string, FixtureChange>,
  org: string,
  number: number,
  filePath: string,
  ps: number,
): string {
  const c = changes.get(`${org}/${number}`);
  assert.ok(c, `fixture change ${org}/${number}`);
  const renamed = c.renames?.find((r) => r.ps === ps && r.from === filePath);
  const version = c.files[renamed ? renamed.to : filePath]?.[ps];
  assert.ok(version, `fixture ${org}/${number} has ${filePath} at patch set ${ps}`);
  return fileVersionToText(version);
}

describe('search-replace export of the sample corpus', function () {
  this.timeout(60_000);
  let dir: string;
  let db: string;
  let out: string;
  let printed: string;
  let lines: Line[];

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-sr-'));
    ({ dbFile: db } = await buildSampleCorpus(dir));
    out = path.join(dir, 'search-replace.jsonl');
    const r = await cli('export', '--db', db, '--out', out, '--format', 'search-replace');
    assert.equal(r.code, 0, r.err);
    printed = r.out;
    lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
  });

  it('has the golden JSONL (test/fixtures/golden/search-replace.jsonl)', () => {
    // Each sample host listens on a free port, which `source` names: the golden holds port 0.
    const actual = readFileSync(out, 'utf8').replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:0');
    if (process.env.UPDATE_GOLDEN) writeFileSync(GOLDEN, actual);
    assert.ok(existsSync(GOLDEN), 'golden file present (UPDATE_GOLDEN=1 writes it)');
    const golden = readFileSync(GOLDEN, 'utf8');
    const ids = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as Line).id);
    assert.deepEqual(ids(actual), ids(golden), 'the same examples, in the same order');
    const [got, want] = [actual.split('\n'), golden.split('\n')];
    const at = got.findIndex((l, i) => l !== want[i]);
    assert.equal(at, -1, `line ${at + 1} (${ids(actual)[at]}) differs from the golden`);
    assert.equal(actual, golden);
  });

  it('prints the counts and writes them to search-replace-report.json, with dataset-funnel.json beside it', () => {
    const report = JSON.parse(readFileSync(path.join(dir, 'search-replace-report.json'), 'utf8'));
    assert.equal(report.exported, lines.length);
    assert.equal(
      report.exported + report.sr_not_unique + report.sr_overlap + report.sr_mismatch + report.sr_no_diff,
      report.examples,
    );
    assert.equal(report.not_exported.length, report.examples - report.exported);
    assert.equal(report.mergeGapLines, 2, 'the default');
    assert.match(
      printed,
      new RegExp(
        `^${report.exported} of ${report.examples} examples exported; not exported: sr_not_unique ${report.sr_not_unique}, sr_overlap ${report.sr_overlap}, sr_mismatch ${report.sr_mismatch}$`,
        'm',
      ),
    );
    const funnel = JSON.parse(readFileSync(path.join(dir, 'dataset-funnel.json'), 'utf8'));
    const kept = Object.values(
      funnel.organizations as Record<string, { windows: Record<string, { examples: number | null }> }>,
    ).reduce((n, o) => n + Object.values(o.windows).reduce((m, w) => m + (w.examples ?? 0), 0), 0);
    assert.equal(report.examples, kept, 'every kept example is exported or counted');
    assert.ok(lines.length > 10, `${lines.length} exported`);
  });

  it("property: every exported block set, applied back to its base, gives the target; the files are the fixtures' byte for byte", () => {
    const changes = new Map<string, FixtureChange>();
    for (const org of SAMPLE_ORGS)
      for (const c of loadOrgFixture(org).changes) changes.set(`${org}/${c.change._number}`, c);
    let wholeFile = 0;
    for (const e of lines) {
      const base = fixtureText(changes, e.org, e.change, e.path, e.psBefore);
      const after = fixtureText(changes, e.org, e.change, e.path, e.psAfter);
      assert.equal(e.base, base, `${e.id}: base is patch set ${e.psBefore}'s file`);
      assert.equal(e.base_sha256, sha256Hex(base), e.id);
      assert.equal(e.after_sha256, sha256Hex(after), e.id);
      for (const b of e.blocks) {
        const at = base.indexOf(b.search);
        assert.ok(at >= 0 && base.indexOf(b.search, at + 1) < 0, `${e.id}: a SEARCH occurs once`);
      }
      const result = applyBlocks(base, e.blocks);
      assert.equal(sha256Hex(result), e.target_sha256, `${e.id}: the blocks give the target`);
      if (e.edits_outside_hunk === 0) {
        assert.equal(
          result,
          after,
          `${e.id}: the hunk holds every edit, so the target is patch set ${e.psAfter}'s file`,
        );
        wholeFile++;
      } else {
        assert.notEqual(e.target_sha256, e.after_sha256, e.id);
      }
      assert.ok(e.rendered.startsWith(`### ${e.path}\n<<<<<<< SEARCH\n`), e.id);
      assert.equal(e.rendered.split('>>>>>>> REPLACE\n').length - 1, e.blocks.length, e.id);
      assert.ok(e.comments.length > 0, e.id);
    }
    assert.ok(wholeFile > 0, "some targets are N + 1's whole file");
    const crlf = lines.find((e) => e.change === 930017);
    assert.ok(crlf && crlf.blocks.some((b) => b.search.includes('\r\n')), 'CRLF comes through byte-exact');
  });

  it('takes mergeGapLines from --config, refuses an unknown --format and a bad mergeGapLines with one line', async () => {
    const config = JSON.parse(readFileSync(path.join(dir, 'corpus.json'), 'utf8'));
    const apart = path.join(dir, 'apart.json');
    writeFileSync(apart, JSON.stringify({ ...config, searchReplace: { mergeGapLines: 0 } }));
    const other = path.join(dir, 'apart.jsonl');
    const r = await cli('export', '--db', db, '--out', other, '--format', 'search-replace', '--config', apart);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(readFileSync(path.join(dir, 'search-replace-report.json'), 'utf8')).mergeGapLines, 0);
    const blocks = (f: string) =>
      readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .reduce((n, l) => n + (JSON.parse(l) as Line).blocks.length, 0);
    assert.ok(blocks(other) > blocks(out), 'regions a few lines apart stay apart');

    const bad = await cli('export', '--db', db, '--out', other, '--format', 'diff');
    assert.notEqual(bad.code, 0);
    assert.match(bad.err, /--format diff: must be one of jsonl, search-replace/);
    const badConfig = path.join(dir, 'bad.json');
    writeFileSync(badConfig, JSON.stringify({ ...config, searchReplace: { mergeGapLines: -1 } }));
    const refused = await cli(
      'export',
      '--db',
      db,
      '--out',
      other,
      '--format',
      'search-replace',
      '--config',
      badConfig,
    );
    assert.notEqual(refused.code, 0);
    assert.match(refused.err, /searchReplace\.mergeGapLines/);
  });
});
