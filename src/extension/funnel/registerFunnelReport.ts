// The funnel report: a webview panel with a strict CSP and a nonce. The page gets the numbers as a
// message and renders every text with textContent, so nothing from the corpus is parsed as HTML. The
// panel follows the open corpus: its title and content change when another corpus is opened.
import * as vscode from 'vscode';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Commands } from '../ids/commands';
import type { CorpusSession, OpenCorpus } from '../session';
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
  const funnel = new FunnelPanel(context, session, reveal);
  return [
    registerCommand(session.log, Commands.showFunnel, () => funnel.createOrShow()),
    /** `target` (a path or a file URI) skips the save dialog, as Export's does. Returns the path written. */
    registerCommand(session.log, Commands.saveFunnelSvg, (target?: string | vscode.Uri) => funnel.saveSvg(target)),
    // A hidden page is not kept (retainContextWhenHidden is off), so a post would be dropped and its
    // worker reports wasted; the page asks again ('ready') when it is shown.
    session.onDidChange(() => funnel.visible && funnel.post()),
    funnel,
  ];
}

/**
 * The funnel report's one panel, after VS Code's webview sample (CatCodingPanel): `createOrShow`
 * makes the panel or brings it forward, each message the page posts has its handler, and `dispose`
 * closes the panel and stops the worker reports.
 */
class FunnelPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly diversity: WorkerReport<DiversityReport>;
  private readonly agreement: WorkerReport<RaterAgreementFigures>;
  /** Whether the page has drawn the last data posted to it; waiters run when it has. */
  private rendered = false;
  private renderWaiters: (() => void)[] = [];
  private readonly serializeRequests = new Map<number, (svg: string | null) => void>();
  private nextRequest = 1;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly session: CorpusSession,
    private readonly reveal: (r: FunnelRevealRequest) => Promise<void>,
  ) {
    this.diversity = new WorkerReport<DiversityReport>(context.extensionPath, session.log, 'diversity');
    this.agreement = new WorkerReport<RaterAgreementFigures>(context.extensionPath, session.log, 'agreement');
  }

  get visible(): boolean {
    return this.panel?.visible ?? false;
  }

  createOrShow(): vscode.WebviewPanel | undefined {
    const c = this.session.corpus;
    if (!c || c.buildId === undefined)
      return void vscode.window.showWarningMessage('Review Corpus: open a built corpus first.');
    if (this.panel) {
      this.panel.reveal();
      this.post();
      return this.panel;
    }
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview');
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
    this.panel = created;
    this.rendered = false;
    created.iconPath = vscode.Uri.joinPath(this.context.extensionUri, 'media', 'review-corpus.svg');
    created.webview.html = html(created.webview, dist);
    created.webview.onDidReceiveMessage((m: PageMessage) => this.onMessage(m));
    created.onDidDispose(() => {
      this.panel = undefined;
      for (const answer of this.serializeRequests.values()) answer(null);
    });
    return created;
  }

  /** Posts the open corpus's funnel (or why there is none), then its worker reports as they come. */
  post(): void {
    const panel = this.panel;
    if (!panel) return;
    const c = this.session.corpus;
    this.rendered = false;
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
      this.follow(
        c,
        'diversity',
        this.diversity.of(JSON.stringify([c.dbFile, buildId, rewritesStamp(c.store)]), () => ({
          type: 'diversity',
          dbFile: c.dbFile,
          buildId,
        })),
      );
      this.follow(
        c,
        'agreement',
        this.agreement.of(JSON.stringify([c.dbFile, buildId, ratingsStamp(c.store)]), () => ({
          type: 'agreement',
          input: raterAgreementInput(c.store, buildId),
        })),
      );
    }
  }

  /** Posts a worker report to the page when it comes, if the page still shows the corpus it is of. */
  private follow<T>(c: OpenCorpus, part: string, report: Promise<T>): void {
    const buildId = c.buildId;
    void report.then(
      (data) =>
        this.panel &&
        this.session.corpus === c &&
        void this.panel.webview.postMessage({ type: part, build: buildId, data }),
      (e: Error) => {
        if (e instanceof Superseded) return; // the newer request's answer follows
        this.session.log.warn(`${part}: ${e.message}`);
        if (this.panel && this.session.corpus === c)
          void this.panel.webview.postMessage({ type: part, build: buildId, error: plainText(e.message) });
      },
    );
  }

  private onMessage(m: PageMessage): void {
    if (m.type === 'ready') this.post();
    if (m.type === 'rendered') this.onRendered();
    if (m.type === 'reveal' && typeof m.org === 'string' && typeof m.rule === 'string')
      void this.reveal({ org: m.org, window: typeof m.window === 'string' ? m.window : null, rule: m.rule });
    if (m.type === 'saveSvg') this.onSaveSvg(m);
  }

  private onRendered(): void {
    this.rendered = true;
    const waiters = this.renderWaiters;
    this.renderWaiters = [];
    waiters.forEach((w) => w());
  }

  /** The page's picture: the answer to a serialize request, or its own Save button's. */
  private onSaveSvg(m: Extract<PageMessage, { type: 'saveSvg' }>): void {
    const svg = typeof m.svg === 'string' ? m.svg : null;
    const answer = typeof m.requestId === 'number' ? this.serializeRequests.get(m.requestId) : undefined;
    if (answer) answer(svg);
    else if (svg !== null) void this.saveWithDialog(svg);
  }

  /** The Save Funnel SVG command. Returns the path written. */
  async saveSvg(target?: string | vscode.Uri): Promise<string | undefined> {
    let svg: string;
    try {
      svg = await this.pictureSvg();
    } catch (e) {
      throw new Error(`could not save the funnel picture: ${(e as Error).message}`);
    }
    return this.saveWithDialog(svg, typeof target === 'string' ? target : target?.fsPath);
  }

  /** The picture as the page serializes it, once the page has drawn the current build. */
  private async pictureSvg(): Promise<string> {
    const p = this.createOrShow();
    if (!p) throw new Error('open a built corpus first');
    if (!this.rendered)
      await within(
        new Promise<void>((resolve) => this.renderWaiters.push(resolve)),
        'the funnel report did not finish drawing',
      );
    const id = this.nextRequest++;
    try {
      const svg = await within(
        new Promise<string | null>((resolve) => {
          this.serializeRequests.set(id, resolve);
          void p.webview.postMessage({ type: 'serialize', requestId: id });
        }),
        'the funnel report did not send its picture',
      );
      if (svg === null) throw new Error('the funnel report has no picture to save');
      return svg;
    } finally {
      this.serializeRequests.delete(id);
    }
  }

  private defaultTarget(): vscode.Uri | undefined {
    const c = this.session.corpus;
    return c ? vscode.Uri.file(path.join(path.dirname(c.configFile), `funnel-build-${c.buildId ?? 0}.svg`)) : undefined;
  }

  /** Writes the SVG whole or not at all; the caller names the file, or the save dialog does. */
  private write(target: string, svg: string): string {
    if (!svg.startsWith('<?xml') || !svg.includes('<svg'))
      throw new Error('the funnel report sent something that is not an SVG picture');
    const bytes = Buffer.from(svg, 'utf8');
    if (bytes.length > MAX_SVG_BYTES) throw new Error(`the funnel picture is larger than ${MAX_SVG_BYTES >> 20} MB`);
    saveAtomically(target, bytes);
    this.session.log.info(`saved the funnel picture to ${target}`);
    return target;
  }

  private async saveWithDialog(svg: string, target?: string): Promise<string | undefined> {
    try {
      const out =
        target ??
        (
          await vscode.window.showSaveDialog({
            defaultUri: this.defaultTarget(),
            filters: { 'SVG image': ['svg'] },
            title: 'Save the funnel picture as SVG',
          })
        )?.fsPath;
      if (!out) return undefined;
      this.write(out, svg);
      void vscode.window.showInformationMessage(plainText(`Review Corpus: saved the funnel picture to ${out}`));
      return out;
    } catch (e) {
      showError(this.session.log, `could not save the funnel picture: ${(e as Error).message}`); // also from the page's own button
      return undefined;
    }
  }

  dispose(): void {
    this.panel?.dispose();
    this.diversity.dispose();
    this.agreement.dispose();
  }
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
