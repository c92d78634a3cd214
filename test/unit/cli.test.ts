import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli/main';
import { COMMANDS } from '../../src/cli/commands';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const SUBCOMMANDS = ['fetch', 'build', 'funnel', 'export', 'verify', 'diff', 'tag'];

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

  // Every command, including any added later, gets -h, `help <command>` and described options from
  // the shared machinery (src/cli/command.ts).
  for (const c of COMMANDS) {
    it(`${c.name} -h and help ${c.name} print the same help as --help`, async () => {
      const long = await cli(...c.name.split(' '), '--help');
      const short = await cli(...c.name.split(' '), '-h');
      const viaHelp = await cli('help', ...c.name.split(' '));
      for (const r of [short, viaHelp]) {
        assert.equal(r.code, 0, r.err);
        assert.equal(r.err, '');
        assert.equal(r.out, long.out);
      }
    });

    it(`${c.name} --help describes every option`, async () => {
      const lines = (await cli(...c.name.split(' '), '--help')).out.split('\n');
      for (const [name, spec] of Object.entries(c.options)) {
        const line = lines.find((l) => l.startsWith(`  --${name} `) || l === `  --${name}`);
        assert.ok(line, `--${name} is listed`);
        const description = (spec as { description?: string }).description;
        assert.ok(description && description.length > 5, `--${name} has a description`);
        assert.ok(line.includes(description), `--${name}'s line shows its description: ${line}`);
      }
      assert.ok(
        lines.some((l) => /^  -h, --help +\S/.test(l)),
        'lists -h, --help',
      );
    });
  }

  it('help alone prints the command list, help with an unknown command names it', async () => {
    const r = await cli('help');
    assert.equal(r.code, 0);
    assert.match(r.out, /^  build /m);
    const bad = await cli('help', 'frobnicate');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /unknown command 'frobnicate'/);
  });

  it("fetch's usage names --quiet", async () => {
    const r = await cli('fetch', '--help');
    assert.match(r.out.split('\n')[0], / \[--quiet\]/);
  });

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

  it('diff rejects a build that is neither an id nor a tag name, before reading the file', async () => {
    const r = await cli('diff', '--db', 'x.sqlite', '--from', 'the latest', '--to', '2');
    assert.notEqual(r.code, 0);
    assert.equal(r.err, 'review-corpus: --from "the latest": neither a build id nor a tag name');
  });
});
