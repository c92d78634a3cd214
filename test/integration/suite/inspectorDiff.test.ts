// An example diff in the real VS Code shows both whole files, with the hunk marked and revealed and every
// comment on its real file line: in the gutter, the threads, Problems, the Comments panel and the hover.
// The hunk alone stays behind a setting and is the fallback when no diff is stored. Removed comments are
// drawn apart; documents are named `<org> #<change> <file>`; an example that leaves the build leaves no marks.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import path from 'node:path';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import { exampleIdOfComment, openSampleCorpus, until, workspaceDir } from './support';
import { THREADS_AFTER_MS } from '../../../src/extension/diff/commentThreads';
import { storedDiffOf } from '../../../src/core/review/inspect/wholeFile';

const ORIGINAL = '.monaco-diff-editor .editor.original';
const plain = (t: string) => t.replace(/\u00a0/g, ' ');

/** Side A of a stored DiffInfo as Gerrit's lines (test/fake-gerrit/README.md): the file is them joined by "\n". */
function sideA(json: string): string[] {
  const lines: string[] = [];
  for (const entry of JSON.parse(json).content as { ab?: string[]; a?: string[] }[])
    for (const l of entry.ab ?? entry.a ?? []) lines.push(l);
  return lines;
}

/** The two editors of the active diff tab, whatever its documents are named. */
function diffEditors(): { before: vscode.TextEditor; after: vscode.TextEditor } {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  assert.ok(input instanceof vscode.TabInputTextDiff, 'a diff is the active tab');
  const find = (uri: vscode.Uri) =>
    vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
  const before = find(input.original);
  const after = find(input.modified);
  assert.ok(before && after, 'both sides are visible');
  return { before, after };
}

