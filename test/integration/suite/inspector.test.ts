// The inspector in the real VS Code: tree counts, example diffs with comments drawn in place, hovers,
// read-only threads, flags in Problems, labels, next/previous, and hostile comment text kept inert.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import type { CorpusNode, GroupNode } from '../../../src/extension/tree/nodes';
import { currentPlatform, hugePagesTunables } from '../../../src/core/ground/process/hugePages';
import { countRows, decisionTotals } from '../../../src/core/publish/export/counts';
import { exampleIdOfComment, localRater, openSampleCorpus, until, workerProcesses } from './support';
import { THREADS_AFTER_MS } from '../../../src/extension/diff/commentThreads';

const ORIGINAL = '.monaco-diff-editor .editor.original';
/** Rendered text with the editor's and markdown's non-breaking spaces as plain spaces. */
const plain = (t: string) => t.replace(/\u00a0/g, ' ');
const text = async (selector: string) => plain(await dom.text(selector));
const MODIFIED = '.monaco-diff-editor .editor.modified';

async function openExampleOf(a: ReviewCorpusApi, gerritId: string) {
  const id = exampleIdOfComment(a, gerritId);
  const example = await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: id });
  assert.ok(example, `example ${id} opened`);
  await dom.waitFor(`${ORIGINAL} .view-lines`, 20000);
  await until('the active example', () => a.active.example?.id === id || undefined);
  return a.active.example!;
}

/** Puts the cursor on a line of the diff's before side, focuses that side, and shows the hover there. */
async function hoverBeforeLine(line: number, character = 1): Promise<string> {
  const editor = beforeEditor();
  await vscode.commands.executeCommand('workbench.action.compareEditor.focusSecondarySide');
  editor.selection = new vscode.Selection(line, character, line, character);
  await vscode.commands.executeCommand('editor.action.showHover');
  await dom.waitFor('.monaco-hover .hover-contents', 10000);
  return text('.monaco-hover');
}

function beforeEditor(): vscode.TextEditor {
  const e = vscode.window.visibleTextEditors.find(
    (ed) => ed.document.uri.scheme === 'review-corpus' && ed.document.uri.query.includes('side=before'),
  );
  assert.ok(e, 'the before side is visible');
  return e;
}

