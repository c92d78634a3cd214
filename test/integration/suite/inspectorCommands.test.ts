// The commands as a user meets them in the real VS Code: keys that shadow no default and fire only with
// focus in an example diff or the corpus tree; commands hidden from the palette where they cannot run;
// a status bar note for what Confirm/Reject Flag, Set Salt and a cancelled rebuild did; a confirmed flag
// with its own icon and tooltip until the next build; errors with a "Show Log" action.
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import type { ItemNode } from '../../../src/extension/tree/nodes';
import { OVER_DEFAULTS } from '../../../src/extension/ids/keybindings';
import {
  EXTENSION_ID,
  inPalette,
  localRater,
  multiplyRecords,
  openSampleCorpus,
  SAMPLE_SALT,
  until,
  untilStatusBar,
  workspaceDir,
} from './support';

const TOAST = '.notifications-toasts .notification-toast';
const ORIGINAL = '.monaco-diff-editor .editor.original';
const plain = (t: string) => t.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ');

async function openExample(a: ReviewCorpusApi, id: number) {
  await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: id });
  await dom.waitFor(`${ORIGINAL} .view-lines`, 20000);
  return until('the active example', () => (a.active.example?.id === id ? a.active.example : undefined));
}

/** A kept example of the current build with exactly `open` open flags and no other. */
function keptWithOneOpenFlag(a: ReviewCorpusApi, skip: string[] = []): { id: number; key: string } {
  const c = a.session.corpus!;
  const rows = c.store.all<{ id: number; example_key: string }>(
    `SELECT e.id, e.example_key FROM examples e JOIN flags f ON f.example_key = e.example_key
    WHERE e.build_id = ? AND e.rule IS NULL GROUP BY e.id HAVING count(*) = 1 AND sum(f.status = 'open') = 1 ORDER BY e.id`,
    [c.buildId!],
  );
  const row = rows.find((r) => !skip.includes(r.example_key));
  assert.ok(row, 'a kept example with one open flag');
  return { id: Number(row.id), key: row.example_key };
}

function treeNode(a: ReviewCorpusApi, key: string): ItemNode {
  for (const org of a.tree.provider.getChildren()) {
    for (const win of a.tree.provider.getChildren(org)) {
      for (const group of a.tree.provider.getChildren(win)) {
        if (group.type !== 'group' || group.ref.rule !== 'kept') continue;
        const node = a.tree.provider
          .getChildren(group)
          .find((n) => n.type === 'item' && n.item.kind === 'example' && n.item.key === key);
        if (node) return node as ItemNode;
      }
    }
  }
  throw new Error(`no kept tree node for ${key}`);
}

