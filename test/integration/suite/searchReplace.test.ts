// Search/Replace from the palette in the real VS Code: "Show Search/Replace" on an open example diff
// gives a read-only plain-text document of its verified blocks, and "Export Search/Replace…" writes
// the JSONL (through the job process), its report and the funnel beside it.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { openSampleCorpus, until } from './support';

const KEY = 'openstack/930001/1/10/nova/compute/power_sync.py';

describe('search-replace', function () {
  this.timeout(120_000);

  it("shows the active example diff's blocks as a read-only plain-text document, and exports them all from the palette", async () => {
    const a = await openSampleCorpus('sr-sample');
    const c = a.session.corpus!;
    const id = Number(
      c.store.scalar('SELECT id FROM examples WHERE build_id = ? AND example_key = ?', [c.buildId!, KEY]),
    );
    assert.ok(id > 0, `${KEY} is in the build`);
    await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: id });
    await until('the example diff is active', () => a.active.example?.id === id || undefined);

    const doc = await vscode.commands.executeCommand<vscode.TextDocument>('reviewCorpus.showSearchReplace');
    assert.ok(doc, 'a document opened');
    assert.equal(doc.uri.scheme, 'review-corpus-search-replace');
    assert.equal(doc.languageId, 'plaintext');
    assert.equal(doc.isUntitled, false, 'ours, not an untitled buffer: closing it never asks to save');
    await until(
      'the document is shown',
      () => vscode.window.visibleTextEditors.some((e) => e.document === doc) || undefined,
    );
    const text = doc.getText();
    assert.match(text, /^Search\/Replace of example openstack\/930001\/1\/10\/nova\/compute\/power_sync\.py$/m);
    assert.match(
      text,
      /^verified: every SEARCH occurs once in patch set 1's file, no two overlap, and the result's SHA-256 is the target's$/m,
    );
    const rendered =
      '### nova/compute/power_sync.py\n<<<<<<< SEARCH\n    started = time.time()\n=======\n    started = time.monotonic()\n>>>>>>> REPLACE\n';
    assert.ok(text.endsWith(rendered), text);

    const out = path.join(path.dirname(c.configFile), 'search-replace.jsonl');
    const r = await vscode.commands.executeCommand<{ summary: string }>('reviewCorpus.exportSearchReplace', out);
    assert.match(
      r?.summary ?? '',
      /^Exported Search\/Replace to .*: (\d+) of \1 examples exported; not exported: sr_not_unique 0, sr_overlap 0, sr_mismatch 0 \(report: /,
    );
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; rendered: string });
    const report = JSON.parse(readFileSync(path.join(path.dirname(out), 'search-replace-report.json'), 'utf8'));
    assert.equal(lines.length, report.exported);
    assert.equal(lines.find((l) => l.id === KEY)?.rendered, rendered, 'the palette shows what the export writes');
    assert.ok(existsSync(path.join(path.dirname(out), 'dataset-funnel.json')));
  });
});