describe('inspector', function () {
  this.timeout(120_000);
  let a: ReviewCorpusApi;

  before(async () => {
    a = await openSampleCorpus('inspector-sample');
    await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
  });

  it('every count in the tree equals the database, for every node', async () => {
    const c = a.session.corpus!;
    const provider = a.tree.provider;
    let groups = 0;
    for (const org of provider.getChildren()) {
      for (const win of provider.getChildren(org)) {
        for (const node of provider.getChildren(win)) {
          const g = node as GroupNode;
          const w = g.ref.window;
          const expected =
            g.ref.rule === 'kept'
              ? Number(
                  c.store.scalar(
                    'SELECT count(*) FROM examples e JOIN changes ch ON ch.id = e.change_id JOIN hosts h ON h.id = ch.host_id WHERE e.build_id = ? AND h.org = ? AND e.window IS ? AND e.rule IS NULL',
                    [c.buildId!, g.ref.org, w],
                  ),
                )
              : Number(
                  c.store.scalar(
                    'SELECT count(*) FROM decisions WHERE build_id = ? AND org = ? AND window IS ? AND unit = ? AND rule = ?',
                    [c.buildId!, g.ref.org, w, g.ref.unit, g.ref.rule],
                  ),
                );
          assert.equal(g.count, expected, `${g.ref.org}/${w}/${g.ref.rule}`);
          // A rule the host could not run reads "not counted", never a number (the file holds none of its decisions).
          const counted = g.rule?.notCounted === undefined;
          assert.match(
            provider.getTreeItem(g).label as string,
            counted ? new RegExp(`\\(${expected}\\)$`) : /\(not counted\)$/,
          );
          if (g.ref.unit !== 'changes') {
            let items: CorpusNode[] = provider.getChildren(g);
            while (items.some((i) => i.type === 'loadMore')) {
              provider.loadMore(g);
              items = provider.getChildren(g);
            }
            assert.equal(items.length, expected, `items under ${g.ref.org}/${w}/${g.ref.rule}`);
          }
          groups++;
        }
      }
    }
    assert.ok(groups > 40, `walked ${groups} groups`);
  });

  it('shows the corpus name, the kept count and the build number in the status bar', async () => {
    const c = a.session.corpus!;
    const kept = Number(
      c.store.scalar("SELECT count(*) FROM decisions WHERE build_id = ? AND unit = 'examples' AND rule = 'kept'", [
        c.buildId!,
      ]),
    );
    const expected = `${c.config.name}: ${kept.toLocaleString('en-US')} kept · build ${c.buildId}`;
    const shown = await until('the status bar item', async () => {
      const items = await dom.query('.statusbar-item');
      return items
        .map((i) => plain(i.text).trim())
        .find((t) => t.includes(' kept · build ') || t.includes('not built'));
    });
    assert.equal(shown, expected);
  });

  it('opens an example as a native diff: both sides, the title, and the comments drawn on their lines', async () => {
    const e = await openExampleOf(a, 'os930005_c01');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab!;
    assert.equal(tab.label, `${e.project} #${e.changeNumber} ${e.path} PS${e.psBefore} → PS${e.psAfter}`);
    const firstBefore = e.before
      .split('\n')
      .find((l) => l.trim().length > 8)!
      .trim();
    const firstAfter = e.after
      .split('\n')
      .find((l) => l.trim().length > 8)!
      .trim();
    assert.ok((await text(`${ORIGINAL} .view-lines`)).includes(firstBefore.slice(0, 20)), 'before side rendered');
    assert.ok((await text(`${MODIFIED} .view-lines`)).includes(firstAfter.slice(0, 20)), 'after side rendered');
    assert.ok(beforeEditor().document.languageId === 'python', 'the language follows the file suffix');
    // The decorations: a gutter mark and the inline `after:` text with the pseudonym and the comment.
    const margin = await until(
      'the gutter mark',
      async () => {
        const marks = await dom.query(`${ORIGINAL} [class*="cgmr"]`);
        return marks.length ? marks : undefined;
      },
      10000,
    ).catch(async () => {
      const classes = (await dom.query(`${ORIGINAL} .margin div`)).map((d) => d.className);
      throw new Error(`no gutter mark on the before side; margin classes: ${JSON.stringify([...new Set(classes)])}`);
    });
    assert.ok(margin.length >= 1);
    const inline = await dom.pseudoContent(`${ORIGINAL} .view-lines span`, '::after');
    const comment = e.comments[0];
    assert.ok(
      inline.some((t) => t.includes(`${comment.author}: ${comment.message.slice(0, 20)}`)),
      `inline text drawn (got ${JSON.stringify(inline.slice(0, 5))})`,
    );
    // The selection lands on the first commented line.
    const line = (comment.range?.startLine ?? comment.line!) - 1; // whole files: the comment on its real line
    assert.equal(beforeEditor().selection.active.line, line);
    await dom.screenshot('inspector-diff');
  });

  it('shows the whole thread on hover, and read-only comment threads only while the diff is open', async () => {
    const e = await openExampleOf(a, 'os930001_c01');
    const editor = beforeEditor();
    // The threads follow their diff by a moment (commentThreads.ts), after the diff has drawn.
    const threads = await until('threads exist while the diff is open', () => {
      const open = a.threads.threadsFor(editor.document.uri);
      return open.length >= 1 ? open : undefined;
    });
    assert.equal(threads[0].canReply, false);
    assert.equal(threads[0].comments[0].mode, vscode.CommentMode.Preview);
    const root = e.comments.find((c) => c.gerritId === 'os930001_c01')!;
    const line = (root.range?.startLine ?? root.line!) - 1;
    const hover = await hoverBeforeLine(line, (root.range?.startCharacter ?? 0) + 1);
    assert.ok(hover.includes(root.message.slice(0, 30)), `hover shows the comment (${hover.slice(0, 80)})`);
    const reply = e.comments.find((c) => c.inReplyTo === root.gerritId);
    if (reply) assert.ok(hover.includes(reply.message.slice(0, 10)), 'hover shows the reply of the thread');
    await dom.screenshot('inspector-hover');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await until(
      'threads disposed with the diff',
      () => a.threads.threadsFor(editor.document.uri).length === 0 || undefined,
    );
  });

  it('keeps hostile comment text inert in the hover and the comment thread', async () => {
    const e = await openExampleOf(a, 'os930013_c01');
    const editor = beforeEditor();
    // c02 replies to c01 (in_reply_to), so the hover over c01's line holds the whole thread.
    const root = e.comments.find((x) => x.gerritId === 'os930013_c01')!;
    assert.equal(e.comments.find((x) => x.gerritId === 'os930013_c02')?.inReplyTo, root.gerritId);
    const hover = await hoverBeforeLine(
      (root.range?.startLine ?? root.line!) - 1,
      (root.range?.startCharacter ?? 0) + 1,
    );
    assert.ok(hover.includes('<img src=x onerror=alert(1)>'), 'the tag shows as text');
    assert.ok(hover.includes('[x](command:workbench.action.quit)'), 'the command link shows as text');
    assert.ok(hover.includes('**bold**') && hover.includes('# heading'), 'markdown shows as typed');
    assert.equal(await dom.count('.monaco-hover img'), 0, 'no image element');
    assert.equal(
      await dom.count('.monaco-hover a[href*="command:"], .monaco-hover a[data-href*="command:"]'),
      0,
      'no command link',
    );
    await dom.screenshot('inspector-hostile-hover');
    await vscode.commands.executeCommand('editor.action.hideHover').then(undefined, () => undefined);
    // The comment thread widget: expand the threads and read their rendered bodies.
    const threads = await until('the threads', () =>
      a.threads.threadsFor(editor.document.uri).length > 0 ? a.threads.threadsFor(editor.document.uri) : undefined,
    );
    for (const t of threads) t.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
    await dom.waitFor('.review-widget .comment-body', 10000);
    const bodies = plain((await dom.query('.review-widget .comment-body')).map((b) => b.text).join('\n'));
    assert.ok(bodies.includes('<img src=x onerror=alert(1)>'), 'thread shows the tag as text');
    assert.ok(bodies.includes('[x](command:workbench.action.quit)'), 'thread shows the link as text');
    assert.equal(await dom.count('.review-widget .comment-body img'), 0);
    assert.equal(
      await dom.count(
        '.review-widget .comment-body a[href*="command:"], .review-widget .comment-body a[data-href*="command:"]',
      ),
      0,
    );
  });

  it('links nothing in a comment with a bare URL: the URL and the words after it show as typed', async () => {
    const c = a.session.corpus!;
    // A kept example with one comment and no flag, so the hover holds only that comment.
    const target = c.store.get<{ gerrit_id: string; message: string }>(
      `SELECT cm.gerrit_id, cm.message FROM examples e JOIN example_comments x ON x.example_id = e.id JOIN comments cm ON cm.id = x.comment_id
       WHERE e.build_id = ? AND e.rule IS NULL AND NOT EXISTS (SELECT 1 FROM flags f WHERE f.example_key = e.example_key)
       GROUP BY e.id HAVING COUNT(*) = 1 ORDER BY e.id LIMIT 1`,
      [c.buildId!],
    )!;
    const message =
      'see http://example.org/x.png) [open](command:workbench.action.quit) and www.example.org \u202etxet and a@b.example';
    c.store.run('UPDATE comments SET message = ? WHERE gerrit_id = ?', [message, target.gerrit_id]);
    c.store.save();
    await vscode.commands.executeCommand('reviewCorpus.refresh');
    try {
      const e = await openExampleOf(a, target.gerrit_id);
      const root = e.comments.find((x) => x.gerritId === target.gerrit_id)!;
      const hover = await hoverBeforeLine(
        (root.range?.startLine ?? root.line!) - 1,
        (root.range?.startCharacter ?? 0) + 1,
      );
      const typed =
        'see http://example.org/x.png) [open](command:workbench.action.quit) and www.example.org \\u202etxet and a@b.example';
      // Only our part of the hover: a language's own hover part (CSS: "MDN Reference") may hold links.
      assert.equal(
        await dom.count('.monaco-hover .hover-contents:has-text("example.org") a'),
        0,
        'a link in the hover',
      );
      assert.ok(hover.includes(typed), `the hover shows the comment as typed: ${JSON.stringify(hover)}`);
      await vscode.commands.executeCommand('editor.action.hideHover').then(undefined, () => undefined);
      const threads = await until('the threads', () =>
        a.threads.threadsFor(beforeEditor().document.uri).length > 0
          ? a.threads.threadsFor(beforeEditor().document.uri)
          : undefined,
      );
      for (const t of threads) t.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
      await dom.waitFor('.review-widget .comment-body', 10000);
      const body = '.review-widget .comment-body';
      const bodies = plain((await dom.query(body)).map((b) => b.text).join('\n'));
      assert.equal(await dom.count(`${body} a`), 0, 'a link in the thread');
      assert.ok(bodies.includes(typed), `the thread shows the comment as typed: ${JSON.stringify(bodies)}`);
    } finally {
      const reopened = a.session.corpus!; // Refresh opened the file again
      reopened.store.run('UPDATE comments SET message = ? WHERE gerrit_id = ?', [target.message, target.gerrit_id]);
      reopened.store.save();
      await vscode.commands.executeCommand('reviewCorpus.refresh');
    }
  });

  it('flags a suspected suggested edit where it stands: a warning in Problems and a tree badge', async () => {
    const e = await openExampleOf(a, 'os930019_c01');
    const uri = beforeEditor().document.uri;
    const diags = await until('a flag diagnostic', () => {
      const d = vscode.languages.getDiagnostics(uri);
      return d.length ? d : undefined;
    });
    assert.ok(diags.every((d) => d.severity === vscode.DiagnosticSeverity.Warning));
    assert.ok(
      diags.some((d) => d.code === 'suggestion_fence_variant'),
      `a fence-variant flag among ${diags.map((d) => d.code).join(', ')}`,
    );
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await dom.waitFor('.markers-panel .monaco-list-row', 10000);
    assert.ok((await text('.markers-panel')).includes('Suspected reviewer-written target'));
    const node = a.tree.provider.findGroup('openstack', e.window, 'kept');
    const item = a.tree.provider.getChildren(node!).find((n) => n.type === 'item' && n.item.id === e.id)!;
    assert.equal((a.tree.provider.getTreeItem(item).iconPath as vscode.ThemeIcon).id, 'warning');
    // Rejected (the edit Reject Flag makes once its flags are picked), the warnings leave the open diff:
    // the diagnostics, and the warning highlight drawn over the comment's lines.
    const decorated = `${ORIGINAL} .view-overlays [class*="ced-"]`;
    const withFlag = await dom.count(decorated);
    const open = a.session
      .corpus!.store.all<{ id: number }>("SELECT id FROM flags WHERE example_key = ? AND status = 'open'", [e.key])
      .map((f) => Number(f.id));
    a.session.edit({
      kind: 'flags',
      flagIds: open,
      status: 'rejected',
      rater: 'r_0000000000000000',
      at: new Date().toISOString(),
    });
    await until('the flag diagnostics cleared', () => vscode.languages.getDiagnostics(uri).length === 0 || undefined);
    await until(
      'the flag highlight cleared',
      async () => ((await dom.count(decorated)) < withFlag ? true : undefined),
      10000,
    );
  });

  it('labels the active example with the keyboard shortcuts, and the labels reach the file in the background', async () => {
    const e = await openExampleOf(a, 'os930005_c01');
    const file = a.session.corpus!.dbFile;
    // The file and its journal (src/core/ground/store/journal.ts): a label's save is usually a journal append.
    const onDiskBytes = () =>
      Buffer.concat([readFileSync(file), ...(existsSync(`${file}.rcj`) ? [readFileSync(`${file}.rcj`)] : [])]);
    const copiesOfKey = () => {
      const bytes = onDiskBytes();
      let n = 0;
      for (let at = bytes.indexOf(e.key); at >= 0; at = bytes.indexOf(e.key, at + 1)) n++;
      return n;
    };
    const onDisk = copiesOfKey();
    const uri = beforeEditor().document.uri;
    const threads = await until('the threads', () =>
      a.threads.threadsFor(uri).length > 0 ? a.threads.threadsFor(uri) : undefined,
    );
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await dom.press('Control+Alt+1');
    const label = await until(
      'a stored label',
      () =>
        a.session.corpus!.store.scalar('SELECT label FROM labels WHERE example_key = ? AND rater = ?', [
          e.key,
          localRater(),
        ]) as string | undefined,
    );
    assert.equal(label, 'answers');
    await new Promise((resolve) => setTimeout(resolve, THREADS_AFTER_MS + 200)); // past the threads' delay
    assert.equal(a.threads.threadsFor(uri)[0], threads[0], 'labelling leaves the comment threads in place');
    await dom.press('Control+Alt+3');
    await until(
      'the label changes to unsure',
      () =>
        a.session.corpus!.store.scalar('SELECT label FROM labels WHERE example_key = ? AND rater = ?', [
          e.key,
          localRater(),
        ]) === 'unsure' || undefined,
    );
    await until('the labels saved', () => !a.session.hasUnsavedChanges || undefined);
    assert.ok(
      copiesOfKey() > onDisk,
      'the label row (and its index entry) are on disk, in the corpus file or its journal',
    );
    if (process.platform === 'linux') {
      const savers = workerProcesses();
      assert.equal(savers.length, 1, 'a saver process of its own, a child of the extension host, wrote them');
      const tunables = hugePagesTunables(currentPlatform());
      if (tunables)
        assert.ok(savers[0].env.includes(`GLIBC_TUNABLES=${tunables}`), `the saver starts with ${tunables}`);
    }
  });

  it('moves to the next and previous example within the tree group', async () => {
    const group = a.tree.provider.findGroup('openstack', 'train', 'kept')!;
    const items = a.tree.provider.getChildren(group).filter((n) => n.type === 'item');
    assert.ok(items.length >= 3);
    await a.tree.view.reveal(items[0], { select: true, focus: true });
    await vscode.commands.executeCommand('reviewCorpus.openItem', items[0]);
    await vscode.commands.executeCommand('reviewCorpus.nextExample');
    await until(
      'the second example',
      () => a.active.example?.id === (items[1] as { item: { id: number } }).item.id || undefined,
    );
    await vscode.commands.executeCommand('reviewCorpus.nextExample');
    await until(
      'the third example',
      () => a.active.example?.id === (items[2] as { item: { id: number } }).item.id || undefined,
    );
    await vscode.commands.executeCommand('reviewCorpus.previousExample');
    await until(
      'back to the second',
      () => a.active.example?.id === (items[1] as { item: { id: number } }).item.id || undefined,
    );
    const selected = a.tree.view.selection[0];
    assert.ok(
      selected?.type === 'item' && selected.item.id === (items[1] as { item: { id: number } }).item.id,
      'the tree selection follows',
    );
  });

  it('shows the funnel report with the right numbers, and hostile text stays inert there', async () => {
    const c = a.session.corpus!;
    const funnel = JSON.parse(String(c.store.scalar('SELECT funnel FROM builds WHERE id = ?', [c.buildId!])));
    // A flag whose detail carries hostile text, as a comment's first line would.
    c.store.run(
      "INSERT OR REPLACE INTO flags(example_key, reason, detail) VALUES ('openstack/1/1/1/x.py', 'suggestion_fence_variant', ?)",
      [
        JSON.stringify({
          reason: 'suggestion_fence_variant',
          commentId: 0,
          commentSpan: { start: 0, end: 1 },
          detail: '<img src=x onerror=alert(1)> [x](command:workbench.action.quit)',
        }),
      ],
    );
    c.store.save(); // test setup on the main thread; later jobs read the file
    await vscode.commands.executeCommand('reviewCorpus.showFunnel');
    const table = await dom.frameText('[aria-label="openstack funnel"]', 20000);
    for (const row of funnel.organizations.openstack.funnel) assert.ok(table.includes(row.rule), `row ${row.rule}`);
    const ownAuthor = funnel.organizations.openstack.funnel.find(
      (r: { rule: string }) => r.rule === 'own_author',
    ).removed;
    // The row's cells, removed then remaining (as counts.csv has them); cell text may come without separators.
    const row = countRows(funnel, decisionTotals(c.store, c.buildId!)).find(
      (r) => r.org === 'openstack' && r.rule === 'own_author',
    )!;
    assert.equal(row.removed, ownAuthor);
    assert.match(table, new RegExp(`own_author\\s*comments\\s*${ownAuthor}\\s*${row.remaining}(?!\\d)`));
    const flags = await dom.frameText('[aria-label="open flags"]', 10000);
    assert.ok(flags.includes('<img src=x onerror=alert(1)>'), 'the tag shows as text in the webview');
    assert.equal(await dom.frameCount('[aria-label="open flags"] img'), 0);
    await dom.screenshot('funnel-report');
  });
});

