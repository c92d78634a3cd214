// Tag Build… and Compare Builds inside the real VS Code: a tag from the palette (the build pick names
// tags, the input box refuses a taken name), the tag in the tree's message, a rebuild that keeps the
// tagged build's examples, and the Compare Builds document with diff's lines per organization and window.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import { api, openSampleCorpus, until } from './support';

const ROWS = '.quick-input-widget .monaco-list-row';

describe('Tag Build… and Compare Builds', function () {
  this.timeout(180_000);

  it('tags a build from the palette and shows the tag in the pick and the tree', async () => {
    const a = await openSampleCorpus('tag-build');
    const b = a.session.corpus!.buildId!;
    assert.equal(await vscode.commands.executeCommand('reviewCorpus.tagBuild', b, 'v1'), 'v1');
    await until(
      "the tree's message names the tag",
      () => a.tree.view.message?.includes(`build ${b} (v1)`) || undefined,
    );

    const running = Promise.resolve(vscode.commands.executeCommand<string | undefined>('reviewCorpus.tagBuild'));
    try {
      await dom.waitFor(`${ROWS}:has-text("Build ${b}"):has-text("tag v1")`, 10000);
      await dom.press('Enter'); // the newest build, first
      await dom.waitFor('.quick-input-widget input', 10000);
      await dom.press('v 1');
      await dom.waitFor(`.quick-input-widget:has-text("already names build ${b}")`, 10000);
      await dom.screenshot('tag-build-taken-name');
      await dom.press('Backspace 2 Enter');
    } catch (e) {
      await dom.press('Escape');
      throw e;
    }
    assert.equal(await running, 'v2');
    assert.deepEqual(a.session.corpus!.store.all('SELECT name, build_id FROM build_tags ORDER BY name'), [
      { name: 'v1', build_id: b },
      { name: 'v2', build_id: b },
    ]);
  });

  it("keeps the tagged build's examples through a rebuild, and compares the two per organization and window", async () => {
    const a = await api(); // the corpus the test above tagged
    const tagged = Number(a.session.corpus!.store.scalar("SELECT build_id FROM build_tags WHERE name = 'v1'"));
    await vscode.commands.executeCommand('reviewCorpus.rebuild');
    const c = a.session.corpus!;
    const latest = c.buildId!;
    assert.equal(latest, tagged + 1);
    assert.ok(
      Number(c.store.scalar('SELECT count(*) FROM examples WHERE build_id = ?', [tagged])) > 0,
      'the tagged build kept its examples',
    );
    const frozenId = Number(c.store.scalar('SELECT min(id) FROM examples WHERE build_id = ?', [tagged]));
    assert.equal(
      a.session.examples.get(frozenId),
      undefined,
      "a frozen build's example is in the file, but not in the current build the inspector shows",
    );

    const cmp = await vscode.commands.executeCommand<{
      keptFrom: number;
      keptTo: number;
      cells: { org: string; window: string | null; keptFrom: number; keptTo: number }[];
    }>('reviewCorpus.compareBuilds', tagged, latest);
    assert.ok(cmp);
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.uri.scheme, 'review-corpus');
    const text = doc.getText();
    assert.ok(text.startsWith(`# build ${tagged} (v1, v2) → build ${latest}\n`), text.slice(0, 200));
    for (const cell of cmp.cells) {
      const line = `  ${cell.org} ${cell.window ?? '(no window)'}: ${cell.keptFrom.toLocaleString('en-US')} − 0 + 0 = ${cell.keptTo.toLocaleString('en-US')}`;
      assert.ok(text.split('\n').includes(line), `the document shows ${line}`);
    }
    assert.ok(cmp.cells.length > 1, 'one line per organization and window');
    assert.ok(
      text.includes(`kept(${tagged}) − left + entered = kept(${latest}): ${cmp.keptFrom} − 0 + 0 = ${cmp.keptTo}`),
    );
    assert.ok(text.includes('kept in both with changed text: 0; every kept example is otherwise unchanged'));
  });
});
