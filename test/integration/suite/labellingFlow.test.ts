// A day of labelling with the keyboard, in the real VS Code: label keys pressed while the next example
// opens are applied, in order, to the example that opens; none is dropped and none lands on the example
// left behind. Checked in the corpus file itself, over 50 examples at three paces.
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import type { ItemNode } from '../../../src/extension/tree/nodes';
import { CorpusStore } from '../../../src/core/ground/store/corpusStore';
import { exampleNameOfKey } from '../../../src/core/review/inspect/exampleName';
import { EXTENSION_ID, localRater, multiplyRecords, openSampleCorpus, until, untilStatusBar } from './support';

const LABELS = ['answers', 'does_not', 'unsure'] as const;
const KEY_OF: Record<(typeof LABELS)[number], string> = {
  answers: 'Control+Alt+1',
  does_not: 'Control+Alt+2',
  unsure: 'Control+Alt+3',
};
/** Examples labelled per pace: each reached with Alt+. from the one before. */
const STEPS = 50;
/** From a label key to the next Alt+.: a fast labeller's. */
const NEXT_AFTER_LABEL_MS = 100;
const FOCUSED_DIFF = '.monaco-diff-editor .monaco-editor.focused';

/** The corpus file as it is on disk (the saver's writes), read by a store of its own. */
async function labelsOnDisk(file: string): Promise<Map<string, { label: string; at: string }>> {
  // sql.js loads its wasm from beside the bundle that calls it; this suite's bundle has none.
  const wasm = path.join(__dirname, 'sql-wasm.wasm');
  if (!existsSync(wasm))
    copyFileSync(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'sql-wasm.wasm'), wasm);
  const store = await CorpusStore.open(file);
  try {
    const rows = store.all<{ example_key: string; label: string; labelled_at: string }>(
      'SELECT example_key, label, labelled_at FROM labels WHERE rater = ?',
      [localRater()],
    );
    return new Map(rows.map((r) => [r.example_key, { label: r.label, at: r.labelled_at }]));
  } finally {
    store.close();
  }
}

/** The sample's records copied until one group holds more than STEPS kept examples (the copies kept: duplicate rules off). */
async function bigSample(name: string): Promise<ReviewCorpusApi> {
  const a = await openSampleCorpus(name);
  const c = a.session.corpus!;
  c.store.transaction(() => multiplyRecords(c.store, 13));
  c.store.save(); // test set-up on the main thread: the rebuild job reads the file
  const config = JSON.parse(readFileSync(c.configFile, 'utf8')) as { rules?: Record<string, unknown> };
  const off = { exact_duplicate: false, near_duplicate: false, boilerplate: false, same_change: false };
  config.rules = { ...config.rules, enabled: off };
  writeFileSync(c.configFile, JSON.stringify(config, null, 2));
  const before = c.buildId!;
  await vscode.commands.executeCommand('reviewCorpus.rebuild');
  await until('the rebuild', () => (a.session.corpus?.buildId ?? 0) > before || undefined, 120000);
  return a;
}

/** How long the keys' handling may show no progress at all before the test gives up on it. */
const STALL_MS = 60000;

/**
 * Waits until every key pressed has been handled and the last example is shown. On a loaded machine
 * that takes long, so it gives up only when nothing has moved (the example shown, the labels given)
 * for STALL_MS: a stuck queue, not a slow one. Whether each label is right is checked after, in the file.
 */
