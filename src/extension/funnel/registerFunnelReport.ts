// The funnel report: a webview panel with a strict CSP and a nonce. The page gets the numbers as a
// message and renders every text with textContent, so nothing from the corpus is parsed as HTML. The
// panel follows the open corpus: its title and content change when another corpus is opened.
import * as vscode from 'vscode';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Commands } from '../ids/commands';
import type { CorpusSession } from '../session';
import { funnelReportData, ratingsStamp, rewritesStamp } from './funnelData';
import { Superseded, WorkerReport } from './workerReport';
import type { DiversityReport } from '../../core/review/diversity/report';
import { raterAgreementInput, type RaterAgreementFigures } from '../../core/review/quality/agreementFigures';
import { plainText } from '../plainText';
import { registerCommand, showError } from '../registerCommand';
import { saveAtomically } from '../../core/ground/store/atomicSave';

export interface FunnelRevealRequest {
  org: string;
  window: string | null;
  rule: string;
}

/** What the page may post; anything else is ignored. */
type PageMessage =
  | { type: 'ready' }
  | { type: 'rendered' }
  | ({ type: 'reveal' } & Partial<FunnelRevealRequest>)
  | { type: 'saveSvg'; svg?: unknown; requestId?: unknown };

/** A saved picture is a few hundred kilobytes; far more is not the picture. */
const MAX_SVG_BYTES = 16 << 20;
const PAGE_TIMEOUT_MS = 15000;

