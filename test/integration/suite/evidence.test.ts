// Every removal names its evidence: the tooltip of a removed node and the title of a removed example's
// diff show it, and "Open Kept Twin" puts a duplicate beside the example it duplicates.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import type { ItemNode } from '../../../src/extension/tree/nodes';
import { ShingleSet } from '../../../src/core/rules/dedup/shingleSet';
import { DEFAULT_RULES } from '../../../src/core/rules/ruleParameters';
import { openSampleCorpus, until } from './support';

const ORIGINAL = '.monaco-diff-editor .editor.original';
const MODIFIED = '.monaco-diff-editor .editor.modified';
/** The tree tooltip's hover, once it holds our evidence. */
const HOVER = '.monaco-hover:has-text("Evidence:")';
/** Rendered text with markdown's non-breaking spaces as plain spaces. */
const plain = (t: string) => t.replace(/\u00a0/g, ' ');

interface Duplicate {
  id: number;
  key: string;
  org: string;
  window: string | null;
  twinId: number;
  twinKey: string;
}

describe('evidence', function () {
  this.timeout(120_000);
  let a: ReviewCorpusApi;
  let near: Duplicate;

  before(async () => {
    a = await openSampleCorpus('evidence-sample');
    await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
    const c = a.session.corpus!;
    const row = c.store.get<{ id: number; example_key: string; org: string; window: string | null; twin: string }>(
      `SELECT e.id, e.example_key, d.org, e.window, json_extract(d.evidence, '$.twin') AS twin FROM examples e
       JOIN decisions d ON d.build_id = e.build_id AND d.unit = e.unit AND d.unit_key = e.example_key
       WHERE e.build_id = ? AND e.rule = 'near_duplicate' ORDER BY e.id LIMIT 1`,
      [c.buildId!],
    );
    assert.ok(
      row && typeof row.twin === 'string',
      'the sample corpus has a near duplicate whose decision names a twin',
    );
    const twinId = Number(
      c.store.scalar('SELECT id FROM examples WHERE build_id = ? AND example_key = ?', [c.buildId!, row.twin]),
    );
    near = { id: Number(row.id), key: row.example_key, org: row.org, window: row.window, twinId, twinKey: row.twin };
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const nodeOf = (org: string, window: string | null, rule: string, match: (n: ItemNode) => boolean): ItemNode => {
    const group = a.tree.provider.findGroup(org, window, rule);
    assert.ok(group, `a ${rule} group in ${org}/${window}`);
    const node = a.tree.provider.getChildren(group).find((n) => n.type === 'item' && match(n)) as ItemNode | undefined;
    assert.ok(node, `the ${rule} node`);
    return node;
  };

  /** Hovers a tree row and returns the tooltip as rendered. */
  const hoverRow = async (node: ItemNode, rowText: string): Promise<string> => {
    await dom.press('Escape'); // no hover left over from a test before
    await a.tree.view.reveal(node, { select: true, focus: true, expand: true });
    const row = `.part.sidebar .monaco-list-row.selected:has-text(${JSON.stringify(rowText)})`;
    await dom.waitFor(row, 10000);
    await dom.hover(row);
    await dom.waitFor(HOVER, 15000);
    return plain(await dom.text(HOVER));
  };

  it("shows a near duplicate's kept twin and its exact Jaccard in the tooltip", async () => {
    const node = nodeOf(near.org, near.window, 'near_duplicate', (n) => n.item.id === near.id);
    assert.match(
      String(a.tree.provider.getTreeItem(node).contextValue),
      /\.duplicate/,
      'the node offers Open Kept Twin',
    );
    const removed = a.session.examples.get(near.id)!;
    const twin = a.session.examples.get(near.twinId)!;
    // The exact Jaccard of the pair, computed here from both examples' texts with the dedup's shingling.
    const jaccard = new ShingleSet(removed.before, removed.after, DEFAULT_RULES.shingleTokens).jaccard(
      new ShingleSet(twin.before, twin.after, DEFAULT_RULES.shingleTokens),
    );
    assert.ok(jaccard >= DEFAULT_RULES.nearDuplicateJaccard && jaccard < 1, `J = ${jaccard}`);
    const resolved = await a.tree.provider.resolveTreeItem(a.tree.provider.getTreeItem(node), node);
    assert.equal((resolved.tooltip as vscode.MarkdownString).isTrusted, false);
    const shown = await hoverRow(node, `#${removed.changeNumber} ${removed.path.split('/').pop()}`);
    assert.ok(shown.includes(`twin: ${near.twinKey}`), `the tooltip names the twin: ${JSON.stringify(shown)}`);
    assert.ok(
      shown.includes(`jaccard: ${jaccard}`),
      `the tooltip gives the exact Jaccard ${jaccard}: ${JSON.stringify(shown)}`,
    );
    assert.ok(shown.includes('twin in this build: kept'), 'the tooltip says the twin is kept');
    await dom.screenshot('evidence-tooltip');
  });

  it('keeps evidence inert in the tooltip: stored host text forms no link', async () => {
    const c = a.session.corpus!;
    const key = c.store.scalar(
      "SELECT unit_key FROM decisions WHERE build_id = ? AND unit = 'comments' AND rule = 'acknowledgement' ORDER BY unit_key LIMIT 1",
      [c.buildId!],
    ) as string;
    const hostile = '[x](command:workbench.action.quit) <img src=x> www.example.org';
    c.store.run("UPDATE decisions SET evidence = ? WHERE build_id = ? AND unit = 'comments' AND unit_key = ?", [
      JSON.stringify({ text: hostile }),
      c.buildId!,
      key,
    ]);
    c.store.save();
    await vscode.commands.executeCommand('reviewCorpus.refresh');
    const [org, change] = key.split('/');
    const group = a.tree.provider
      .getChildren()
      .filter((o) => o.type === 'org' && o.org === org)
      .flatMap((o) => a.tree.provider.getChildren(o))
      .flatMap((w) => a.tree.provider.getChildren(w))
      .find(
        (g) =>
          g.type === 'group' &&
          g.ref.rule === 'acknowledgement' &&
          a.tree.provider.getChildren(g).some((n) => n.type === 'item' && String(n.item.changeNumber) === change),
      );
    assert.ok(group);
    const node = a.tree.provider
      .getChildren(group)
      .find((n) => n.type === 'item' && String(n.item.changeNumber) === change) as ItemNode;
    const shown = await hoverRow(node, `#${change} `);
    assert.ok(shown.includes(`text: ${hostile}`), `the evidence shows as typed: ${JSON.stringify(shown)}`);
    assert.equal(await dom.count(`${HOVER} a`), 0, 'a link in the tooltip');
    assert.equal(await dom.count(`${HOVER} img`), 0, 'an image in the tooltip');
  });

  it("writes a removed comment's evidence into its note: unchanged_around names the window it checked", async () => {
    const group = a.tree.provider.findGroup('openstack', 'train', 'unchanged_around')!;
    const node = a.tree.provider
      .getChildren(group)
      .find((n) => n.type === 'item' && n.item.kind === 'comment' && n.item.exampleId === null) as ItemNode;
    assert.ok(node && node.item.kind === 'comment' && node.item.line !== null);
    await vscode.commands.executeCommand('reviewCorpus.openItem', node);
    const doc = await until('the note', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.path.startsWith('/comment/') ? d : undefined;
    });
    const around = DEFAULT_RULES.aroundLines;
    const line = node.item.line;
    assert.match(
      doc.getText(),
      new RegExp(`removed by: unchanged_around\\n  from: ${Math.max(1, line - around)}\\n  to: ${line + around}\\n`),
    );
  });

  it("names the rule and its evidence in the removed example's diff title", async () => {
    await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: near.id });
    await until('the example diff', () => a.active.example?.id === near.id || undefined);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab!;
    assert.ok(tab.label.includes('removed by near_duplicate'), tab.label);
    assert.ok(tab.label.includes(`twin: ${near.twinKey}`) && tab.label.includes('jaccard: 0.'), tab.label);
  });

  it('Open Kept Twin opens the duplicate and its kept twin side by side, from the tree and from the diff title', async () => {
    const removed = a.session.examples.get(near.id)!;
    const twin = a.session.examples.get(near.twinId)!;
    const expectTwinDiff = async () => {
      const input = await until('the twin diff', () => {
        const i = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        return i instanceof vscode.TabInputTextDiff && i.original.path.startsWith('/whole/') ? i : undefined;
      });
      assert.ok(
        input.original.path.startsWith(`/whole/${near.twinId}/`),
        `left: the kept twin (${input.original.path})`,
      );
      assert.ok(input.modified.path.startsWith(`/whole/${near.id}/`), `right: the duplicate (${input.modified.path})`);
      const [left, right] = await Promise.all([
        vscode.workspace.openTextDocument(input.original),
        vscode.workspace.openTextDocument(input.modified),
      ]);
      for (const [doc, e] of [
        [left, twin],
        [right, removed],
      ] as const) {
        assert.ok(
          doc.getText().includes(e.before) && doc.getText().includes(e.after),
          "each side holds its example's before and after",
        );
      }
      await dom.waitFor(`${ORIGINAL} .view-lines`, 20000);
      const firstLine = (s: string) =>
        s
          .split('\n')
          .find((l) => l.trim().length > 8)!
          .trim()
          .slice(0, 20);
      assert.ok(
        plain(await dom.text(`${ORIGINAL} .view-lines`)).includes(firstLine(twin.before)),
        'the twin is drawn on the left',
      );
      assert.ok(
        plain(await dom.text(`${MODIFIED} .view-lines`)).includes(firstLine(removed.before)),
        'the duplicate is drawn on the right',
      );
    };

    const node = nodeOf(near.org, near.window, 'near_duplicate', (n) => n.item.id === near.id);
    await dom.press('Escape'); // the tooltip of the test before
    await vscode.commands.executeCommand('reviewCorpus.openKeptTwin', node);
    await expectTwinDiff();
    await dom.screenshot('evidence-open-kept-twin');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // From the removed example's diff: its title bar offers the action (and a kept example's does not).
    await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: near.twinId });
    await until('the kept example diff', () => a.active.example?.id === near.twinId || undefined);
    const action = '.editor-actions .action-label[aria-label^="Open Kept Twin"]';
    await dom.waitFor(`${ORIGINAL} .view-lines`, 20000);
    assert.equal(await dom.count(action), 0, 'no Open Kept Twin on a kept example');
    await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: near.id });
    await until('the duplicate diff', () => a.active.example?.id === near.id || undefined);
    await dom.click(action, 10000);
    await expectTwinDiff();
  });
});