describe('inspector commands', function () {
  this.timeout(180_000);
  let a: ReviewCorpusApi;

  before(async () => {
    a = await openSampleCorpus('commands-sample');
    await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
  });
  beforeEach(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('binds keys that no VS Code default uses (but Ctrl+Z, scoped to the inspector)', async () => {
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const doc = await until('the default keybindings', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.toString().includes('keybindings.json') ? d : undefined;
    });
    const json = doc
      .getText()
      .split('\n')
      .filter((l) => !l.trim().startsWith('//'))
      .join('\n')
      .replace(/,\s*\]\s*$/, ']');
    const bindings = JSON.parse(json) as { key: string; command: string; when?: string }[];
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    // Our own bindings are in the list too, with their keys as VS Code spells them.
    const ours = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.keybindings as {
      command: string;
    }[];
    for (const { command } of ours) {
      if ((OVER_DEFAULTS as string[]).includes(command)) continue; // on purpose; its `when` is checked in the unit suite
      const mine = bindings.filter((b) => b.command === command);
      assert.equal(mine.length, 1, `${command} is bound once`);
      const shadowed = bindings.filter(
        (b) => b.key === mine[0].key && !b.command.startsWith('reviewCorpus.') && !b.command.startsWith('-'),
      );
      assert.deepEqual(
        shadowed.map((b) => b.command),
        [],
        `${mine[0].key} (${command}) is also a default key`,
      );
    }
  });

  it('labels and moves with the keys only with focus in the example diff or the tree, not in Search or Find', async () => {
    const group = a.tree.provider.findGroup('openstack', 'train', 'kept')!;
    const items = a.tree.provider.getChildren(group).filter((n): n is ItemNode => n.type === 'item');
    assert.ok(items.length >= 3);
    const [first, second] = items.map((n) => n.item as { id: number; key: string });
    await a.tree.view.reveal(items[0], { select: true, focus: false });
    await vscode.commands.executeCommand('reviewCorpus.openItem', items[0]);
    await until('the first example', () => a.active.example?.id === first.id || undefined);
    const labelOf = (key: string) =>
      a.session.corpus!.store.scalar('SELECT label FROM labels WHERE example_key = ? AND rater = ?', [
        key,
        localRater(),
      ]);
    let edits = 0;
    const counting = a.session.onDidChange(() => edits++);
    try {
      // In the Search view's input, and in the diff's Find widget, the keys are VS Code's.
      await vscode.commands.executeCommand('workbench.view.search');
      await dom.waitFor('.search-view textarea:focus, .search-view input:focus', 10000);
      await dom.press('Control+Alt+1');
      await dom.press('Alt+.');
      await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
      await vscode.commands.executeCommand('actions.find');
      await dom.waitFor(
        '.monaco-diff-editor .find-widget.visible textarea:focus, .monaco-diff-editor .find-widget.visible input:focus',
        10000,
      );
      await dom.press('Control+Alt+2');
      await dom.press('Alt+.');
      await vscode.commands.executeCommand('closeFindWidget');
      // In the diff's text: they label and move.
      await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
      await dom.press('Control+Alt+3');
      const labelled = await until(
        'the label from the diff',
        () =>
          a.session.corpus!.store.scalar("SELECT example_key FROM labels WHERE label = 'unsure' AND rater = ?", [
            localRater(),
          ]) as string | undefined,
      );
      assert.equal(
        labelled,
        first.key,
        "the diff's key labelled the example it shows (Alt+. in Search or Find moved nothing)",
      );
      assert.equal(edits, 1, 'only the key pressed in the diff labelled (not those in Search or Find)');
      assert.equal(a.active.example?.id, first.id, 'Alt+. in Search or Find moved nothing');
      await dom.press('Alt+.');
      await until('the next example from the diff', () => a.active.example?.id === second.id || undefined);
      // In the tree: they act on the open example too.
      await vscode.commands.executeCommand('reviewCorpus.tree.focus');
      await dom.press('Alt+,');
      await until('the previous example from the tree', () => a.active.example?.id === first.id || undefined);
      await vscode.commands.executeCommand('reviewCorpus.tree.focus'); // opening the example may have moved focus
      await dom.press('Control+Alt+1');
      await until('the label from the tree', () => labelOf(first.key) === 'answers' || undefined);
      assert.equal(labelOf(second.key), undefined, 'the second example was never labelled');
    } finally {
      counting.dispose();
    }
  });

  it('hides from the palette what needs an open corpus or an active example diff', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const sampleConfig = a.session.configFile!;
    // A corpus.json with nothing fetched yet: Fetch is offered, Verify is not.
    const unfetched = path.join(workspaceDir(), 'commands-unfetched');
    mkdirSync(unfetched, { recursive: true });
    copyFileSync(sampleConfig, path.join(unfetched, 'corpus.json'));
    await vscode.commands.executeCommand('reviewCorpus.openCorpus', path.join(unfetched, 'corpus.json'));
    assert.equal(a.session.corpus === undefined, true, 'nothing fetched: no corpus file is open');
    try {
      assert.equal(await inPalette('Review Corpus: Verify Reproducibility'), false, 'Verify without a corpus file');
      assert.equal(await inPalette('Review Corpus: Rebuild'), false, 'Rebuild without a corpus file');
      assert.equal(await inPalette('Review Corpus: Fetch from Hosts'), true, 'Fetch for a corpus.json');
      assert.equal(await inPalette('Review Corpus: Open Corpus…'), true, 'Open Corpus always');
    } finally {
      await vscode.commands.executeCommand('reviewCorpus.openCorpus', sampleConfig);
    }
    assert.ok(a.session.corpus, 'the sample is open again');
    assert.equal(await inPalette('Review Corpus: Verify Reproducibility'), true, 'Verify with a corpus open');
    assert.equal(await inPalette('Review Corpus: Label: Unsure'), false, 'Label without an example diff');
    assert.equal(await inPalette('Review Corpus: Confirm Flag'), false, 'Confirm Flag without an example diff');
    // A kept example without a flag: labels are offered, the flag commands are not.
    const c = a.session.corpus!;
    const quiet = Number(
      c.store.scalar(
        'SELECT e.id FROM examples e WHERE e.build_id = ? AND e.rule IS NULL AND NOT EXISTS (SELECT 1 FROM flags f WHERE f.example_key = e.example_key) ORDER BY e.id LIMIT 1',
        [c.buildId!],
      ),
    );
    await openExample(a, quiet);
    assert.equal(await inPalette('Review Corpus: Label: Unsure'), true, 'Label in an example diff');
    assert.equal(
      await inPalette('Review Corpus: Confirm Flag'),
      false,
      'Confirm Flag in an example without an open flag',
    );
    await openExample(a, keptWithOneOpenFlag(a).id);
    assert.equal(await inPalette('Review Corpus: Confirm Flag'), true, 'Confirm Flag in a flagged example');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until('no example diff active', () => a.active.example === undefined || undefined);
    assert.equal(await inPalette('Review Corpus: Label: Unsure'), false, 'Label once the diff is closed');
  });

  it('says in the status bar what Confirm Flag and Reject Flag did, and marks a confirmed example until the next build', async () => {
    const confirmed = keptWithOneOpenFlag(a);
    await openExample(a, confirmed.id);
    await vscode.commands.executeCommand('reviewCorpus.confirmFlag');
    await untilStatusBar(/Confirmed 1 flag: the example leaves at the next build/);
    // Still in Kept until a build applies manual_flag, with its own icon, accessible name and tooltip.
    const node = treeNode(a, confirmed.key);
    const item = a.tree.provider.getTreeItem(node);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'sign-out');
    assert.match(item.accessibilityInformation!.label, /confirmed: leaves at the next build/);
    await dom.press('Escape');
    await a.tree.view.reveal(node, { select: true, focus: true, expand: true });
    const row = '.part.sidebar .monaco-list-row.selected[aria-label*="confirmed: leaves at the next build"]';
    await dom.waitFor(row, 10000);
    assert.equal(await dom.count(`${row} .codicon-sign-out`), 1, 'the row draws the confirmed icon');
    await dom.hover(row);
    const tooltip = '.monaco-hover:has-text("leaves at the next build")';
    await dom.waitFor(tooltip, 15000);
    assert.match(plain(await dom.text(tooltip)), /confirmed: leaves at the next build/);
    await dom.press('Escape');

    const rejected = keptWithOneOpenFlag(a, [confirmed.key]);
    await openExample(a, rejected.id);
    await vscode.commands.executeCommand('reviewCorpus.dismissFlag');
    await untilStatusBar(/Rejected 1 flag: the example stays/);
    assert.notEqual(
      (a.tree.provider.getTreeItem(treeNode(a, rejected.key)).iconPath as vscode.ThemeIcon).id,
      'sign-out',
    );
  });

  it('says in the status bar that Set Salt stored a salt, and never shows it', async () => {
    await vscode.commands.executeCommand('reviewCorpus.setSalt', SAMPLE_SALT);
    const note = await untilStatusBar(/Salt saved in VS Code's secret storage/);
    assert.ok(!note.includes(SAMPLE_SALT));
  });

  it('gives an error notification a Show Log action that opens the log with the error', async () => {
    const result = await vscode.commands.executeCommand('reviewCorpus.setSalt', 'short');
    assert.equal(result, undefined);
    const toast = `${TOAST}:has-text("a salt needs at least 8 characters")`;
    await dom.waitFor(toast, 10000);
    await dom.click(`${toast} .monaco-button:has-text("Show Log")`);
    await until(
      'the log open at the error',
      async () => {
        const shown = (await dom.query('.part.panel .monaco-editor .view-lines')).map((e) => plain(e.text)).join('\n');
        return /reviewCorpus\.setSalt: a salt needs at least 8 characters/.test(shown) || undefined;
      },
      10000,
    );
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });

  it('says in the status bar that a rebuild was cancelled, and shows no error', async () => {
    const big = await openSampleCorpus('commands-big');
    const store = big.session.corpus!.store;
    const before = big.session.corpus!.buildId!;
    store.transaction(() => multiplyRecords(store, 200));
    store.save(); // test setup on the main thread: the rebuild job reads the file
    const running = Promise.resolve(vscode.commands.executeCommand('reviewCorpus.rebuild'));
    await dom.waitFor(TOAST, 30000);
    await dom.click(`${TOAST} .monaco-button:has-text("Cancel")`);
    assert.equal(await running, undefined);
    await untilStatusBar(/Rebuild cancelled: the corpus keeps its last build/);
    assert.equal(big.session.corpus!.buildId, before, 'no new build');
    assert.equal(await dom.count(`${TOAST}:has(.codicon-error)`), 0, 'no error notification');
  });
});
