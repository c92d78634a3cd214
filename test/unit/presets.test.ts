// Host presets and `review-corpus init`: a corpus.json for the seeds' hosts that the strict schema
// takes, with PRODUCT.md's windows, never written over an existing file without --force.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli/main';
import { loadCorpusConfig } from '../../src/core/rules/corpusJson/loadConfig';
import { HOST_PRESETS, contactProblem, findPreset, newCorpusConfig } from '../../src/core/rules/corpusJson/presets';
import { PRODUCT_START, PRODUCT_WINDOWS } from '../../src/core/ground/config/types';
import { requireContact, userAgentFor } from '../../src/core/gerrit/userAgent';

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('host presets', () => {
  it('holds the four hosts of the seeds, each with its REST root, a polite pace and merged changes', () => {
    assert.deepEqual(
      HOST_PRESETS.map((p) => [p.id, p.host.org, p.host.url]),
      [
        ['review.opendev.org', 'openstack', 'https://review.opendev.org'],
        ['codereview.qt-project.org', 'qt', 'https://codereview.qt-project.org'],
        ['gerrit.wikimedia.org', 'wikimedia', 'https://gerrit.wikimedia.org/r'],
        ['android-review.googlesource.com', 'android', 'https://android-review.googlesource.com'],
      ],
    );
    for (const p of HOST_PRESETS) {
      assert.ok(p.host.minIntervalMs >= 1000, `${p.id}: at most one request a second`);
      assert.equal(p.host.query, 'status:merged');
      assert.ok(p.terms.length > 0);
    }
  });

  it('finds a preset by host name, org or URL', () => {
    for (const name of [
      'gerrit.wikimedia.org',
      'wikimedia',
      'https://gerrit.wikimedia.org/r',
      'gerrit.wikimedia.org/r/',
      'WIKIMEDIA',
    ]) {
      assert.equal(findPreset(name)?.host.org, 'wikimedia', name);
    }
    assert.equal(findPreset('gerrit.example.org'), undefined);
  });

  it("writes PRODUCT.md's start and windows, the test window sealed", () => {
    const c = newCorpusConfig(HOST_PRESETS, { contact: 'corpus-team@example.org' });
    assert.equal(c.start, PRODUCT_START);
    assert.deepEqual(c.windows, PRODUCT_WINDOWS);
    assert.deepEqual(
      c.card,
      { splits: { pilot: 'pilot', train: 'train', dev: 'validation', test: 'test' } },
      "each window's split name written out, the default spelt out",
    );
  });

  it('says what is wrong with a contact as loadConfig does', () => {
    assert.equal(contactProblem('corpus-team@example.org'), undefined);
    assert.match(
      contactProblem('corpus team') ?? '',
      /^contact must be an e-mail address or an https:\/\/ URL \(got "corpus team"\)$/,
    );
  });
});

describe('review-corpus init', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rc-init-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a corpus.json for a preset that the strict schema takes, with the contact in the User-Agent', async () => {
    const file = path.join(dir, 'corpus.json');
    const r = await cli(
      'init',
      '--host',
      'gerrit.wikimedia.org',
      '--out',
      file,
      '--contact',
      'corpus-team@example.org',
    );
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, '');
    assert.match(
      r.out,
      /^wrote .*corpus\.json: wikimedia https:\/\/gerrit\.wikimedia\.org\/r every 1000 ms; cross-window decontamination off \(decontam\.crossWindow\)$/,
    );
    const c = loadCorpusConfig(file);
    assert.equal(c.contact, 'corpus-team@example.org');
    assert.deepEqual(
      c.hosts.map((h) => [h.org, h.url, h.minIntervalMs, h.query]),
      [['wikimedia', 'https://gerrit.wikimedia.org/r', 1000, 'status:merged']],
    );
    assert.deepEqual(
      c.windows.filter((w) => w.sealed).map((w) => w.name),
      ['test'],
    );
    assert.match(userAgentFor(c), /^review-corpus\/\d+\.\d+\.\d+ \(corpus-team@example\.org\)$/);
    assert.ok(readFileSync(file, 'utf8').endsWith('}\n'));
  });

  it('takes several presets, comma-separated, one organization each', async () => {
    const file = path.join(dir, 'corpus.json');
    const r = await cli(
      'init',
      '--host',
      'openstack,qt,wikimedia,android',
      '--out',
      file,
      '--contact',
      'https://example.org/our-corpus',
    );
    assert.equal(r.code, 0, r.err);
    const c = loadCorpusConfig(file);
    assert.deepEqual(
      c.hosts.map((h) => h.org),
      ['openstack', 'qt', 'wikimedia', 'android'],
    );
    assert.equal(c.name, 'openstack-qt-wikimedia-android');
  });

  it('without --contact writes the file, says a contact is needed, and fetching is refused naming the file', async () => {
    const file = path.join(dir, 'corpus.json');
    const r = await cli('init', '--host', 'openstack', '--out', file);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /has no "contact"/);
    assert.throws(
      () => requireContact(loadCorpusConfig(file)),
      (e: Error) => e.message.startsWith(`${file}: contact is required to fetch https://review.opendev.org`),
    );
  });

  it('does not overwrite an existing file without --force', async () => {
    const file = path.join(dir, 'corpus.json');
    writeFileSync(file, '{"mine": true}\n');
    const r = await cli('init', '--host', 'qt', '--out', file, '--contact', 'corpus-team@example.org');
    assert.equal(r.code, 2);
    assert.equal(r.err, `review-corpus: init: ${file} already exists; nothing was written (--force replaces it)`);
    assert.equal(readFileSync(file, 'utf8'), '{"mine": true}\n');
    const forced = await cli('init', '--host', 'qt', '--out', file, '--contact', 'corpus-team@example.org', '--force');
    assert.equal(forced.code, 0, forced.err);
    assert.equal(loadCorpusConfig(file).hosts[0].org, 'qt');
  });

  it('names an unknown preset and lists the presets, in one line', async () => {
    const r = await cli('init', '--host', 'gerrit.example.org', '--out', path.join(dir, 'corpus.json'));
    assert.equal(r.code, 2);
    assert.match(
      r.err,
      /^review-corpus: init: no host preset "gerrit\.example\.org" \(presets: review\.opendev\.org \(openstack\), .*android-review\.googlesource\.com \(android\)\)$/,
    );
  });

  it('refuses a contact the schema refuses, naming the file and the field, and writes nothing', async () => {
    const file = path.join(dir, 'corpus.json');
    const r = await cli('init', '--host', 'qt', '--out', file, '--contact', 'http://example.org');
    assert.equal(r.code, 2);
    assert.equal(
      r.err,
      `review-corpus: ${file}: contact must be an e-mail address or an https:// URL (got "http://example.org")`,
    );
    assert.throws(() => readFileSync(file), /ENOENT/);
  });

  it('is listed in the help, with its options', async () => {
    const main = await cli('--help');
    assert.match(main.out, /^ {2}init /m);
    const help = await cli('init', '--help');
    assert.equal(help.code, 0);
    assert.match(
      help.out,
      /^ {2}--host <preset>\[,<preset>…\] +the hosts to read, comma-separated: review\.opendev\.org \(openstack\).*\(required\)$/m,
    );
    assert.match(help.out, /--force/);
  });
});
