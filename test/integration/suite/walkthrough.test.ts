// The getting-started walkthrough, as the installed extension contributes it: VS Code opens it by id, shows
// every step, and renders a step's Markdown page from the VSIX.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { Walkthroughs } from '../../../src/extension/ids/walkthroughs';
import { dom } from '../bridge';
import { EXTENSION_ID } from './support';

const STEP_TITLE = '.gettingStartedSlideDetails .getting-started-step h3.step-title';

describe('walkthrough', () => {
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('opens "Get Started with Review Corpus" with its steps and the first step\'s page', async () => {
    const installed = JSON.parse(
      readFileSync(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'package.json'), 'utf8'),
    );
    const contributed = installed.contributes.walkthroughs?.find(
      (w: { id: string }) => w.id === Walkthroughs.gettingStarted,
    );
    assert.ok(contributed, 'the installed package.json contributes the walkthrough');
    await vscode.commands.executeCommand(
      'workbench.action.openWalkthrough',
      `${EXTENSION_ID}#${Walkthroughs.gettingStarted}`,
      false,
    );
    await dom.waitFor(STEP_TITLE, 20000);
    const titles = (await dom.query(STEP_TITLE)).map((e) => e.text.trim());
    assert.deepEqual(
      titles,
      contributed.steps.map((s: { title: string }) => s.title),
    );
    // The first step is selected; its Markdown (media/walkthrough/open-sample.md) renders in a webview.
    assert.equal((await dom.frameText('h1:has-text("The sample corpus")', 20000)).trim(), 'The sample corpus');
    await dom.screenshot('walkthrough');
  });
});
