// Another writer (a CLI build, say) holds the corpus file's lock (src/core/ground/store/writerLock.ts): the
// extension's Rebuild fails with the one line naming it, and a label made meanwhile waits in the
// saver and reaches the file once the lock is gone.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import { openSampleCorpus, TOAST, until, untilNotification } from './support';

describe('another writer holding the corpus file', function () {
  this.timeout(120_000);

  it('Rebuild shows one line naming the holder; a label made meanwhile waits, then is saved', async () => {
    const a = await openSampleCorpus('locked');
    const c = a.session.corpus!;
    const buildBefore = c.buildId!;
    const lockFile = path.join(path.dirname(c.dbFile), `.${path.basename(c.dbFile)}.lock`);
    // A live process on this host (the extension host itself), as a CLI build would write it.
    const holder = {
      pid: process.pid,
      startedAt: '2026-12-03T14:00:00.000Z',
      host: hostname(),
      command: 'review-corpus build',
    };
    writeFileSync(lockFile, JSON.stringify(holder) + '\n');
    try {
      await vscode.commands.executeCommand('reviewCorpus.rebuild'); // waits the default 10 s for the holder, then fails
      const line = `${c.dbFile}: in use by pid ${holder.pid} (review-corpus build, since ${holder.startedAt}); wait for it or remove ${lockFile} if that process is gone`;
      await untilNotification('the error naming the holder', line);
      assert.equal(a.session.corpus?.buildId, buildBefore, 'no build was made');
      assert.deepEqual(JSON.parse(readFileSync(lockFile, 'utf8')), holder, "the holder's lock is left alone");

      const key = String(
        a.session.corpus!.store.scalar(
          'SELECT example_key FROM examples WHERE build_id = ? AND rule IS NULL ORDER BY example_key LIMIT 1',
          [buildBefore],
        ),
      );
      a.session.edit({
        kind: 'label',
        exampleKey: key,
        rater: 'r_00000000000000aa',
        label: 'answers',
        at: new Date().toISOString(),
      });
      await until(
        'the saver says it waits',
        async () =>
          (await dom.query(TOAST)).some((t) => /your changes are kept and saved once the file is free/.test(t.text)) ||
          undefined,
        20000,
      );
      assert.equal(a.session.hasUnsavedChanges, true, 'not saved while the other writer holds the file');

      rmSync(lockFile); // the other writer is done
      await until('the label saved', () => !a.session.hasUnsavedChanges || undefined, 20000);
      assert.equal(existsSync(lockFile), false, 'the saver released its own lock');
      await a.session.reload(); // re-read the file itself
      assert.equal(
        a.session.corpus!.store.scalar('SELECT label FROM labels WHERE example_key = ? AND rater = ?', [
          key,
          'r_00000000000000aa',
        ]),
        'answers',
      );

      await vscode.commands.executeCommand('reviewCorpus.rebuild');
      assert.equal(a.session.corpus?.buildId, buildBefore + 1, 'with the file free, Rebuild builds');
      assert.equal(
        a.session.corpus!.store.scalar('SELECT label FROM labels WHERE example_key = ? AND rater = ?', [
          key,
          'r_00000000000000aa',
        ]),
        'answers',
        'and keeps the label',
      );
    } finally {
      rmSync(lockFile, { force: true });
    }
  });
});
