// Every exported record is traceable to Gerrit: fetched over loopback from fake Gerrit hosts into a
// real corpus file, built and exported through the CLI, each record's `source` is followed back to the
// host the way a reader would (GET …/revisions/{revision}/files/{file}/content, base64, as Gerrit
// sends it), and lines first..last of what comes back must be the record's text, byte for byte.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { type ChangeSpec, crlf, edit, noFinalNewline } from '../fake-gerrit/fixtures/dsl';
import { buildOrgFixture } from '../fake-gerrit/fixtures/buildFixture';
import { scenarioQuery } from '../fake-gerrit/fixtures/expectations';
import { loadOrgFixture } from '../fake-gerrit/fixtureStore';
import type { OrgFixture } from '../fake-gerrit/fixtureTypes';
import { startFakeGerrit, type FakeGerrit } from '../fake-gerrit/server';
import { SAMPLE_SALT } from '../../scripts/sample-corpus';
import { runCli } from '../../src/cli/main';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { copyCorpus } from '../../src/core/ground/store/copyCorpus';
import { PRODUCT_START, PRODUCT_WINDOWS } from '../../src/core/ground/config/types';
import type { ExportedExample } from '../../src/core/build/records/publishedRecords';
import { storeBuildRecords } from '../../src/core/build/records/buildRecords';
import { recordFieldRows, recordSchemaText } from '../../src/core/build/records/recordSchema';

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { REVIEW_CORPUS_SALT: SAMPLE_SALT },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** `n` lines of fabricated Python, each distinct. */
const module = (name: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${name}_value_${i + 1} = compute_${name}(${i + 1})`).join('\n') + '\n';
const base = { owner: 'alice_fx', patchSets: [{}, {}] };
const reviewer = 'bruno_fx';
const crlfEnd = crlf(noFinalNewline(module('bat', 8)));
const moved = module('moved', 20);
const eof = module('eof', 12);
const gone = module('gone', 20);
const ODD_PROJECT = 'tools/odd name#1?';

const SPECS: ChangeSpec[] = [
  // CRLF without a final newline, the last line edited; in a project whose name needs encoding.
  {
    ...base,
    project: ODD_PROJECT,
    number: 970001,
    subject: 'crlf',
    created: '2025-01-06 11:00:00',
    files: { 'tools/w.bat': [null, crlfEnd, edit(crlfEnd, ['bat_value_8 =', ['bat_value_8 = compute_bat(80)']])] },
    comments: [{ id: 'src_crlf', path: 'tools/w.bat', ps: 1, line: 8, author: reviewer, message: 'Use 80 here.' }],
  },
  // A rename with an edit near the comment: the comment sits on the old path.
  {
    ...base,
    project: 'openstack/nova',
    number: 970002,
    subject: 'rename',
    created: '2025-01-08 10:00:00',
    files: {
      'old/moved.py': [null, moved, null],
      'new/moved.py': [null, null, edit(moved, ['moved_value_10 =', ['moved_value_10 = compute_moved(100)']])],
    },
    renames: [{ ps: 2, from: 'old/moved.py', to: 'new/moved.py' }],
    comments: [
      { id: 'src_rename', path: 'old/moved.py', ps: 1, line: 10, author: reviewer, message: 'Wrong factor here.' },
    ],
  },
  // The last line of a file ending in "\n" edited (Gerrit's final "" line), and no kind for patch set 2.
  {
    ...base,
    patchSets: [{}, { kind: null }],
    project: 'openstack/nova',
    number: 970003,
    subject: 'eof',
    created: '2025-01-09 10:00:00',
    files: { 'eof.py': [null, eof, edit(eof, ['eof_value_12 =', ['eof_value_12 = compute_eof(120)']])] },
    comments: [{ id: 'src_eof', path: 'eof.py', ps: 1, line: 12, author: reviewer, message: 'This should be 120.' }],
  },
  // A file patch set 2 deleted: a hunk empty after, which one_sided removes.
  {
    ...base,
    project: 'openstack/nova',
    number: 970004,
    subject: 'delete',
    created: '2025-01-10 10:00:00',
    files: { 'gone.py': [null, gone, null] },
    comments: [{ id: 'src_gone', path: 'gone.py', ps: 1, line: 10, author: reviewer, message: 'Still needed?' }],
  },
];

/** Lines first..last (1-based, inclusive) of a file's bytes, each with its "\n"; the file's last line may have none. */
function linesOf(bytes: Buffer, [first, last]: [number, number]): Buffer {
  let start = 0;
  for (let line = 1; line < first; line++) {
    const nl = bytes.indexOf(0x0a, start);
    assert.ok(nl >= 0, `the file has no line ${first}`);
    start = nl + 1;
  }
  let end = start;
  for (let line = first; line <= last; line++) {
    const nl = bytes.indexOf(0x0a, end);
    if (nl < 0) {
      assert.ok(line === last && end < bytes.length, `the file has no line ${line}`);
      end = bytes.length;
    } else end = nl + 1;
  }
  return bytes.subarray(start, end);
}

/** The file as the host serves it at a revision: base64 decoded, or the HTTP status when it does not. */
async function served(host: string, change: number, revision: string, file: string): Promise<Buffer | number> {
  const res = await fetch(
    `${host}/changes/${change}/revisions/${encodeURIComponent(revision)}/files/${encodeURIComponent(file)}/content`,
  );
  const body = await res.text();
  if (res.status !== 200) return res.status;
  assert.equal(res.headers.get('x-fyi-content-encoding'), 'base64');
  return Buffer.from(body, 'base64');
}

describe('every exported record is traceable to Gerrit', function () {
  this.timeout(120_000);
  let hosts: FakeGerrit[] = [];
  let dir: string;
  let db: string;
  let records: ExportedExample[];
  let validate: (e: unknown) => boolean;
  const fixtures = new Map<string, OrgFixture>();
  const record = (change: number) => {
    const r = records.find((e) => e.change === change);
    assert.ok(r, `change ${change} is exported`);
    return r;
  };

  before(async () => {
    // The sample's openstack changes (930017: CRLF, 930016: no kind for patch set 2) and the cases above, on one host.
    const sample = loadOrgFixture('openstack');
    fixtures.set('openstack', {
      ...sample,
      changes: [...sample.changes, ...buildOrgFixture('openstack', SPECS).changes],
    });
    hosts = await Promise.all([...fixtures].map(([org, fixture]) => startFakeGerrit({ org, fixture })));
    dir = mkdtempSync(path.join(tmpdir(), 'rc-source-'));
    const config = path.join(dir, 'corpus.json');
    writeFileSync(
      config,
      JSON.stringify({
        name: 'source',
        db: 'corpus.sqlite',
        start: PRODUCT_START,
        salt: { env: 'REVIEW_CORPUS_SALT' },
        windows: PRODUCT_WINDOWS,
        hosts: hosts.map((h) => ({ org: h.org, url: `${h.url}/`, query: scenarioQuery(h.org), minIntervalMs: 0 })),
        rules: {},
      }),
    );
    db = path.join(dir, 'corpus.sqlite');
    for (const args of [
      ['fetch', '--config', config, '--db', db, '--quiet'],
      ['build', '--db', db],
      ['export', '--db', db, '--out', path.join(dir, 'examples.jsonl')],
      ['export', '--db', db, '--out', path.join(dir, 'sr.jsonl'), '--format', 'search-replace'],
    ]) {
      const r = await cli(...args);
      assert.equal(r.code, 0, `${args[0]}: ${r.err}`);
    }
    const ajv = new Ajv({ strict: true, allErrors: true });
    addFormats(ajv, ['date-time', 'uri']);
    const compiled = ajv.compile(JSON.parse(readFileSync(path.resolve('schemas/example.schema.json'), 'utf8')));
    validate = (e) => compiled(e) || assert.fail(ajv.errorsText(compiled.errors));
    records = readFileSync(path.join(dir, 'examples.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExportedExample);
  });
  after(async () => {
    await Promise.all(hosts.map((h) => h.close()));
  });

  it('each record names its host, change, revisions, files and lines, and the host serves exactly its texts there', async () => {
    assert.ok(records.length > 10, `${records.length} records`);
    for (const e of records) {
      const s = e.source;
      const host = hosts.find((h) => h.org === e.org)!;
      assert.equal(s.host, host.url, `${e.id}: the configured URL, without its trailing "/"`);
      assert.deepEqual(
        [s.project, s.change, s.patchset_before, s.patchset_after],
        [e.project, e.change, e.psBefore, e.psAfter],
      );
      // The SHAs Gerrit listed for those patch sets (ChangeInfo.revisions is keyed by them).
      const change = fixtures.get(e.org)!.changes.find((c) => c.change._number === e.change)!;
      const shaOf = (ps: number) => Object.entries(change.change.revisions).find(([, r]) => r._number === ps)?.[0];
      assert.equal(s.revision_before, shaOf(e.psBefore), e.id);
      assert.equal(s.revision_after, shaOf(e.psAfter), e.id);
      assert.match(s.revision_before ?? '', /^[0-9a-f]{40}$/);
      assert.match(s.revision_after ?? '', /^[0-9a-f]{40}$/);
      for (const [side, text, revision, file, lines] of [
        ['before', e.before, s.revision_before, s.file_before, s.lines_before],
        ['after', e.after, s.revision_after, s.file_after, s.lines_after],
      ] as const) {
        assert.ok(lines && file && revision, `${e.id}: a kept example has text on both sides`);
        const bytes = await served(s.host, s.change, revision, file);
        assert.ok(Buffer.isBuffer(bytes), `${e.id}: ${file} at ${revision}: HTTP ${String(bytes)}`);
        assert.ok(
          linesOf(bytes, lines).equals(Buffer.from(text, 'utf8')),
          `${e.id}: lines ${lines.join('–')} of ${file} at ${side} are the record's ${side}`,
        );
      }
    }
  });

  it('a CRLF file: its lines keep "\\r", with and without a final newline', () => {
    for (const change of [930017, 970001]) {
      const e = record(change);
      assert.match(e.before, /\r\n/, `${change}: CRLF`);
    }
    const end = record(970001);
    assert.ok(!end.after.endsWith('\n'), 'the last line of a file without a final newline');
    assert.deepEqual(end.source.lines_after?.[1], crlfEnd.split('\n').length, 'ends on the last line');
  });

  it("a renamed file: each side's path at its own revision, and the other path is not there", async () => {
    const e = record(970002);
    const s = e.source;
    assert.deepEqual([e.path, s.file_before, s.file_after], ['old/moved.py', 'old/moved.py', 'new/moved.py']);
    assert.equal(await served(s.host, s.change, s.revision_before!, s.file_after!), 404);
    assert.equal(await served(s.host, s.change, s.revision_after!, s.file_before!), 404);
  });

  it('kind_unrecorded only where Gerrit sent no kind for patch set N + 1', () => {
    const unrecorded = records.filter((e) => 'kind_unrecorded' in e.source).map((e) => e.change);
    assert.deepEqual([...new Set(unrecorded)].sort(), [930016, 970003]);
    for (const e of records.filter((x) => unrecorded.includes(x.change))) assert.equal(e.source.kind_unrecorded, true);
  });

  it("change_url is the change's Gerrit page, the host's project encoded segment by segment", () => {
    const odd = record(970001).source;
    assert.equal(odd.change_url, `${odd.host}/c/tools/odd%20name%231%3F/+/970001`);
    const plain = record(930016).source;
    assert.equal(plain.change_url, `${plain.host}/c/openstack/nova/+/930016`);
  });

  it('a hunk empty on one side (kept here by hand: one_sided removes it): that side has no file and no lines', async () => {
    // The build removed 970004's example (one_sided); a copy of the corpus keeps it, as a rule set without one_sided would.
    const copy = path.join(dir, 'kept-one-sided.sqlite');
    copyCorpus(db, copy);
    const store = await CorpusStore.open(copy);
    store.run(
      "UPDATE examples SET rule = NULL WHERE rule = 'one_sided' AND change_id = (SELECT id FROM changes WHERE number = 970004)",
    );
    assert.equal(store.rowsModified(), 1, "970004's example was removed by one_sided");
    // An export writes the records a build stored: store them again, as that build would have.
    storeBuildRecords(store, Number(store.scalar('SELECT max(id) FROM builds')));
    store.save();
    store.close();
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'rc-source-one-sided-')), 'examples.jsonl');
    const r = await cli('export', '--db', copy, '--out', out);
    assert.equal(r.code, 0, r.err);
    const e = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExportedExample)
      .find((x) => x.change === 970004);
    assert.ok(e, '970004 exported');
    validate(e);
    const s = e.source;
    assert.deepEqual([e.after, s.file_after, s.lines_after], ['', null, null]);
    assert.equal(s.file_before, 'gone.py');
    const bytes = await served(s.host, s.change, s.revision_before!, s.file_before);
    assert.ok(Buffer.isBuffer(bytes) && linesOf(bytes, s.lines_before!).equals(Buffer.from(e.before, 'utf8')));
    assert.equal(await served(s.host, s.change, s.revision_after!, 'gone.py'), 404, 'the file is not at N + 1');
  });

  it('every record validates against schemas/example.schema.json, which is what recordSchema.ts generates', () => {
    const text = readFileSync(path.resolve('schemas/example.schema.json'), 'utf8');
    assert.equal(text, recordSchemaText(), 'run `npm run schema`');
    for (const e of records) assert.ok(validate(e), e.id);
    assert.throws(() => validate({ ...records[0], extra: 1 }), /must NOT have additional properties/);
    assert.throws(
      () => validate({ ...records[0], source: { ...records[0].source, host: undefined } }),
      /must have required property 'host'/,
    );
  });

  it('the Search/Replace export carries the same source, and the card lists every record field', () => {
    const byId = new Map(records.map((e) => [e.id, e.source]));
    const lines = readFileSync(path.join(dir, 'sr.jsonl'), 'utf8').trim().split('\n');
    assert.ok(lines.length > 0);
    for (const l of lines) {
      const x = JSON.parse(l) as { id: string; source: unknown };
      assert.ok(x.source && byId.has(x.id), x.id);
      assert.deepEqual(x.source, byId.get(x.id), x.id);
    }
    const card = readFileSync(path.join(dir, 'README.md'), 'utf8');
    const section = card.split('## Record fields')[1]?.split('\n## ')[0] ?? '';
    for (const f of recordFieldRows()) assert.ok(section.includes(`| \`${f.field}\` |`), `${f.field} on the card`);
  });
});
