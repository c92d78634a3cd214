// The corpus hash covers every published byte (issue #29): on the sample corpus, changing one stored
// input that reaches an exported record, and nothing else, changes the corpus hash of a rebuild;
// rebuilding without a change gives the same hash.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSampleCorpus } from '../../scripts/sample-corpus';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { exportedExamples } from '../../src/core/build/records/publishedRecords';

describe('the corpus hash covers every published field', function () {
  this.timeout(120_000);
  let bytes: Uint8Array;
  let file: string;
  let baseline: string;
  /** One kept example's change and one of its kept comments, as the latest build published them. */
  let target: { change: number; org: string; comment: string; message: string };

  const rebuiltHash = async (mutate: (store: CorpusStore) => void) => {
    const store = await CorpusStore.fromBytes(file, bytes, { reserveBytes: 64 << 20 });
    try {
      mutate(store);
      return (await runBuild(store, { hunkFactsWorker: false })).corpusHash;
    } finally {
      store.close();
    }
  };
  const changeId = (store: CorpusStore) =>
    Number(
      store.scalar('SELECT c.id FROM changes c JOIN hosts h ON h.id = c.host_id WHERE h.org = ? AND c.number = ?', [
        target.org,
        target.change,
      ]),
    );

  before(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rc-hash-fields-'));
    ({ dbFile: file } = await buildSampleCorpus(dir));
    const store = await CorpusStore.open(file);
    try {
      bytes = store.export();
      const build = Number(store.scalar('SELECT max(id) FROM builds'));
      const record = exportedExamples(store, build).find((e) => e.comments.length > 0)!;
      const message = record.comments[0].message;
      const comment = String(store.scalar('SELECT gerrit_id FROM comments WHERE message = ? LIMIT 1', [message]));
      target = { change: record.change, org: record.org, comment, message };
    } finally {
      store.close();
    }
    baseline = await rebuiltHash(() => {});
  });

  it('is the same when nothing changed', async () => {
    assert.equal(await rebuiltHash(() => {}), baseline);
  });

  const cases: [string, (store: CorpusStore) => void][] = [
    [
      'comment text (an admin deleted it)',
      (s) =>
        s.run("UPDATE comments SET message = 'Comment removed by: Admin; Reason: spam' WHERE gerrit_id = ?", [
          target.comment,
        ]),
    ],
    [
      "comment's range",
      (s) =>
        s.run(
          'UPDATE comments SET start_character = coalesce(start_character, 0) + 1, start_line = coalesce(start_line, line), end_line = coalesce(end_line, line), end_character = coalesce(end_character, 0) + 1 WHERE gerrit_id = ?',
          [target.comment],
        ),
    ],
    ['project', (s) => s.run("UPDATE changes SET project = project || '-renamed' WHERE id = ?", [changeId(s)])],
    [
      'created',
      (s) =>
        s.run(
          // The last digit of its time, so it stays in its window.
          "UPDATE changes SET created = substr(created, 1, length(created) - 1) || CASE substr(created, -1) WHEN '1' THEN '2' ELSE '1' END WHERE id = ?",
          [changeId(s)],
        ),
    ],
    [
      'revision SHA (source)',
      (s) => s.run("UPDATE revisions SET sha = 'f' || substr(sha, 2) WHERE change_id = ?", [changeId(s)]),
    ],
    ['host URL (source)', (s) => s.run("UPDATE hosts SET url = url || '/gerrit' WHERE org = ?", [target.org])],
    [
      "a flag's decision",
      (s) =>
        s.run(
          "INSERT INTO flags(example_key, reason, detail, status) SELECT example_key, 'fabricated_reason', '{}', 'rejected' FROM examples WHERE rule IS NULL LIMIT 1",
        ),
    ],
  ];
  for (const [field, mutate] of cases)
    it(`changes with ${field}`, async () => {
      assert.notEqual(await rebuiltHash(mutate), baseline);
    });
});
