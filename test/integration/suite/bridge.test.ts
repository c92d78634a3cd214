// The DOM bridge itself (test/integration/bridge.ts ↔ bridge-server.mjs): later suites rely on it to see the workbench.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { dom } from '../bridge';

const QUICK_INPUT = '.quick-input-widget';

describe('DOM bridge', () => {
  it('presses keys on the workbench and waits for what they open', async () => {
    await dom.press('F1');
    await dom.waitFor(`${QUICK_INPUT} input`, 10000);
    await dom.press('Escape');
    const stillOpen = (await dom.query(QUICK_INPUT)).filter((e) => e.visible);
    assert.deepEqual(stillOpen, [], 'Escape did not close the command palette');
  });

  it('reads text inside a webview frame', async () => {
    const marker = `bridge-check-${Date.now()}`;
    const panel = vscode.window.createWebviewPanel(
      'reviewCorpus.bridgeCheck',
      'Bridge check',
      vscode.ViewColumn.One,
      {},
    );
    try {
      panel.webview.html =
        `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none';"></head>` +
        `<body><p id="marker">${marker}</p></body></html>`;
      assert.equal(await dom.frameText('#marker', 15000), marker);
    } finally {
      panel.dispose();
    }
  });

  it('reports a selector that matches nothing as an error naming it', async () => {
    await assert.rejects(dom.text('#no-such-element'), /dom\.text: no element matches #no-such-element/);
    await assert.rejects(
      dom.waitFor('#no-such-element', 200),
      /no visible element matches #no-such-element after 200 ms/,
    );
  });

  it('keeps screenshot names inside test-results/', async () => {
    await assert.rejects(dom.screenshot('../escape'), /may hold only letters/);
  });
});
