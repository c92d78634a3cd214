// The funnel report: a webview panel with a strict CSP and a nonce. The page gets the numbers as a
// message and renders every text with textContent, so nothing from the corpus is parsed as HTML.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { Commands } from '../ids/commands';
import type { CorpusSession } from '../session';
import { funnelReportData } from './funnelData';
import { plainText } from '../plainText';

export interface FunnelRevealRequest { org: string; window: string | null; rule: string }

export function registerFunnelReport(context: vscode.ExtensionContext, session: CorpusSession, reveal: (r: FunnelRevealRequest) => Promise<void>): vscode.Disposable[] {
  let panel: vscode.WebviewPanel | undefined;
  const post = () => {
    const c = session.corpus;
    if (!panel || !c || c.buildId === undefined) return;
    void panel.webview.postMessage({ type: 'data', data: funnelReportData(c.store, c.buildId) });
  };
  const show = () => {
    const c = session.corpus;
    if (!c || c.buildId === undefined) return void vscode.window.showWarningMessage('Review Corpus: open a built corpus first.');
    if (panel) {
      panel.reveal();
      post();
      return panel;
    }
    const dist = vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview');
    panel = vscode.window.createWebviewPanel('reviewCorpus.funnel', `Funnel: ${plainText(c.config.name)}`, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [dist],
      retainContextWhenHidden: false,
    });
    panel.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'review-corpus.svg');
    panel.webview.html = html(panel.webview, dist);
    panel.webview.onDidReceiveMessage((m: { type: string } & Partial<FunnelRevealRequest>) => {
      if (m.type === 'ready') post();
      if (m.type === 'reveal' && typeof m.org === 'string' && typeof m.rule === 'string') void reveal({ org: m.org, window: m.window ?? null, rule: m.rule });
    });
    panel.onDidDispose(() => { panel = undefined; });
    return panel;
  };
  return [
    vscode.commands.registerCommand(Commands.showFunnel, show),
    session.onDidChange(post),
    { dispose: () => panel?.dispose() },
  ];
}

function html(webview: vscode.Webview, dist: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'funnel.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'funnel.css'));
  const csp = `default-src 'none'; img-src ${webview.cspSource} data:; style-src ${webview.cspSource} 'unsafe-inline'; script-src 'nonce-${nonce}' ${webview.cspSource}; font-src ${webview.cspSource};`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>Funnel report</title>
</head>
<body>
<main id="app"><p>Loading the funnel…</p></main>
<script type="module" nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
