// Labelling after a reload, in the real VS Code: a labeller labels an example of the audit sample with
// the keys, moves on to the next and back to the labelled one, and reloads the window. Opened again, the corpus shows the
// audit sample again at the next example not yet labelled, says so in the status bar, and the keys label
// it. The test runs twice: before the reload, and again in the new extension host (its phase file).
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import type { CorpusNode, GroupNode, ItemNode } from '../../../src/extension/tree/nodes';
import { exampleNameOfKey } from '../../../src/core/review/inspect/exampleName';
import { api, localRater, openSampleCorpus, reloadWindow, until, untilStatusBar, workspaceDir } from './support';

const FOCUSED_DIFF = '.monaco-diff-editor .monaco-editor.focused';

interface Phase {
  configFile: string;
  /** The example labelling should resume at. */
  next: string;
  /** The examples labelled before the reload, with their labels. */
  labelled: Record<string, string>;
  /** How many examples the audit sample holds in the build. */
  sample: number;
}

const phaseFile = () => path.join(workspaceDir(), 'labelling-resume.phase.json');

const labelOf = (a: ReviewCorpusApi, key: string) =>
  a.session.corpus!.store.scalar('SELECT label FROM labels WHERE example_key = ? AND rater = ?', [key, localRater()]);

/** Every group the tree shows (under its filter). */
function groups(a: ReviewCorpusApi, n?: CorpusNode): GroupNode[] {
  return a.tree.provider
    .getChildren(n)
    .flatMap((c) => (c.type === 'group' ? [c] : c.type === 'org' || c.type === 'window' ? groups(a, c) : []));
}

async function focusDiffShowing(a: ReviewCorpusApi, id: number, what: string): Promise<void> {
  await until(what, () => a.active.example?.id === id || undefined);
  await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
  await dom.waitFor(FOCUSED_DIFF, 10000);
}

/** Labels the first example of the audit sample's largest group, moves on to the second and back to the first. */
async function labelThenReload(): Promise<never> {
  const a = await openSampleCorpus('labelling-resume');
  await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
  await vscode.commands.executeCommand('reviewCorpus.filter', { audit: true });
  const shown = groups(a);
  const group = shown.reduce((g, x) => (x.count > g.count ? x : g));
  const items = a.tree.provider.getChildren(group).filter((n): n is ItemNode => n.type === 'item');
  assert.ok(items.length >= 2, `two audit examples in one group (${items.length})`);
  const [first, second] = items.map((n) => n.item as { id: number; key: string });
  await vscode.commands.executeCommand('reviewCorpus.openItem', items[0]);
  await focusDiffShowing(a, first.id, 'the first audit example');
  await dom.press('Control+Alt+2');
  await dom.press('Alt+.');
  await focusDiffShowing(a, second.id, 'the second');
  await dom.press('Alt+,');
  await focusDiffShowing(a, first.id, 'back to the first');
  await until('the keys handled', () => a.labelling.idle || undefined);
  assert.equal(labelOf(a, first.key), 'does_not');
  assert.equal(labelOf(a, second.key), undefined);
  await a.session.flush();
  const phase: Phase = {
    configFile: a.session.configFile!,
    next: second.key,
    labelled: { [first.key]: 'does_not' },
    sample: shown.reduce((n, g) => n + g.count, 0),
  };
  writeFileSync(phaseFile(), JSON.stringify(phase));
  // The position is kept in the workspace's state, which the workbench writes as it goes: a moment for it.
  await new Promise((r) => setTimeout(r, 1500));
  return reloadWindow();
}

describe('labelling after a reload', function () {
  this.timeout(180_000);
  // The resumed audit filter stays on the tree; the suites after this one open other corpora unfiltered.
  after(async () => vscode.commands.executeCommand('reviewCorpus.clearFilter'));

  it('opens the next unlabelled example of the audit sample, and the keys label it', async () => {
    if (!existsSync(phaseFile())) return labelThenReload();
    const phase = JSON.parse(readFileSync(phaseFile(), 'utf8')) as Phase;
    rmSync(phaseFile());
    const a = await api();
    assert.equal(a.session.corpus, undefined, 'a new window: no corpus open yet');
    await vscode.commands.executeCommand('reviewCorpus.openCorpus', phase.configFile);
    await until('the resumed example', () => a.active.example?.key === phase.next || undefined, 30000);
    const name = exampleNameOfKey(phase.next)!.replace(/[.*+?^${}()|[\]\\#]/g, '\\$&');
    await untilStatusBar(new RegExp(`^Labelling resumes at ${name}$`));
    assert.equal(a.tree.provider.filter.audit, true, 'the audit sample is shown again');
    for (const [key, label] of Object.entries(phase.labelled)) assert.equal(labelOf(a, key), label, key);
    await untilStatusBar(new RegExp(`^1 / ${phase.sample} labelled$`));

    await focusDiffShowing(a, a.active.example!.id, 'the resumed example');
    await dom.press('Control+Alt+3');
    await until('the label after the reload', () => labelOf(a, phase.next) === 'unsure' || undefined);
    await untilStatusBar(new RegExp(`^2 / ${phase.sample} labelled$`));
  });
});
