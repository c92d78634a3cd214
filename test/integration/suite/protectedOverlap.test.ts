// Decontamination in the real VS Code: the sample corpus' protected_overlap example shows the matched
// span highlighted with a hover naming the reference and the policy, its tree tooltip names them too,
// and "Protect References…" registers a set through the saver so the next rebuild removes its overlap.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import type { ItemNode } from '../../../src/extension/tree/nodes';
import { openSampleCorpus, until, workspaceDir } from './support';

const ORIGINAL = '.monaco-diff-editor .editor.original';
const plain = (t: string) => t.replace(/\u00a0/g, ' ');
const collapse = (t: string) => t.replace(/\s+/g, ' ').trim();
// The sample's fabricated set (test/fixtures/protected/fabricatedBenchmarkTest.ts), item fab-0002's before side.
const FAB_0002 =
  'var args = arguments;\nclearTimeout( timer );\ntimer = setTimeout( function () {\n  fn.apply( null, args );\n}, wait );';

describe('protected overlap', function () {
  this.timeout(180_000);
  let a: ReviewCorpusApi;

  before(async () => {
    a = await openSampleCorpus('protected-sample');
    await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const protectedNode = async (org: string, window: string): Promise<ItemNode> => {
    // The tree follows the open corpus on its change event: wait for this corpus' group, and say what shows instead.
    const provider = a.tree.provider;
    const shown = () =>
      provider
        .getChildren()
        .flatMap((o) =>
          provider
            .getChildren(o)
            .flatMap((w) =>
              provider
                .getChildren(w)
                .map(
                  (g) =>
                    `${o.type === 'org' ? o.org : '?'}/${w.type === 'window' ? w.group.window : '?'}/${g.type === 'group' ? g.ref.rule : g.type}`,
                ),
            ),
        );
    // Two CI runs of three saw the tree without this corpus' protected_overlap group although the session
    // had the corpus open (cause not found yet; CHANGELOG "Known"): Refresh re-reads the file once, then it must show.
    const group = await until(
      'a protected_overlap group',
      () => provider.findGroup(org, window, 'protected_overlap'),
      5000,
    )
      .catch(async () => {
        await vscode.commands.executeCommand('reviewCorpus.refresh');
        return until(
          'a protected_overlap group after Refresh',
          () => provider.findGroup(org, window, 'protected_overlap'),
          5000,
        );
      })
      .catch(() =>
        assert.fail(
          `no protected_overlap group in ${org}/${window} of ${a.session.corpus?.dbFile} (build ${a.session.corpus?.buildId}, ` +
            `filter ${JSON.stringify(provider.filter)}): ${shown().join(', ')}`,
        ),
      );
    const node = provider.getChildren(group).find((n) => n.type === 'item') as ItemNode | undefined;
    assert.ok(node, 'the protected_overlap example');
    return node;
  };

  it('highlights the matched span of the example and names the reference and policy on hover', async () => {
    const node = await protectedNode('wikimedia', 'train');
    await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: node.item.id });
    await dom.waitFor(`${ORIGINAL} .view-lines`, 20000);
    const before = vscode.window.visibleTextEditors.find((e) => e.document.uri.query.includes('side=before'));
    assert.ok(before, 'the before side is visible');
    const shown = await until('the overlap decoration', () =>
      a.protectedOverlaps.shown.get(before.document.uri.toString()),
    );
    assert.equal(
      collapse(before.document.getText(shown.range)),
      collapse(FAB_0002),
      'the highlighted span is what matched the reference',
    );
    assert.ok(shown.text.includes('reference "fabricated-benchmark-test" item "fab-0002"'), shown.text);
    assert.ok(shown.text.includes('policy side_substring'), shown.text);
    // The same text as the user sees it: hover over the span's first character.
    await vscode.commands.executeCommand('workbench.action.compareEditor.focusSecondarySide');
    before.selection = new vscode.Selection(shown.range.start.translate(0, 1), shown.range.start.translate(0, 1));
    await vscode.commands.executeCommand('editor.action.showHover');
    await dom.waitFor('.monaco-hover:has-text("Protected overlap")', 10000);
    const hover = plain(await dom.text('.monaco-hover:has-text("Protected overlap")'));
    assert.ok(
      hover.includes(
        'Protected overlap: reference "fabricated-benchmark-test" item "fab-0002" (its before), policy side_substring',
      ),
      hover,
    );
    assert.equal(await dom.count('.monaco-hover:has-text("Protected overlap") a'), 0, 'the reference forms no link');
    await dom.screenshot('protected-overlap-span');
  });

  it('names the reference and the policy in the tree tooltip', async () => {
    const node = await protectedNode('wikimedia', 'train');
    await dom.press('Escape');
    await a.tree.view.reveal(node, { select: true, focus: true, expand: true });
    const row = `.part.sidebar .monaco-list-row.selected:has-text(${JSON.stringify(`#${node.item.changeNumber}`)})`;
    await dom.waitFor(row, 10000);
    await dom.hover(row);
    const HOVER = '.monaco-hover:has-text("Protected reference")';
    await dom.waitFor(HOVER, 15000);
    const tip = plain(await dom.text(HOVER));
    assert.ok(tip.includes('Protected reference: fabricated-benchmark-test / fab-0002, policy side_substring'), tip);
    assert.ok(tip.includes('span_start:') && tip.includes('span_end:'), 'the evidence gives the span');
  });

  it('registers a set from the palette through the saver, and the next rebuild removes its overlap', async () => {
    const c = a.session.corpus!;
    const greeter = c.store.get<{ id: number; before_text: string }>(
      "SELECT id, before_text FROM examples WHERE build_id = ? AND example_key LIKE 'qt/600112/%' AND rule IS NULL",
      [c.buildId!],
    );
    assert.ok(greeter, 'the greeter example is kept before');
    const file = path.join(workspaceDir(), 'palette-refs.jsonl');
    writeFileSync(
      file,
      JSON.stringify({ id: 'p1', before: greeter.before_text.split('\n').slice(0, 3).join('\n   ') }) + '\n',
    );
    const r = await vscode.commands.executeCommand<{ name: string; items: number; sha256: string }>(
      'reviewCorpus.protectReferences',
      file,
      'palette-set',
      false,
    );
    assert.deepEqual(r && [r.name, r.items], ['palette-set', 1]);
    await a.session.flush();
    await a.session.reload(); // the copy shown now is read from the file the saver wrote
    const onDisk = a.session.corpus!.store;
    assert.equal(
      onDisk.scalar("SELECT sha256 FROM protected_sets WHERE name = 'palette-set'"),
      r!.sha256,
      'the saver wrote the set to the file',
    );
    assert.equal(onDisk.scalar("SELECT action FROM protected_set_events WHERE name = 'palette-set'"), 'registered');
    await vscode.commands.executeCommand('reviewCorpus.rebuild');
    const after = a.session.corpus!;
    const row = after.store.get<{ rule: string; evidence: string }>(
      "SELECT e.rule, d.evidence FROM examples e JOIN decisions d ON d.build_id = e.build_id AND d.unit = e.unit AND d.unit_key = e.example_key WHERE e.build_id = ? AND e.example_key LIKE 'qt/600112/%'",
      [after.buildId!],
    );
    assert.equal(row?.rule, 'protected_overlap');
    assert.equal(JSON.parse(row!.evidence).reference_set, 'palette-set');
  });
});
