// New Corpus…: offers the host presets in a quick pick, writes a corpus.json the strict schema takes
// (the same presets module as `review-corpus init`), and opens it as the corpus.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import { loadCorpusConfig } from '../../../src/core/rules/corpusJson/loadConfig';
import { api, until, workspaceDir } from './support';

describe('New Corpus…', function () {
  this.timeout(60_000);
  let before: string | undefined;
  let dir: string;

  beforeEach(async () => {
    before = (await api()).session.configFile;
    dir = path.join(workspaceDir(), `new-corpus-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
  });

  afterEach(async () => {
    // Later suites find the corpus that was open before.
    if (before) await vscode.commands.executeCommand('reviewCorpus.openCorpus', before);
  });

  it('offers the four host presets in a quick pick', async () => {
    const running = Promise.resolve(vscode.commands.executeCommand('reviewCorpus.newCorpus'));
    const rows = '.quick-input-widget .monaco-list-row';
    try {
      await dom.waitFor(`${rows}:has-text("gerrit.wikimedia.org/r")`, 10000);
      const text = (await dom.query(rows)).map((r) => r.text).join('\n');
      for (const url of [
        'review.opendev.org',
        'codereview.qt-project.org',
        'gerrit.wikimedia.org/r',
        'android-review.googlesource.com',
      ]) {
        assert.ok(text.includes(url), `${url} is offered`);
      }
    } finally {
      await dom.press('Escape');
    }
    assert.equal(await running, undefined, 'Escape writes nothing');
  });

  it("writes the presets' corpus.json, opens it as the corpus and shows it", async () => {
    const a = await api();
    const file = path.join(dir, 'corpus.json');
    const written = await vscode.commands.executeCommand('reviewCorpus.newCorpus', {
      presets: ['wikimedia', 'qt'],
      contact: 'corpus-team@example.org',
      file,
    });
    assert.equal(written, file);
    const config = loadCorpusConfig(file);
    assert.deepEqual(
      config.hosts.map((h) => h.url),
      ['https://gerrit.wikimedia.org/r', 'https://codereview.qt-project.org'],
    );
    assert.equal(config.contact, 'corpus-team@example.org');
    // Cross-window decontamination is written out, off: the choice is visible in the file.
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).decontam?.crossWindow?.enabled, false);
    assert.equal(
      a.session.configFile,
      file,
      'the new config is the open corpus (no corpus file before its first fetch)',
    );
    await until(
      'the new corpus.json in an editor',
      () => vscode.window.activeTextEditor?.document.uri.fsPath === file || undefined,
    );
  });

  it('asks before replacing an existing file, and leaves it alone when not confirmed', async () => {
    const file = path.join(dir, 'corpus.json');
    writeFileSync(file, '{"mine": true}\n');
    const asking = Promise.resolve(
      vscode.commands.executeCommand('reviewCorpus.newCorpus', { presets: ['android'], contact: '', file }),
    );
    const dialog = '.monaco-dialog-box';
    await dom.waitFor(`${dialog}:has-text("already exists")`, 10000);
    await dom.press('Escape');
    assert.equal(await asking, undefined);
    assert.equal(readFileSync(file, 'utf8'), '{"mine": true}\n', 'not replaced without confirmation');
    const replaced = await vscode.commands.executeCommand('reviewCorpus.newCorpus', {
      presets: ['android'],
      contact: '',
      file,
      overwrite: true,
    });
    assert.equal(replaced, file);
    assert.equal(loadCorpusConfig(file).hosts[0].org, 'android');
    assert.ok(existsSync(file) && !readFileSync(file, 'utf8').includes('mine'));
  });
});
