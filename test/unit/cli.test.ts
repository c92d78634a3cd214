import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli/main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const SUBCOMMANDS = ['fetch', 'build', 'funnel', 'export', 'verify', 'diff'];

describe('review-corpus CLI frame', () => {
  it('--help lists every subcommand', async () => {
    const r = await cli('--help');
    assert.equal(r.code, 0);
    for (const c of SUBCOMMANDS) assert.match(r.out, new RegExp(`^  ${c} `, 'm'));
  });

  for (const c of SUBCOMMANDS) {
    it(`${c} --help prints its usage`, async () => {
      const r = await cli(c, '--help');
      assert.equal(r.code, 0);
      assert.match(r.out, new RegExp(`^usage: review-corpus ${c} `));
    });
  }

  it('build --db /nonexistent fails with one clear line', async () => {
    const r = await cli('build', '--db', '/nonexistent');
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.equal(r.err, 'review-corpus: /nonexistent: no such file');
  });

  it('names an unknown option in one line', async () => {
    const r = await cli('build', '--db', 'x.sqlite', '--frobnicate');
    assert.notEqual(r.code, 0);
    assert.equal(r.err.split('\n').length, 1);
    assert.match(r.err, /--frobnicate/);
  });

  it('names a missing required option', async () => {
    const r = await cli('export', '--db', 'x.sqlite');
    assert.notEqual(r.code, 0);
    assert.equal(r.err, 'review-corpus: export: missing required option --out');
  });

  it('names an unknown command', async () => {
    const r = await cli('frobnicate');
    assert.notEqual(r.code, 0);
    assert.match(r.err, /unknown command 'frobnicate'/);
  });

  it('names a foreign file without a stack trace', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'rc-cli-')), 'notes.txt');
    writeFileSync(file, 'just some notes, not a database at all; '.repeat(10));
    const r = await cli('funnel', '--db', file);
    assert.equal(r.code, 2);
    assert.equal(r.err, `review-corpus: ${file}: not a SQLite database, so not a corpus`);
  });

  it('diff rejects a build id that is not a number', async () => {
    const r = await cli('diff', '--db', 'x.sqlite', '--from', 'latest', '--to', '2');
    assert.notEqual(r.code, 0);
    assert.match(r.err, /--from latest/);
  });
});
