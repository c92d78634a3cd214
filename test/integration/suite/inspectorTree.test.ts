// The corpus tree in the real VS Code: pages and place kept across a label, counts under a filter,
// one welcome per state, removed changes that open, accessible names, and what Seal Window offers.
import * as assert from 'node:assert/strict';
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import type { CorpusNode, GroupNode, ItemNode, OrgNode, WindowNode } from '../../../src/extension/tree/nodes';
import { EXTENSION_ID, localRater, openSampleCorpus, until, workspaceDir } from './support';

const WELCOME = '.part.sidebar .welcome-view-content';
const isItem = (n: CorpusNode): n is ItemNode => n.type === 'item';

/** Every item of a group, loading each page. */
function allItems(a: ReviewCorpusApi, g: GroupNode): ItemNode[] {
  let nodes = a.tree.provider.getChildren(g);
  while (nodes.some((n) => n.type === 'loadMore')) {
    a.tree.provider.loadMore(g);
    nodes = a.tree.provider.getChildren(g);
  }
  return nodes.filter(isItem);
}

describe('inspector tree', function () {
  this.timeout(120_000);
  let a: ReviewCorpusApi;

  before(async () => {
    a = await openSampleCorpus('tree-sample');
    await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('reviewCorpus.clearFilter');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('names a sealed window by its name and state for screen readers, not by its tooltip', async () => {
    const win = a.tree.provider
      .getChildren(a.tree.provider.getChildren()[0])
      .find((w) => w.type === 'window' && w.group.sealed) as WindowNode;
    assert.ok(win, 'the sample has a sealed window');
    assert.equal(a.tree.provider.getTreeItem(win).accessibilityInformation?.label, `${win.group.window}, sealed`);
    // What a screen reader announces is the row's aria-label in the workbench.
    await dom.waitFor(`.part.sidebar .monaco-list-row[aria-label="${win.group.window}, sealed"]`, 15000);
    for (const org of a.tree.provider.getChildren()) {
      for (const n of [org, ...a.tree.provider.getChildren(org)]) {
        assert.ok(
          a.tree.provider.getTreeItem(n).accessibilityInformation?.label,
          `${n.type} ${(n as OrgNode).org ?? (n as WindowNode).group.window} has an accessible name`,
        );
      }
    }
  });

  it("gives each group its rule's description as tooltip, and a description that does not repeat itself", () => {
    const group = a.tree.provider.findGroup('openstack', 'train', 'unchanged_around')!;
    const item = a.tree.provider.getTreeItem(group);
    assert.equal(item.description, 'comments', 'the stage and the unit are both "comments": said once');
    assert.match(String(item.tooltip), /unchanged_around: .{10,}/);
    const collection = a.tree.provider.getTreeItem(a.tree.provider.findGroup('wikimedia', 'train', 'no_comments')!);
    assert.equal(collection.description, 'collection · changes');
    assert.match(String(collection.tooltip), /listing reports no comments/);
  });

  it('is quiet: no empty group unless a filter asks for it, short labels, each tooltip label said once', async () => {
    const p = a.tree.provider;
    let items = 0;
    for (const org of p.getChildren() as OrgNode[]) {
      for (const win of p.getChildren(org) as WindowNode[]) {
        const groups = p.getChildren(win) as GroupNode[];
        const where = `${org.org}/${win.group.window}`;
        assert.ok(groups.length > 0 || p.getTreeItem(win).description === 'not fetched', `${where} is not empty`);
        for (const g of groups) {
          const label = String(p.getTreeItem(g).label);
          assert.ok(g.count > 0 || label.endsWith('(not counted)'), `${where}: ${label} is not an empty group`);
          for (const n of (p.getChildren(g) as ItemNode[]).filter((x) => x.type === 'item').slice(0, 5)) {
            const item = await p.resolveTreeItem(p.getTreeItem(n), n);
            const text = String(item.label);
            // A default-width sidebar shows about 40 characters at this depth: the file's name, not its path.
            assert.ok(text.length <= 40, `${where}: "${text}" fits the sidebar`);
            const tip = (item.tooltip as vscode.MarkdownString | undefined)?.value ?? '';
            assert.doesNotMatch(tip, /\*\*([^*]+):\*\* \1:/, `no doubled label in ${tip}`);
            assert.doesNotMatch(tip, /Judge: Judge/);
            items++;
          }
        }
      }
    }
    assert.ok(items > 20, `looked at ${items} items`);
    // The sample keeps nothing outside its windows: "(no window) › Kept (0)" is hidden, until a filter names Kept.
    assert.equal(p.findGroup('openstack', null, 'kept'), undefined);
    assert.ok(p.findGroup('openstack', null, 'created_before_start'), 'the window stays for what it holds');
    await vscode.commands.executeCommand('reviewCorpus.filter', { rule: 'kept' });
    const asked = p.findGroup('openstack', null, 'kept');
    assert.ok(asked, 'a filter on Kept shows it even where it is empty');
    assert.equal(p.getTreeItem(asked).label, 'Kept (0)');
  });

  it('keeps the loaded pages and the place in the group when a label refreshes the tree', async () => {
    const settings = vscode.workspace.getConfiguration('reviewCorpus');
    // Two items a page, so the sample's 4 kept train examples take two pages (the bug showed past item
    // 200 at the default page size).
    await settings.update('tree.pageSize', 2, vscode.ConfigurationTarget.Global);
    try {
      await vscode.commands.executeCommand('reviewCorpus.refresh');
      // A refresh keeps what was loaded (the point of this test), and an earlier suite may have left the
      // group expanded in the view; a change of filter starts every group at its first page again.
      await vscode.commands.executeCommand('reviewCorpus.filter', { org: 'openstack' });
      await vscode.commands.executeCommand('reviewCorpus.clearFilter');
      const p = a.tree.provider;
      const group = p.findGroup('openstack', 'train', 'kept')!;
      assert.equal(group.pageSize, 2);
      assert.ok(group.count >= 4, `openstack/train has ${group.count} kept examples`);
      assert.equal(p.getChildren(group).filter(isItem).length, 2, 'one page of two');
      p.loadMore(group);
      const items = p.getChildren(group).filter(isItem);
      assert.ok(items.length >= 4, 'two pages loaded');
      const [third, fourth] = [items[2], items[3]];
      await a.tree.view.reveal(third, { select: true, focus: true });
      await vscode.commands.executeCommand('reviewCorpus.openItem', third);
      await until('the third example open', () => a.active.example?.id === third.item.id || undefined);
      await vscode.commands.executeCommand('reviewCorpus.labelUnsure', third);
      const key = third.item.kind === 'example' ? third.item.key : '';
      await until(
        'the label stored',
        () =>
          a.session.corpus!.store.scalar('SELECT label FROM labels WHERE example_key = ? AND rater = ?', [
            key,
            localRater(),
          ]) === 'unsure' || undefined,
      );
      const after = p.findGroup('openstack', 'train', 'kept')!;
      assert.notEqual(after, group, 'the label refreshed the tree');
      assert.deepEqual(
        p
          .getChildren(after)
          .filter(isItem)
          .map((n) => n.item.id),
        items.map((n) => n.item.id),
        'both pages are still loaded',
      );
      const labelled = p
        .getChildren(after)
        .filter(isItem)
        .find((n) => n.item.id === third.item.id)!;
      assert.equal(
        (p.getTreeItem(labelled).iconPath as vscode.ThemeIcon).id,
        'tag',
        'the refreshed node shows its label',
      );
      await vscode.commands.executeCommand('reviewCorpus.nextExample');
      await until(
        'Next Example opens the fourth, not the first',
        () => a.active.example?.id === fourth.item.id || undefined,
      );
      await vscode.commands.executeCommand('reviewCorpus.previousExample');
      await until('Previous Example opens the third again', () => a.active.example?.id === third.item.id || undefined);
    } finally {
      await settings.update('tree.pageSize', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('reviewCorpus.refresh');
    }
  });

  it('counts under a filter what the filter lists: groups, windows ("2 of 15") and organizations; flagged means an open flag', async () => {
    await vscode.commands.executeCommand('reviewCorpus.filter', { flagged: true });
    const c = a.session.corpus!;
    const p = a.tree.provider;
    const openFlagged = (org: string, window: string | null, rule: string | null) =>
      Number(
        c.store.scalar(
          `SELECT count(*) FROM examples e JOIN changes ch ON ch.id = e.change_id JOIN hosts h ON h.id = ch.host_id
       WHERE e.build_id = ? AND h.org = ? AND e.window IS ? AND e.rule IS ?
         AND EXISTS (SELECT 1 FROM flags f WHERE f.example_key = e.example_key AND f.status = 'open')`,
          [c.buildId!, org, window, rule],
        ),
      );
    /** Examples of the build in an organization (and a window, when given), those with an open flag if asked. */
    const examplesIn = (org: string, window?: string | null, openFlag = false) =>
      Number(
        c.store.scalar(
          `SELECT count(*) FROM examples e JOIN changes ch ON ch.id = e.change_id JOIN hosts h ON h.id = ch.host_id
       WHERE e.build_id = ? AND h.org = ? ${window === undefined ? '' : 'AND e.window IS ?'}
         ${openFlag ? "AND EXISTS (SELECT 1 FROM flags f WHERE f.example_key = e.example_key AND f.status = 'open')" : ''}`,
          window === undefined ? [c.buildId!, org] : [c.buildId!, org, window],
        ),
      );
    let narrowed = 0;
    let shown = 0;
    for (const org of p.getChildren() as OrgNode[]) {
      for (const win of p.getChildren(org) as WindowNode[]) {
        let matched = 0;
        for (const g of p.getChildren(win) as GroupNode[]) {
          const expected = openFlagged(org.org, win.group.window, g.ref.rule === 'kept' ? null : g.ref.rule);
          const where = `${org.org}/${win.group.window}/${g.ref.rule}`;
          assert.equal(g.count, expected, `${where}: the count is the filtered count`);
          assert.match(p.getTreeItem(g).label as string, new RegExp(`\\(${expected}\\)$`), where);
          const items = allItems(a, g);
          assert.equal(items.length, expected, `${where}: lists as many as it counts`);
          assert.ok(
            items.every((n) => n.item.kind === 'example' && n.item.openFlags > 0),
            `${where}: only examples with an open flag`,
          );
          if (g.count < g.total) narrowed++;
          matched += expected;
          shown++;
        }
        const total = examplesIn(org.org, win.group.window);
        assert.equal(p.getTreeItem(win).description, `${matched} of ${total}`, `${org.org}/${win.group.window}`);
      }
      // Of all the organization's examples, its windows that match nothing included.
      assert.equal(
        p.getTreeItem(org).description,
        `${examplesIn(org.org, undefined, true)} of ${examplesIn(org.org)}`,
        org.org,
      );
    }
    assert.ok(shown > 0 && narrowed > 0, `the filter narrowed ${narrowed} of ${shown} groups`);
    const confirmedOnly = Number(
      c.store.scalar(
        "SELECT count(*) FROM flags f WHERE f.status = 'confirmed' AND NOT EXISTS (SELECT 1 FROM flags o WHERE o.example_key = f.example_key AND o.status = 'open')",
      ),
    );
    assert.ok(confirmedOnly > 0, 'the sample has an example whose only flag is confirmed, which the filter leaves out');
    // The corpus, the build and the filter, where the cut title cannot hide them.
    assert.match(
      String(a.tree.view.message),
      new RegExp(`^${c.config.name} · build ${c.buildId} · filter: flagged \\(\\d+ of \\d+\\)$`),
    );
    await dom.waitFor('.part.sidebar .tree-explorer-viewlet-tree-view .message:has-text("filter: flagged")', 10000);
  });

  it('shows "Clear Filter" when a filter matches nothing', async () => {
    await vscode.commands.executeCommand('reviewCorpus.filter', { text: 'no comment in the sample says zq-xv-qz' });
    assert.deepEqual(a.tree.provider.getChildren(), [], 'nothing matches, so the tree is empty');
    await dom.waitFor(`${WELCOME}:has-text("matches the filter")`, 15000);
    assert.ok((await dom.text(WELCOME)).includes('Clear Filter'));
    await vscode.commands.executeCommand('reviewCorpus.clearFilter');
    await until('the tree back', () => a.tree.provider.getChildren().length > 0 || undefined);
  });

  it('expands a change-level rule to its changes, and opens one as a plain-text note that says why', async () => {
    const c = a.session.corpus!;
    const group = a.tree.provider.findGroup('wikimedia', 'train', 'no_comments')!;
    assert.equal(a.tree.provider.getTreeItem(group).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const items = allItems(a, group);
    const expected = c.store.all<{ number: number; project: string }>(
      `SELECT ch.number, ch.project FROM decisions d JOIN changes ch ON ch.id = d.unit_id
       WHERE d.build_id = ? AND d.unit = 'changes' AND d.org = 'wikimedia' AND d.window = 'train' AND d.rule = 'no_comments' ORDER BY ch.created, ch.number`,
      [c.buildId!],
    );
    assert.deepEqual(
      items.map((n) => n.item.kind === 'change' && n.item.changeNumber),
      expected.map((r) => r.number),
    );
    assert.equal(a.tree.provider.getTreeItem(items[0]).label, `#${expected[0].number} ${expected[0].project}`);
    await vscode.commands.executeCommand('reviewCorpus.openItem', items[0]);
    const doc = await until('the change note', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.path.startsWith('/change/') ? d : undefined;
    });
    assert.equal(doc.languageId, 'plaintext');
    const text = doc.getText();
    for (const line of [
      `wikimedia change #${expected[0].number}`,
      `project: ${expected[0].project}`,
      'removed by: no_comments',
      'why: listing reports no comments',
    ]) {
      assert.ok(text.includes(line), `the note says "${line}":\n${text}`);
    }
    assert.match(text, /^created: \d{4}-\d{2}-\d{2}/m);
    // A change outside every window, removed with evidence: the note quotes it.
    const early = allItems(a, a.tree.provider.findGroup('openstack', null, 'created_before_start')!);
    await vscode.commands.executeCommand('reviewCorpus.openItem', early[0]);
    const note = await until('the second note', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.path.startsWith('/change/') && d !== doc ? d : undefined;
    });
    assert.match(note.getText(), /removed by: created_before_start\nwhy: created: \d{4}-\d{2}-\d{2}\n/);
  });

  it('offers Seal Window only on a window never fetched, and says why when there is none', async () => {
    const windows = a.tree.provider.getChildren(a.tree.provider.getChildren()[0]) as WindowNode[];
    const fetched = windows.find((w) => !w.group.sealed && w.group.window !== null)!;
    assert.equal(a.tree.provider.getTreeItem(fetched).contextValue, 'window', 'a fetched window has no Seal Window');
    const pkg = JSON.parse(
      readFileSync(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'package.json'), 'utf8'),
    );
    const seal = pkg.contributes.menus['view/item/context'].find(
      (m: { command: string }) => m.command === 'reviewCorpus.sealWindow',
    );
    const offeredOn = /viewItem == ([\w.]+)/.exec(seal.when)?.[1];
    assert.ok(offeredOn, seal.when);
    assert.notEqual(
      offeredOn,
      a.tree.provider.getTreeItem(fetched).contextValue,
      `Seal Window's menu (${seal.when}) is not offered on a fetched window`,
    );
    // Every unsealed window of the sample has been fetched: nothing to pick, and, as information (a state,
    // not a failure), what is sealed and which windows were fetched already.
    await vscode.commands.executeCommand('notifications.clearAll');
    void vscode.commands.executeCommand('reviewCorpus.sealWindow');
    try {
      const toast = '.notification-toast:has-text("Nothing to seal.")';
      await dom.waitFor(toast, 10000);
      const text = await dom.text(toast);
      assert.match(text, /Sealed: "test"\./, text);
      assert.match(text, /Fetched already, so not sealed against earlier reads: "pilot", "train", "dev"/, text);
      assert.equal(await dom.count(`${toast} .codicon-info`), 1, 'an information message');
      assert.equal(await dom.count(`${toast} .codicon-error`), 0, 'not an error');
    } finally {
      await dom.press('Escape');
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });
});

describe('inspector tree: one welcome per state', function () {
  this.timeout(120_000);
  let a: ReviewCorpusApi;

  before(async () => {
    a = await openSampleCorpus('tree-states-sample');
    await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
  });

  it('offers "Fetch from Hosts" for a corpus.json whose corpus file does not exist yet', async () => {
    const folder = path.join(workspaceDir(), 'tree-unfetched');
    mkdirSync(folder, { recursive: true });
    const config = JSON.parse(readFileSync(a.session.corpus!.configFile, 'utf8'));
    writeFileSync(
      path.join(folder, 'corpus.json'),
      JSON.stringify({ ...config, name: 'unfetched', db: 'not-yet.sqlite' }, null, 2),
    );
    await vscode.commands.executeCommand('reviewCorpus.openCorpus', path.join(folder, 'corpus.json'));
    assert.equal(a.session.corpus, undefined);
    await dom.waitFor(`${WELCOME}:has-text("nothing fetched yet")`, 15000);
    const text = await dom.text(WELCOME);
    assert.ok(text.includes('Fetch from Hosts'), text);
    assert.ok(!text.includes('No corpus is open'), text);
  });

  it('offers "Rebuild" for a corpus fetched but not built', async () => {
    a = await openSampleCorpus('tree-unbuilt-sample');
    const c = a.session.corpus!;
    for (const table of ['decisions', 'example_comments', 'examples', 'builds']) c.store.run(`DELETE FROM ${table}`);
    c.store.save();
    await vscode.commands.executeCommand('reviewCorpus.refresh');
    assert.equal(a.session.corpus?.buildId, undefined, 'no build left');
    await dom.waitFor(`${WELCOME}:has-text("not built yet")`, 15000);
    const text = await dom.text(WELCOME);
    assert.ok(text.includes('Rebuild'), text);
    assert.ok(!text.includes('No corpus is open'), text);
  });
});