export function registerFunnelReport(
  context: vscode.ExtensionContext,
  session: CorpusSession,
  reveal: (r: FunnelRevealRequest) => Promise<void>,
): vscode.Disposable[] {
  let panel: vscode.WebviewPanel | undefined;
  const diversity = new WorkerReport<DiversityReport>(context.extensionPath, session.log, 'diversity');
  const agreement = new WorkerReport<RaterAgreementFigures>(context.extensionPath, session.log, 'agreement');
  /** Whether the page has drawn the last data posted to it; waiters run when it has. */
  let rendered = false;
  let renderWaiters: (() => void)[] = [];
  const serializeRequests = new Map<number, (svg: string | null) => void>();
  let nextRequest = 1;

  const post = () => {
    if (!panel) return;
    const c = session.corpus;
    rendered = false;
    panel.title = c ? `Funnel: ${plainText(c.config.name)}` : 'Funnel: no corpus';
    if (!c) void panel.webview.postMessage({ type: 'empty', message: 'No corpus is open.' });
    else if (c.buildId === undefined)
      void panel.webview.postMessage({ type: 'empty', message: `${c.config.name} is not built yet: run Rebuild.` });
    else {
      void panel.webview.postMessage({
        type: 'data',
        data: funnelReportData(c.store, c.buildId, c.config.name, c.config),
      });
      // The diversity and the agreement among all raters follow from worker processes; the page shows
      // each when it comes, for the build it is of.
      const buildId = c.buildId;
      const follow = <T>(part: string, report: Promise<T>) =>
        report.then(
          (data) =>
            panel && session.corpus === c && void panel.webview.postMessage({ type: part, build: buildId, data }),
          (e: Error) => {
            if (e instanceof Superseded) return; // the newer request's answer follows
            session.log.warn(`${part}: ${e.message}`);
            if (panel && session.corpus === c)
              void panel.webview.postMessage({ type: part, build: buildId, error: plainText(e.message) });
          },
        );
      follow(
        'diversity',
        diversity.of(JSON.stringify([c.dbFile, buildId, rewritesStamp(c.store)]), () => ({
          type: 'diversity',
          dbFile: c.dbFile,
          buildId,
        })),
      );
      follow(
        'agreement',
        agreement.of(JSON.stringify([c.dbFile, buildId, ratingsStamp(c.store)]), () => ({
          type: 'agreement',
          input: raterAgreementInput(c.store, buildId),
        })),
      );
    }
  };

  const show = () => {
    const c = session.corpus;
    if (!c || c.buildId === undefined)
      return void vscode.window.showWarningMessage('Review Corpus: open a built corpus first.');
    if (panel) {
      panel.reveal();
      post();
      return panel;
    }
    const dist = vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview');
    const created = vscode.window.createWebviewPanel(
      'reviewCorpus.funnel',
      `Funnel: ${plainText(c.config.name)}`,
      vscode.ViewColumn.Active,
      {
        enableScripts: true,
        localResourceRoots: [dist],
        retainContextWhenHidden: false,
      },
    );
    panel = created;
    rendered = false;
    created.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'review-corpus.svg');
    created.webview.html = html(created.webview, dist);
    created.webview.onDidReceiveMessage((m: PageMessage) => {
      if (m.type === 'ready') post();
      if (m.type === 'rendered') {
        rendered = true;
        const waiters = renderWaiters;
        renderWaiters = [];
        waiters.forEach((w) => w());
      }
      if (m.type === 'reveal' && typeof m.org === 'string' && typeof m.rule === 'string')
        void reveal({ org: m.org, window: typeof m.window === 'string' ? m.window : null, rule: m.rule });
      if (m.type === 'saveSvg') {
        const svg = typeof m.svg === 'string' ? m.svg : null;
        const answer = typeof m.requestId === 'number' ? serializeRequests.get(m.requestId) : undefined;
        if (answer) answer(svg);
        else if (svg !== null) void saveWithDialog(svg);
      }
    });
    created.onDidDispose(() => {
      panel = undefined;
      for (const answer of serializeRequests.values()) answer(null);
    });
    return created;
  };

  /** The picture as the page serializes it, once the page has drawn the current build. */
  const pictureSvg = async (): Promise<string> => {
    const p = show();
    if (!p) throw new Error('open a built corpus first');
    if (!rendered)
      await within(
        new Promise<void>((resolve) => renderWaiters.push(resolve)),
        'the funnel report did not finish drawing',
      );
    const id = nextRequest++;
    try {
      const svg = await within(
        new Promise<string | null>((resolve) => {
          serializeRequests.set(id, resolve);
          void p.webview.postMessage({ type: 'serialize', requestId: id });
        }),
        'the funnel report did not send its picture',
      );
      if (svg === null) throw new Error('the funnel report has no picture to save');
      return svg;
    } finally {
      serializeRequests.delete(id);
    }
  };

  const defaultTarget = () => {
    const c = session.corpus;
    return c ? vscode.Uri.file(path.join(path.dirname(c.configFile), `funnel-build-${c.buildId ?? 0}.svg`)) : undefined;
  };

  /** Writes the SVG whole or not at all; the caller names the file, or the save dialog does. */
  const write = (target: string, svg: string): string => {
    if (!svg.startsWith('<?xml') || !svg.includes('<svg'))
      throw new Error('the funnel report sent something that is not an SVG picture');
    const bytes = Buffer.from(svg, 'utf8');
    if (bytes.length > MAX_SVG_BYTES) throw new Error(`the funnel picture is larger than ${MAX_SVG_BYTES >> 20} MB`);
    saveAtomically(target, bytes);
    session.log.info(`saved the funnel picture to ${target}`);
    return target;
  };

  const saveWithDialog = async (svg: string, target?: string): Promise<string | undefined> => {
    try {
      const out =
        target ??
        (
          await vscode.window.showSaveDialog({
            defaultUri: defaultTarget(),
            filters: { 'SVG image': ['svg'] },
            title: 'Save the funnel picture as SVG',
          })
        )?.fsPath;
      if (!out) return undefined;
      write(out, svg);
      void vscode.window.showInformationMessage(plainText(`Review Corpus: saved the funnel picture to ${out}`));
      return out;
    } catch (e) {
      showError(session.log, `could not save the funnel picture: ${(e as Error).message}`); // also from the page's own button
      return undefined;
    }
  };

  return [
    registerCommand(session.log, Commands.showFunnel, show),
    /** `target` (a path or a file URI) skips the save dialog, as Export's does. Returns the path written. */
    registerCommand(session.log, Commands.saveFunnelSvg, async (target?: string | vscode.Uri) => {
      let svg: string;
      try {
        svg = await pictureSvg();
      } catch (e) {
        throw new Error(`could not save the funnel picture: ${(e as Error).message}`);
      }
      return saveWithDialog(svg, typeof target === 'string' ? target : target?.fsPath);
    }),
    // A hidden page is not kept (retainContextWhenHidden is off), so a post would be dropped and its
    // worker reports wasted; the page asks again ('ready') when it is shown.
    session.onDidChange(() => panel?.visible && post()),
    { dispose: () => panel?.dispose() },
    diversity,
    agreement,
  ];
}

function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), PAGE_TIMEOUT_MS))),
  ]).finally(() => clearTimeout(timer));
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
<main id="app" data-page="funnel"><p>Loading the funnel…</p></main>
<script type="module" nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
