// Host text in VS Code's own widgets, rendered in the real workbench: a `[label](command:…)` in a
// notification is no link and runs nothing when clicked, `$(alert)` draws no icon in the status bar or
// a quick pick, and bidi overrides show as visible escapes in the tree, the diff title and the inline text.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import { openSampleCorpus, until, workspaceDir } from './support';

/** A command only a clicked link would run: its calls are the trace. */
const TRACE_COMMAND = 'reviewCorpusIt.hostileLinkRan';
const LABEL = 'Open the fix';
const LINK = `[${LABEL}](command:${TRACE_COMMAND})`;
const TOAST = '.notifications-toasts .notification-toast';
const ORIGINAL = '.monaco-diff-editor .editor.original';
/** Rendered text without the zero-width spaces that keep it inert, and with plain spaces. */
const shown = (t: string) => t.replace(/\u200b/g, '').replace(/\u00a0/g, ' ');
const RAW_BIDI = /[\u202a-\u202e\u2066-\u2069]/;

describe('host text stays plain in the workbench', function () {
  this.timeout(120_000);
  let a: ReviewCorpusApi;
  let traced = 0;
  let trace: vscode.Disposable;

  before(async () => {
    trace = vscode.commands.registerCommand(TRACE_COMMAND, () => {
      traced++;
    });
    a = await openSampleCorpus('hostile-text-sample');
    await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
  });
  after(() => trace?.dispose());
  beforeEach(() => vscode.commands.executeCommand('notifications.clearAll'));

  /** The toast of that severity shows LINK as text: no `a` element, and clicking its label runs nothing. */
  async function expectInertToast(severity: 'error' | 'warning' | 'info'): Promise<void> {
    const toast = `${TOAST}:has(.notification-list-item-icon.codicon-${severity}):has-text("${LABEL}")`;
    await dom.waitFor(toast, 20000);
    // A long message is cut off until expanded; expanded, all of it can be clicked. The toast is the only one.
    await vscode.commands.executeCommand('notifications.focusToasts');
    await vscode.commands.executeCommand('notification.expand');
    const message = `${toast} .notification-list-item-message`;
    await dom.click(`${message} >> text=${LABEL}`);
    // Absence has no signal to wait on: a round trip through the workbench, then a short bound.
    await vscode.commands.executeCommand('notifications.focusToasts');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(traced, 0, 'clicking the label ran the command of the link');
    assert.equal(await dom.count(`${message} a`), 0, 'the message holds a link element');
    assert.ok(shown(await dom.text(message)).includes(LINK), 'the link shows as the text it is');
    await dom.screenshot(`hostile-${severity}-message`);
  }

  it('a Rebuild error quoting its input: no link', async () => {
    // A record's bad date no longer fails a build (its change is a counted fetch_error), so the error
    // comes from a corpus.json shared with the corpus, as untrusted as the host: it names the field.
    const configFile = a.session.configFile!;
    const original = readFileSync(configFile, 'utf8');
    writeFileSync(configFile, JSON.stringify({ ...JSON.parse(original), [LINK]: true }, null, 2));
    try {
      await vscode.commands.executeCommand('reviewCorpus.rebuild');
      await expectInertToast('error');
    } finally {
      writeFileSync(configFile, original);
    }
  });

  it('verify\'s "Not reproducible" warning quoting an example: no link', async () => {
    const c = a.session.corpus!;
    const first = c.store.get<{ id: number; before_text: string }>(
      'SELECT id, before_text FROM examples WHERE build_id = ? ORDER BY example_key LIMIT 1',
      [c.buildId!],
    )!;
    const hash = String(c.store.scalar('SELECT corpus_hash FROM builds WHERE id = ?', [c.buildId!]));
    // The stored build differs from what its records rebuild to, first at the example holding the link.
    c.store.run('UPDATE examples SET before_text = ? WHERE id = ?', [LINK, first.id]);
    c.store.run("UPDATE builds SET corpus_hash = 'tampered' WHERE id = ?", [c.buildId!]);
    c.store.save();
    try {
      const r = await vscode.commands.executeCommand<{ ok?: boolean; summary: string }>('reviewCorpus.verify');
      assert.equal(r?.ok, false, r?.summary);
      assert.ok(r.summary.includes(LINK), r.summary);
      await expectInertToast('warning');
    } finally {
      c.store.run('UPDATE examples SET before_text = ? WHERE id = ?', [first.before_text, first.id]);
      c.store.run('UPDATE builds SET corpus_hash = ? WHERE id = ?', [hash, c.buildId!]);
      c.store.save();
    }
  });

  it('an information message naming a file: no link', async () => {
    const dir = path.join(workspaceDir(), 'hostile-export');
    mkdirSync(dir, { recursive: true });
    const out = path.join(dir, `${LINK}.jsonl`);
    await vscode.commands.executeCommand('reviewCorpus.export', out);
    assert.ok(existsSync(out), 'exported');
    await expectInertToast('info');
  });

  it('a quick pick of flags whose detail holds $(alert): no icon', async () => {
    const c = a.session.corpus!;
    const key = String(
      c.store.scalar('SELECT example_key FROM examples WHERE build_id = ? AND rule IS NULL ORDER BY id LIMIT 1', [
        c.buildId!,
      ]),
    );
    const id = Number(
      c.store.scalar('SELECT id FROM examples WHERE build_id = ? AND example_key = ?', [c.buildId!, key]),
    );
    // Two open flags, so Confirm Flag asks which; the detail is the comment text that matched.
    for (const reason of ['fenced_after_side', 'target_in_comment']) {
      c.store.run("INSERT OR REPLACE INTO flags(example_key, reason, detail, status) VALUES (?, ?, ?, 'open')", [
        key,
        reason,
        JSON.stringify({
          reason,
          commentId: 0,
          commentSpan: { start: 0, end: 1 },
          detail: `hostile $(alert) detail ${reason}`,
        }),
      ]);
    }
    await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: id });
    await until('the example is active', () => a.active.example?.id === id || undefined);
    const picking = Promise.resolve(vscode.commands.executeCommand('reviewCorpus.confirmFlag'));
    const row = '.quick-input-widget .monaco-list-row:has-text("hostile")';
    await dom.waitFor(row, 10000);
    try {
      assert.equal(
        await dom.count('.quick-input-widget .monaco-list-row .codicon-alert'),
        0,
        'an alert icon drawn in the quick pick',
      );
      assert.ok(
        shown((await dom.query(row)).map((r) => r.text).join('\n')).includes('hostile $(alert) detail'),
        'the detail shows as typed',
      );
    } finally {
      await dom.press('Escape');
      await picking;
    }
  });

  it('the status bar with $(alert) in the corpus name: no icon', async () => {
    const configFile = a.session.corpus!.configFile;
    const config = JSON.parse(readFileSync(configFile, 'utf8')) as { name: string };
    const name = config.name;
    writeFileSync(configFile, JSON.stringify({ ...config, name: `hostile $(alert) ${LINK}` }, null, 2));
    try {
      await vscode.commands.executeCommand('reviewCorpus.openCorpus', configFile);
      const item = '.part.statusbar .statusbar-item:has-text("hostile")';
      await dom.waitFor(item, 10000);
      assert.equal(await dom.count(`${item} .codicon-alert`), 0, 'an alert icon drawn in the status bar');
      assert.equal(await dom.count(`${item} .codicon-database`), 1, 'our own icon still drawn');
      assert.ok(shown(await dom.text(item)).includes('hostile $(alert)'), 'the name shows as typed');
    } finally {
      writeFileSync(configFile, JSON.stringify({ ...config, name }, null, 2));
      await vscode.commands.executeCommand('reviewCorpus.openCorpus', configFile);
    }
  });

  it('a path and a comment with a bidi override and $(alert): visible escapes, no icon, in the tree, the title and the inline text', async () => {
    const c = a.session.corpus!;
    const e = c.store.get<{ id: number; window: string; org: string }>(
      `SELECT e.id, e.window, h.org FROM examples e JOIN changes ch ON ch.id = e.change_id JOIN hosts h ON h.id = ch.host_id
       WHERE e.build_id = ? AND e.rule IS NULL AND e.window IS NOT NULL AND EXISTS (SELECT 1 FROM example_comments x WHERE x.example_id = e.id) ORDER BY e.id LIMIT 1`,
      [c.buildId!],
    )!;
    c.store.run('UPDATE examples SET path = ? WHERE id = ?', ['src/hostile$(alert)\u202eyp.evil.py', e.id]);
    c.store.run(
      'UPDATE comments SET message = ? WHERE id IN (SELECT comment_id FROM example_comments WHERE example_id = ?)',
      ['hostile $(alert) \u202edesrever', e.id],
    );
    c.store.save();
    await vscode.commands.executeCommand('reviewCorpus.refresh'); // re-read: example records are cached per build
    const group = a.tree.provider.findGroup(e.org, e.window, 'kept')!;
    const node = a.tree.provider.getChildren(group).find((n) => n.type === 'item' && n.item.id === e.id)!;
    await a.tree.view.reveal(node, { select: true, focus: true, expand: true });
    const row = '.part.sidebar .monaco-list-row:has-text("hostile")';
    await dom.waitFor(row, 10000);
    const text = (await dom.query(row)).map((r) => `${r.text} ${r.ariaLabel}`).join('\n');
    assert.ok(!RAW_BIDI.test(text), `a raw bidi override in the tree: ${JSON.stringify(text)}`);
    assert.ok(
      shown(text).includes('src/hostile$(alert)\\u202eyp.evil.py'),
      `the path shows escaped: ${JSON.stringify(text)}`,
    );
    assert.ok(
      shown(text).includes('hostile $(alert) \\u202edesrever'),
      `the comment shows escaped: ${JSON.stringify(text)}`,
    );
    assert.equal(await dom.count(`${row} .codicon-alert`), 0, 'an alert icon drawn in the tree');
    await dom.screenshot('hostile-tree');

    await vscode.commands.executeCommand('reviewCorpus.openItem', node);
    await dom.waitFor(`${ORIGINAL} .view-lines`, 20000);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab!;
    assert.ok(
      !RAW_BIDI.test(tab.label) && tab.label.includes('\\u202e'),
      `the diff title: ${JSON.stringify(tab.label)}`,
    );
    const inline = await until('the inline comment text', async () => {
      const after = await dom.pseudoContent(`${ORIGINAL} .view-lines span`, '::after');
      return after.find((t) => t.includes('hostile'));
    });
    assert.ok(
      !RAW_BIDI.test(inline) && inline.includes('\\u202edesrever'),
      `the inline text: ${JSON.stringify(inline)}`,
    );
  });
});