describe('inspector: filter and removed units', function () {
  this.timeout(60_000);
  let a: ReviewCorpusApi;
  before(async () => {
    a = await openSampleCorpus('inspector-filter-sample');
  });
  afterEach(async () => vscode.commands.executeCommand('reviewCorpus.clearFilter'));

  it('filters the tree by organization and rule, and says so in the view description', async () => {
    await vscode.commands.executeCommand('reviewCorpus.filter', { org: 'qt', rule: 'boilerplate' });
    const orgs = a.tree.provider.getChildren();
    assert.deepEqual(
      orgs.map((o) => o.type === 'org' && o.org),
      ['qt'],
    );
    const groups = orgs.flatMap((o) => a.tree.provider.getChildren(o)).flatMap((w) => a.tree.provider.getChildren(w));
    assert.ok(groups.length > 0 && groups.every((g) => g.type === 'group' && g.ref.rule === 'boilerplate'));
    assert.equal(
      groups.reduce((n, g) => n + (g.type === 'group' ? g.count : 0), 0),
      5,
    );
    assert.match(String(a.tree.view.description), /filter: qt · boilerplate/);
  });

  it('filters by text in comments', async () => {
    await vscode.commands.executeCommand('reviewCorpus.filter', { text: 'monotonic' });
    const items = a.tree.provider
      .getChildren()
      .flatMap((o) => a.tree.provider.getChildren(o))
      .flatMap((w) => a.tree.provider.getChildren(w))
      .flatMap((g) => a.tree.provider.getChildren(g))
      .filter((n) => n.type === 'item');
    assert.ok(items.length >= 1);
    for (const n of items)
      assert.ok(n.type === 'item' && n.item.kind === 'example' && /monotonic/i.test(n.item.firstComment));
  });

  it('opens a removed comment without an example as a read-only note with its reason', async () => {
    const group = a.tree.provider.findGroup('openstack', 'train', 'unchanged_around')!;
    const item = a.tree.provider.getChildren(group).find((n) => n.type === 'item')!;
    await vscode.commands.executeCommand('reviewCorpus.openItem', item);
    const doc = await until('the note', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.path.startsWith('/comment/') ? d : undefined;
    });
    assert.match(doc.getText(), /removed by: unchanged_around/);
    assert.equal(doc.uri.scheme, 'review-corpus');
    assert.equal(doc.languageId, 'plaintext', 'the note opens as plain text, not as a Markdown file');
  });

  it("opens a comment removed inside an example in that example's diff", async () => {
    const group = a.tree.provider.findGroup('openstack', 'pilot', 'own_author')!;
    const item = a.tree.provider.getChildren(group).find((n) => n.type === 'item')!;
    await vscode.commands.executeCommand('reviewCorpus.openItem', item);
    await until('an example diff', () => a.active.example);
    assert.ok(a.active.example!.comments.some((c) => c.removedBy === 'own_author'));
  });
});
