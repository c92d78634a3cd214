// The extension host reads its open corpus from the file as the tree needs it (SMALL_EDITS_OPEN,
// src/core/ground/store/pagedFile.ts), in the real extension host: another writer's save replaces the file and
// the open corpus goes on reading the one it opened until Refresh; a file cut short in place is one
// notification naming it, not an empty tree without a word.
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import { CorpusStore } from '../../../src/core/ground/store/corpusStore';
import type { CorpusNode } from '../../../src/extension/tree/nodes';
import type { ReviewCorpusApi } from '../../../src/extension';
import { EXTENSION_ID, openSampleCorpus, TOAST, untilNotification } from './support';

/**
 * Another writer's store in this process, as a CLI build would open the file. sql.js loads its wasm from
 * beside the bundle that calls it, and this suite's bundle has none: the extension's own is copied.
 */
function openOutsideWriter(file: string): Promise<CorpusStore> {
  const wasm = path.join(__dirname, 'sql-wasm.wasm');
  if (!existsSync(wasm))
    copyFileSync(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'sql-wasm.wasm'), wasm);
  return CorpusStore.open(file);
}

/** Every node the tree shows when each org, window and group is expanded, as the workbench asks for them. */
function walk(a: ReviewCorpusApi, n?: CorpusNode): CorpusNode[] {
  return a.tree.provider
    .getChildren(n)
    .flatMap((child) => [child, ...(child.type === 'item' || child.type === 'loadMore' ? [] : walk(a, child))]);
}

describe('the open corpus, read from its file', function () {
  this.timeout(120_000);

  it("reads the file it opened while another writer's save replaces it, and Refresh reads the new one", async () => {
    const a = await openSampleCorpus('paged-replaced');
    const c = a.session.corpus!;
    const shown = walk(a).length;
    const writer = await openOutsideWriter(c.dbFile); // the whole file, a change, an atomic save
    writer.setMeta('outside-writer', 'saved');
    writer.save({ full: true });
    writer.close();

    c.store.exec('PRAGMA shrink_memory'); // SQLite's cache emptied: what follows is read from the file
    a.tree.provider.refresh();
    assert.equal(walk(a).length, shown, 'the tree reads the file it opened, every page of it');
    assert.equal(c.store.getMeta('outside-writer'), undefined);

    await vscode.commands.executeCommand('reviewCorpus.refresh');
    assert.equal(a.session.corpus!.store.getMeta('outside-writer'), 'saved', 'Refresh opens the new file');
    assert.equal(walk(a).length, shown);
  });

  it('a file cut short under the open corpus: one notification naming it', async () => {
    const a = await openSampleCorpus('paged-cut');
    const c = a.session.corpus!;
    const size = statSync(c.dbFile).size;
    truncateSync(c.dbFile, 64 * 1024); // in place, as a copy over the file would write it
    c.store.exec('PRAGMA shrink_memory');
    a.tree.provider.refresh();
    walk(a); // does not throw: the nodes it could not read are left out
    const line = `${c.dbFile}: could not read it: it has ${64 * 1024} bytes now, ${size} when it was opened; run "Review Corpus: Refresh" to open it again`;
    await untilNotification('the notification naming the file', line);
    assert.equal(
      (await dom.query(TOAST)).filter((t) => t.text.includes('could not read it')).length,
      1,
      'once, not once per node',
    );
  });
});