async function settled(a: ReviewCorpusApi, lastId: number): Promise<boolean> {
  let seen = '';
  let movedAt = Date.now();
  for (;;) {
    if (a.active.example?.id === lastId && a.labelling.idle) return true;
    const lastLabel = a.session.corpus?.store.scalar('SELECT max(labelled_at) FROM labels');
    const state = `${a.active.example?.id}/${String(lastLabel)}`;
    if (state !== seen) {
      seen = state;
      movedAt = Date.now();
    } else if (Date.now() - movedAt > STALL_MS) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
}

function groupItems(a: ReviewCorpusApi): ItemNode[] {
  const group = a.tree.provider.findGroup('openstack', 'train', 'kept');
  assert.ok(group, 'openstack › train › Kept');
  return a.tree.provider.getChildren(group).filter((n): n is ItemNode => n.type === 'item');
}

describe('labelling with the keys', function () {
  this.timeout(300_000);
  let a: ReviewCorpusApi;

  before(async () => {
    a = await bigSample('labelling-keys');
    await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
    assert.ok(groupItems(a).length > STEPS, `more than ${STEPS} kept examples in openstack › train`);
  });

  [150, 300, 600].forEach((delayMs, run) => {
    it(`records each label key pressed ${delayMs} ms after Alt+. on the example Alt+. opens`, async () => {
      const items = groupItems(a);
      const expected = (i: number) => LABELS[(i + run) % LABELS.length]; // another label for each example in each run
      await a.tree.view.reveal(items[0], { select: true, focus: false });
      await vscode.commands.executeCommand('reviewCorpus.openItem', items[0]);
      await until('the first example', () => a.active.example?.id === items[0].item.id || undefined);
      await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
      await dom.waitFor(FOCUSED_DIFF, 10000);
      const started = new Date().toISOString();

      const steps: { keys: string; atMs: number }[] = [];
      for (let i = 1, t = 0; i <= STEPS; i++, t += delayMs + NEXT_AFTER_LABEL_MS)
        steps.push({ keys: 'Alt+.', atMs: t }, { keys: KEY_OF[expected(i)], atMs: t + delayMs });
      const pressedAt = await dom.keyScript(steps);
      const last = items[STEPS].item.id;
      const arrived = await settled(a, last);
      await a.session.flush();

      const onDisk = await labelsOnDisk(a.session.corpus!.dbFile);
      const wrong: string[] = [];
      let right = 0;
      items.forEach((n, i) => {
        const got = onDisk.get((n.item as { key: string }).key);
        const now = got && got.at >= started ? got.label : undefined; // recorded in this run
        const want = i >= 1 && i <= STEPS ? expected(i) : undefined;
        if (now === want) right += want ? 1 : 0;
        else wrong.push(`example ${i}: ${now ?? 'nothing'} recorded, ${want ?? 'nothing'} pressed`);
      });
      const timing = `keys pressed at ${pressedAt.slice(0, 6).join(', ')}… ms`;
      assert.deepEqual(wrong, [], `${right} of ${STEPS} labels on the right example (${timing})`);
      assert.ok(arrived, `Alt+. reached example ${STEPS}`);
    });
  });

  it('confirms each label in the status bar with its progress, and Ctrl+Z undoes the last one', async () => {
    const items = groupItems(a);
    const first = items[0].item as { id: number; key: string }; // never labelled by the runs above
    const store = () => a.session.corpus!.store;
    const labelOf = (key: string) =>
      store().scalar('SELECT label FROM labels WHERE example_key = ? AND rater = ?', [key, localRater()]);
    const kept = Number(
      store().scalar('SELECT count(*) FROM examples WHERE build_id = ? AND rule IS NULL', [a.session.corpus!.buildId!]),
    );
    const mine = () =>
      Number(
        store().scalar(
          'SELECT count(*) FROM labels l JOIN examples e ON e.example_key = l.example_key AND e.build_id = ? WHERE e.rule IS NULL AND l.rater = ?',
          [a.session.corpus!.buildId!, localRater()],
        ),
      );
    await vscode.commands.executeCommand('reviewCorpus.openItem', items[0]);
    await until('the first example', () => a.active.example?.id === first.id || undefined);
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await dom.waitFor(FOCUSED_DIFF, 10000);
    const before = mine();
    const name = exampleNameOfKey(first.key)!;
    const escaped = (t: string) => t.replace(/[.*+?^${}()|[\]\\#]/g, '\\$&');

    await dom.press('Control+Alt+2');
    await until('the label', () => labelOf(first.key) === 'does_not' || undefined);
    const note = `${name}: Rewrite does not answer its comment · ${before + 1} / ${kept} labelled`;
    await untilStatusBar(new RegExp(`^${escaped(note)}$`));
    await untilStatusBar(new RegExp(`^${before + 1} / ${kept} labelled$`)); // the progress item, beside it
    await dom.press('Control+Alt+1');
    await until('the second label', () => labelOf(first.key) === 'answers' || undefined);

    await dom.press('Control+z');
    await until('the undo back to the label before', () => labelOf(first.key) === 'does_not' || undefined);
    await untilStatusBar(new RegExp(`^Undid Rewrite answers its comment on ${escaped(name)}: back to`));
    await dom.press('Control+z');
    await until('the undo of the first label', () => labelOf(first.key) === undefined || undefined);
    await untilStatusBar(new RegExp(`^Undid .* on ${escaped(name)}: no label · ${before} / ${kept} labelled$`));

    // In a text editor, Ctrl+Z is VS Code's Undo: the label stays.
    await dom.press('Control+Alt+3');
    await until('a label to keep', () => labelOf(first.key) === 'unsure' || undefined);
    await vscode.commands.executeCommand('workbench.action.files.newUntitledFile');
    const doc = await until('the untitled editor', () =>
      vscode.window.activeTextEditor?.document.isUntitled ? vscode.window.activeTextEditor.document : undefined,
    );
    await dom.waitFor('.monaco-editor.focused', 10000);
    await dom.press('x y z');
    await until('the typing', () => doc.getText() === 'xyz' || undefined);
    await dom.press('Control+z');
    await until('the typing undone', () => doc.getText() !== 'xyz' || undefined);
    await until('the keys handled', () => a.labelling.idle || undefined);
    assert.equal(labelOf(first.key), 'unsure', 'Ctrl+Z in a text editor left the label alone');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
