// The extension installs from its .vsix, activates, and puts its view container and tree view in the workbench.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import envNames from '../env-names.json';
import { EXTENSION_ID } from './support';

const ACTIVITY_ITEM = '.part.activitybar .action-item a.action-label[aria-label^="Review Corpus"]';
const SELECTED_ACTIVITY_ITEM = '.part.activitybar .action-item.checked a.action-label[aria-label^="Review Corpus"]';
const SIDEBAR_TITLE = '.part.sidebar .composite.title h2';
const TREE_PANE = '.part.sidebar .pane-header[aria-label="Corpus Section"]';

function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this VS Code`);
  return ext;
}

describe('activation', () => {
  it('installs the extension from its vsix and activates it', async () => {
    const ext = extension();
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('ships the built bundles and none of the sources', function () {
    // Under run-desktop.mjs the extension runs from the source tree (extensionDevelopmentPath), not from a vsix.
    if (process.env[envNames.launcher] === 'desktop') this.skip();
    const root = extension().extensionPath;
    const missing = [
      'dist/extension.js',
      'dist/worker.js',
      'dist/sql-wasm.wasm',
      'dist/hunk-facts-worker.js',
      'LICENSE.txt',
      'media/icon.png',
    ].filter((f) => !existsSync(path.join(root, f)));
    assert.deepEqual(missing, [], 'files the extension needs at run time are missing from the vsix');
    // The extension forks dist/worker.js; the CLI bundle is npm's `bin`, not the extension's.
    const leaked = [
      'src',
      'test',
      'out',
      'node_modules',
      'scripts',
      '.vscode-test',
      'tsconfig.json',
      'dist/cli.js',
      'dist/extension.js.map',
    ].filter((f) => existsSync(path.join(root, f)));
    assert.deepEqual(leaked, [], 'development files leaked into the vsix (see .vscodeignore)');
  });

  it('shows a "Review Corpus" icon in the activity bar', async () => {
    await dom.waitFor(ACTIVITY_ITEM, 20000);
    const items = await dom.query(ACTIVITY_ITEM);
    assert.equal(items.length, 1, 'expected exactly one Review Corpus activity-bar item');
    assert.equal(items[0].ariaLabel?.split(' (')[0], 'Review Corpus');
  });

  it('opens the Corpus tree view from the activity bar container', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
    // The item is marked checked once its container fills the sidebar.
    await dom.waitFor(SELECTED_ACTIVITY_ITEM, 20000);
    // One view in the container: the workbench merges the titles into "Container: View".
    assert.equal((await dom.text(SIDEBAR_TITLE)).toLowerCase(), 'review corpus: corpus');
    assert.equal(await dom.count(TREE_PANE), 1, 'the sidebar has no "Corpus" view pane');
    await dom.screenshot('activation-corpus-view');
  });
});