describe('inspector diff', function () {
  this.timeout(120_000);
  let a: ReviewCorpusApi;

  before(async () => {
    a = await openSampleCorpus('inspector-diff-sample');
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function open(gerritId: string) {
    const id = exampleIdOfComment(a, gerritId);
    await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: id });
    await dom.waitFor(`${ORIGINAL} .view-lines`, 20000);
    await until('the active example', () => a.active.example?.id === id || undefined);
    return a.active.example!;
  }

  it('shows both whole files and puts a comment on its real line: gutter, thread, Problems, Comments panel, hover', async () => {
    // os930019_c01 sits on line 8 of the file; its hunk starts at line 5, so the hunk alone put it on line 4.
    const e = await open('os930019_c01');
    const comment = e.comments.find((c) => c.gerritId === 'os930019_c01')!;
    const L = comment.range?.startLine ?? comment.line!;
    assert.ok(e.beforeStart > 1, 'the hunk does not start at the top of the file');
    const { before, after } = diffEditors();
    const stored = String(storedDiffOf(a.session.corpus!.store, e.id));
    assert.equal(before.document.getText(), sideA(stored).join('\n'), "the before side is patch set N's whole file");
    assert.ok(after.document.getText().includes(e.after), "the after side holds the hunk's after text");
    assert.equal(
      before.document.lineAt(L - 1).text,
      sideA(stored)[L - 1],
      `document line ${L} is the file's line ${L}`,
    );
    // The gutter mark and range on line L, and the hunk marked on both sides and in view.
    const shown = await until('the comment decorations', () => a.comments.shown.get(before.document.uri.toString()));
    assert.ok(
      shown.threads.some((t) => t.range.start.line === L - 1),
      `a comment drawn on line ${L}: ${JSON.stringify(shown.threads.map((t) => t.range.start.line + 1))}`,
    );
    assert.equal(shown.hunk?.start.line, e.beforeStart - 1, 'the hunk marked from its first line');
    assert.equal(
      a.comments.shown.get(after.document.uri.toString())?.hunk?.start.line,
      e.afterStart - 1,
      'the hunk marked on the after side',
    );
    for (const [editor, start] of [
      [before, e.beforeStart],
      [after, e.afterStart],
    ] as const) {
      assert.ok(
        editor.visibleRanges.some((r) => r.contains(new vscode.Position(start - 1, 0))),
        'the hunk is in view',
      );
    }
    // The thread at L.
    const threads = await until('the threads', () =>
      a.threads.threadsFor(before.document.uri).length > 0 ? a.threads.threadsFor(before.document.uri) : undefined,
    );
    assert.ok(
      threads.some((t) => t.range!.start.line === L - 1),
      `a thread on line ${L}: ${JSON.stringify(threads.map((t) => t.range!.start.line + 1))}`,
    );
    // Problems: the flag's warning on line L, listed under `<org> #<change> <file>`.
    const diags = await until('a flag diagnostic', () =>
      vscode.languages.getDiagnostics(before.document.uri).length
        ? vscode.languages.getDiagnostics(before.document.uri)
        : undefined,
    );
    assert.equal(diags[0].range.start.line, L - 1);
    const label = `${e.org} #${e.changeNumber} `;
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await dom.waitFor('.markers-panel .monaco-list-row', 10000);
    const problems = plain(await dom.text('.markers-panel'));
    assert.ok(problems.includes(`[Ln ${L}, Col 1]`), `Problems names line ${L}: ${problems}`);
    assert.ok(
      problems.includes(label) && !problems.includes('/example/'),
      `Problems names the document "${label}…": ${problems}`,
    );
    // The Comments panel: the thread at its real line, under the same name.
    await vscode.commands.executeCommand('workbench.action.focusCommentsPanel');
    const panel = '.comments-panel .monaco-list-rows';
    await dom.waitFor(`${panel}:has-text("${e.changeNumber}")`, 10000);
    const comments = plain(await dom.text(panel));
    assert.ok(
      comments.includes(`[Ln ${L}]`) || comments.includes(`[Ln ${L}-`),
      `the Comments panel names line ${L}: ${comments}`,
    );
    assert.ok(
      comments.includes(label) && !comments.includes('/example/'),
      `the Comments panel names "${label}…": ${comments}`,
    );
    // The hover names the real line.
    await vscode.commands.executeCommand('workbench.action.compareEditor.focusSecondarySide');
    before.selection = new vscode.Selection(L - 1, 1, L - 1, 1);
    await vscode.commands.executeCommand('editor.action.showHover');
    await dom.waitFor('.monaco-hover:has-text("Line")', 10000);
    const hover = plain(await dom.text('.monaco-hover:has-text("Line")'));
    assert.ok(hover.includes(`Line ${L}`), `the hover names line ${L}: ${hover}`);
    await vscode.commands.executeCommand('editor.action.hideHover').then(undefined, () => undefined);
    await dom.screenshot('inspector-diff-whole-file');
  });

  it('names the documents `<org> #<change> <file>` in the tab tooltip, never an internal path', async () => {
    const e = await open('os930001_c01');
    const { before } = diffEditors();
    assert.equal(before.document.uri.path, `/${e.org} #${e.changeNumber} ${e.path}`);
    await dom.hover('.tabs-container .tab.active');
    await dom.waitFor(`.monaco-hover:has-text("#${e.changeNumber}")`, 10000);
    const tip = plain(await dom.text(`.monaco-hover:has-text("#${e.changeNumber}")`));
    assert.ok(
      tip.includes(`${e.org} #${e.changeNumber} ${e.path}`) && !tip.includes('/example/'),
      `the tooltip: ${tip}`,
    );
    await dom.press('Escape');
  });

  it('keeps the hunk alone behind reviewCorpus.diff.wholeFile: false', async () => {
    const config = vscode.workspace.getConfiguration('reviewCorpus');
    await config.update('diff.wholeFile', false, vscode.ConfigurationTarget.Global);
    try {
      const e = await open('os930001_c01');
      const { before, after } = diffEditors();
      assert.equal(before.document.getText(), e.before);
      assert.equal(after.document.getText(), e.after);
      const root = e.comments.find((c) => c.gerritId === 'os930001_c01')!;
      const threads = await until('the threads', () =>
        a.threads.threadsFor(before.document.uri).length > 0 ? a.threads.threadsFor(before.document.uri) : undefined,
      );
      assert.ok(
        threads.some((t) => t.range!.start.line === root.line! - e.beforeStart),
        'the thread on its line within the hunk',
      );
      assert.ok(vscode.window.tabGroups.activeTabGroup.activeTab!.label.includes('hunk only'));
    } finally {
      await config.update('diff.wholeFile', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('falls back to the hunk alone, and says so in the title, when no diff of the file is stored', async () => {
    const c = a.session.corpus!;
    const id = exampleIdOfComment(a, 'os930001_c01');
    const key = c.store.get<{ change_id: number; path: string; ps_before: number }>(
      'SELECT change_id, path, ps_before FROM examples WHERE id = ?',
      [id],
    )!;
    // Every column that holds the diff's text (src/core/ground/store/diffText.ts), put back as it was after.
    const where = 'WHERE change_id = ? AND path = ? AND ps_base = ?';
    const at = [key.change_id, key.path, key.ps_before];
    const kept = c.store.get<Record<string, string | null>>(
      `SELECT content, structure, a_sha256, b_sha256, layout FROM diffs ${where}`,
      at,
    )!;
    c.store.run(
      `UPDATE diffs SET content = NULL, structure = NULL, a_sha256 = NULL, b_sha256 = NULL, layout = NULL ${where}`,
      at,
    );
    c.store.save();
    await vscode.commands.executeCommand('reviewCorpus.refresh');
    try {
      const e = await open('os930001_c01');
      assert.equal(diffEditors().before.document.getText(), e.before, 'the before side is the hunk');
      const title = vscode.window.tabGroups.activeTabGroup.activeTab!.label;
      assert.ok(title.includes('hunk only: no diff of the file is stored'), title);
    } finally {
      const reopened = a.session.corpus!;
      reopened.store.run(
        `UPDATE diffs SET content = ?, structure = ?, a_sha256 = ?, b_sha256 = ?, layout = ? ${where}`,
        [kept.content, kept.structure, kept.a_sha256, kept.b_sha256, kept.layout, ...at],
      );
      reopened.store.save();
      await vscode.commands.executeCommand('reviewCorpus.refresh');
    }
  });

  it('draws a removed comment fainter, its rule in its inline text; removed hunks and examples name their rule in the title', async () => {
    const c = a.session.corpus!;
    // A thread whose first comment a rule removed (a bot's, in a kept example).
    const removed = c.store.get<{ gerrit_id: string; rule: string }>(
      `SELECT cm.gerrit_id, d.rule FROM decisions d JOIN comments cm ON d.unit_key LIKE '%/' || cm.gerrit_id JOIN example_comments x ON x.comment_id = cm.id
       JOIN examples e ON e.id = x.example_id AND e.build_id = d.build_id
       WHERE d.build_id = ? AND d.unit = 'comments' AND d.rule != 'kept' AND cm.in_reply_to IS NULL AND e.rule IS NULL ORDER BY e.id LIMIT 1`,
      [c.buildId!],
    )!;
    await open(removed.gerrit_id);
    const { before } = diffEditors();
    const shown = await until('the comment decorations', () => a.comments.shown.get(before.document.uri.toString()));
    const drawn = shown.threads.find((t) => t.removedBy === removed.rule);
    assert.ok(drawn, `the removed comment is drawn as removed: ${JSON.stringify(shown.threads)}`);
    assert.ok(drawn.inline.startsWith(`removed by ${removed.rule} · `), drawn.inline);
    assert.ok(
      shown.threads.filter((t) => t.removedBy === null).every((t) => !t.inline.startsWith('removed by')),
      'kept comments are not drawn as removed',
    );
    await until('the inline text as drawn', async () => {
      const texts = await dom.pseudoContent(`${ORIGINAL} .view-lines span`, '::after');
      return texts.some((t) => t.includes(`removed by ${removed.rule}`)) || undefined;
    });
    // A hunk removed by size and an example removed by near_duplicate name their rule in the title.
    for (const [unit, rule] of [
      ['hunks', 'size'],
      ['examples', 'near_duplicate'],
    ]) {
      const id = Number(
        c.store.scalar('SELECT id FROM examples WHERE build_id = ? AND unit = ? AND rule = ? LIMIT 1', [
          c.buildId!,
          unit,
          rule,
        ]),
      );
      await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: id });
      await until(`the ${rule} diff`, () => a.active.example?.id === id || undefined);
      const title = vscode.window.tabGroups.activeTabGroup.activeTab!.label;
      assert.ok(title.includes(`removed by ${rule}`), title);
    }
  });

  it('clears decorations, threads and diagnostics when the example leaves the build (another corpus opened)', async () => {
    const first = a.session.configFile!;
    const id = exampleIdOfComment(a, 'os930019_c01');
    // The other corpus: the same sample without that example.
    await openSampleCorpus('inspector-diff-other');
    const other = a.session.corpus!;
    other.store.run('DELETE FROM example_comments WHERE example_id = ?', [id]);
    other.store.run('DELETE FROM examples WHERE id = ?', [id]);
    other.store.save();
    const second = a.session.configFile!;
    try {
      await vscode.commands.executeCommand('reviewCorpus.openCorpus', first);
      await open('os930019_c01');
      const { before } = diffEditors();
      const uri = before.document.uri;
      await until('the threads', () => a.threads.threadsFor(uri).length > 0 || undefined);
      await until('a flag diagnostic', () => vscode.languages.getDiagnostics(uri).length > 0 || undefined);
      await until(
        'the gutter marks',
        async () => (await dom.count(`${ORIGINAL} [class*="cgmr"]`)) > 0 || undefined,
        10000,
      );
      const comment = a.active.example!.comments[0];
      const e = a.active.example!;

      await vscode.commands.executeCommand('reviewCorpus.openCorpus', second);
      await until(
        'the document says its example is gone',
        () => before.document.getText().includes('is not in the current build') || undefined,
      );
      // Named as the user knows it (organization, change, file), never by its row id; one line, what to do.
      const said = before.document.getText();
      assert.ok(said.startsWith(`${e.org} #${e.changeNumber} ${e.path} is not in the current build`), said);
      assert.match(said, /Open it again from the Review Corpus view\.$/);
      assert.doesNotMatch(said, new RegExp(`\\b${id}\\b|example \\d`), 'no row id');
      assert.equal(before.document.lineCount, 1);
      await until(
        'no gutter mark',
        async () => (await dom.count(`${ORIGINAL} [class*="cgmr"]`)) === 0 || undefined,
        10000,
      );
      const inline = await dom.pseudoContent(`${ORIGINAL} .view-lines span`, '::after');
      assert.ok(
        !inline.some((t) => t.includes(comment.message.slice(0, 20))),
        `no inline comment text left: ${JSON.stringify(inline)}`,
      );
      await new Promise((resolve) => setTimeout(resolve, THREADS_AFTER_MS + 200));
      assert.equal(a.threads.threadsFor(uri).length, 0, 'no threads');
      assert.equal(vscode.languages.getDiagnostics(uri).length, 0, 'no diagnostics');
      await dom.screenshot('inspector-diff-left-the-build');
    } finally {
      await vscode.commands.executeCommand('reviewCorpus.openCorpus', first);
    }
  });

  it('never shows an empty editor: one line says why and what to do when the records are not here, or the pack is missing', async () => {
    const first = a.session.configFile!;
    const e = await open('os930019_c01');
    const { before, after } = diffEditors();
    const name = `${e.org} #${e.changeNumber} ${e.path}`;
    // A corpus.json whose corpus file was not fetched on this machine.
    const unfetched = path.join(workspaceDir(), 'inspector-diff-unfetched');
    mkdirSync(unfetched, { recursive: true });
    const config = JSON.parse(readFileSync(first, 'utf8'));
    writeFileSync(path.join(unfetched, 'corpus.json'), JSON.stringify(config));
    // A copy of the sample whose blob pack is missing.
    const nopack = path.join(workspaceDir(), 'inspector-diff-nopack');
    mkdirSync(nopack, { recursive: true });
    writeFileSync(path.join(nopack, 'corpus.json'), JSON.stringify(config));
    copyFileSync(a.session.corpus!.dbFile, path.join(nopack, path.basename(a.session.corpus!.dbFile)));
    try {
      await vscode.commands.executeCommand('reviewCorpus.openCorpus', path.join(unfetched, 'corpus.json'));
      await until('no corpus open', () => a.session.corpus === undefined || undefined);
      for (const doc of [before.document, after.document]) {
        await until('the document says why', () => doc.getText().includes('cannot be shown') || undefined);
        assert.equal(doc.lineCount, 1, doc.getText());
        assert.ok(doc.getText().startsWith(`${name} cannot be shown: `), doc.getText());
        assert.match(doc.getText(), /has not been fetched on this machine\. Run "Review Corpus: Fetch from Hosts"/);
      }
      await vscode.commands
        .executeCommand('reviewCorpus.openCorpus', path.join(nopack, 'corpus.json'))
        .then(undefined, () => undefined);
      await until(
        'the document names the missing pack',
        () => before.document.getText().includes('.blobs: missing') || undefined,
      );
      assert.match(before.document.getText(), /then run "Review Corpus: Refresh"\.$/);
      assert.equal(before.document.lineCount, 1);
      await dom.screenshot('inspector-diff-not-here');
    } finally {
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('reviewCorpus.openCorpus', first);
    }
  });
});
