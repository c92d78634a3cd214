// Small edits (labels, flag decisions, sealing) applied to the open copy and, through serveEdits, by a
// saver to a copy of its own that it saves: both copies and the file end up with the same rows.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyEdit, type CorpusEdit } from '../../src/core/jobs/edits';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { inThreadSaver } from './support/editSaver';

const AT = '2026-12-02T10:00:00.000Z';
const EDITS: CorpusEdit[] = [
  { kind: 'label', exampleKey: 'o/1/1/10/a.py', rater: 'rater-1', label: 'answers', at: AT },
  { kind: 'label', exampleKey: 'o/1/1/10/a.py', rater: 'rater-1', label: 'unsure', at: AT },
  // An undone first label: gone from both copies.
  { kind: 'label', exampleKey: 'o/2/1/10/b.py', rater: 'rater-1', label: 'answers', at: AT },
  { kind: 'unlabel', exampleKey: 'o/2/1/10/b.py', rater: 'rater-1' },
  { kind: 'flags', flagIds: [1], status: 'confirmed', rater: 'rater-1', at: AT },
  { kind: 'seal', window: 'test', at: AT },
  { kind: 'unseal', window: 'test', rater: 'rater-2', at: AT },
];

async function corpusFile(): Promise<string> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'rc-edits-')), 'corpus.sqlite');
  const store = await CorpusStore.create(file);
  store.run("INSERT INTO flags(example_key, reason) VALUES ('o/1/1/10/a.py', 'suggestion_fence_variant')");
  store.run("INSERT INTO windows(name, from_date, to_date) VALUES ('test', '2025-01-01', '2025-07-01')");
  store.save();
  store.close();
  return file;
}

const rows = (store: CorpusStore) => ({
  labels: store.all('SELECT * FROM labels ORDER BY example_key, rater'),
  flags: store.all('SELECT * FROM flags ORDER BY id'),
  windows: store.all('SELECT * FROM windows ORDER BY name'),
});

describe('corpus edits', () => {
  it('end with the same rows in the open copy and in the file the saver wrote', async () => {
    const file = await corpusFile();
    const open = await CorpusStore.open(file);
    for (const e of EDITS) open.transaction(() => applyEdit(open, e));
    const s = inThreadSaver(file);
    s.send({ seq: 1, edits: EDITS.slice(0, 2) });
    s.send({ seq: 2, edits: EDITS.slice(2) });
    assert.deepEqual(await s.reply(1), { type: 'saved', seq: 1 });
    assert.deepEqual(await s.reply(2), { type: 'saved', seq: 2 });
    const saved = await CorpusStore.open(file);
    assert.deepEqual(rows(saved), rows(open));
    assert.equal(rows(saved).labels.length, 1);
    assert.equal((rows(saved).flags[0] as { status: string }).status, 'confirmed');
    assert.equal((rows(saved).windows[0] as { unsealed_by: string }).unsealed_by, 'rater-2');
    saved.close();
    open.close();
  });

  it('reports an edit that cannot apply, and leaves the file as it was', async () => {
    const file = await corpusFile();
    const s = inThreadSaver(file);
    s.send({ seq: 1, edits: [EDITS[0], { kind: 'flags', flagIds: [99], status: 'rejected', rater: 'r', at: AT }] });
    const reply = await s.reply(1);
    assert.equal(reply.type, 'failed');
    assert.match((reply as { message: string }).message, /no flag 99/);
    const saved = await CorpusStore.open(file);
    assert.equal(rows(saved).labels.length, 0, 'the whole request rolled back');
    saved.close();
  });
});
