// Starts code-server on a free loopback port and opens its workbench in Debian's Chromium with playwright-core.
// Every process started here is recorded by pid so stop() (or the runner's signal handlers) can end it.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import { stopTree } from './processes.mjs';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class WorkbenchSession {
  /** pids of processes we started; the runner's exit handler kills whatever is left in them. */
  pids = new Set();
  codeServer = null;
  codeServerExit = null;
  browserServer = null;
  browser = null;
  page = null;
  browserLog = [];
  pageCrashed = false;

  /** Starts code-server and resolves once /healthz answers; rejects if it exits or the deadline passes. */
  async startCodeServer({ bin, port, userDataDir, extensionsDir, configFile, env, logFile, deadline }) {
    const log = createWriteStream(logFile);
    this.codeServer = spawn(
      bin,
      [
        '--config',
        configFile,
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--user-data-dir',
        userDataDir,
        '--extensions-dir',
        extensionsDir,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
      ],
      {
        env: { ...process.env, ...env },
        // Its own process group: Ctrl+C reaches only the runner, which then stops code-server and its children in order.
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.pids.add(this.codeServer.pid);
    this.codeServer.stdout.pipe(log);
    this.codeServer.stderr.pipe(log);
    this.codeServer.on('exit', (code, signal) => {
      this.codeServerExit = `code-server exited (${code ?? signal})`;
    });
    const url = `http://127.0.0.1:${port}/healthz`;
    for (;;) {
      if (this.codeServerExit) throw new Error(`${this.codeServerExit} before it was ready; see ${logFile}`);
      if (Date.now() > deadline) throw new Error(`code-server did not answer ${url} in time; see ${logFile}`);
      const ok = await fetch(url).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await pause(200);
    }
  }

  /** Opens the workbench on `folder` and waits for it to render. */
  async openWorkbench({ port, folder, deadline }) {
    this.browserServer = await chromium.launchServer({
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    this.pids.add(this.browserServer.process().pid);
    this.browser = await chromium.connect(this.browserServer.wsEndpoint());
    this.page = await this.browser.newPage({ viewport: { width: 1400, height: 900 } });
    this.page.on('crash', () => {
      this.pageCrashed = true;
    });
    this.page.on('pageerror', (err) => this.browserLog.push(`pageerror: ${err.message}`));
    this.page.on('console', (msg) => {
      if (msg.type() === 'error') this.browserLog.push(`console: ${msg.text()}`);
    });
    const url = new URL(`http://127.0.0.1:${port}/`);
    url.searchParams.set('folder', folder);
    try {
      await this.page.goto(url.href, { timeout: Math.max(1000, deadline - Date.now()) });
      await this.page.waitForSelector('.monaco-workbench', { timeout: Math.max(1000, deadline - Date.now()) });
    } catch (err) {
      if (err?.name === 'TimeoutError')
        throw new Error(`the workbench (.monaco-workbench) did not render at ${url.href} before the deadline`);
      throw err;
    }
  }

  async screenshot(file) {
    if (this.page) await this.page.screenshot({ path: file });
  }

  /** Closes the browser, then stops code-server and everything under it, by pid. */
  async stop() {
    if (this.browser) await Promise.race([this.browser.close().catch(() => {}), pause(5000)]);
    if (this.browserServer) {
      const pid = this.browserServer.process().pid;
      await Promise.race([this.browserServer.close().catch(() => {}), pause(5000)]);
      await stopTree(pid, { group: true });
      this.pids.delete(pid);
    }
    if (this.codeServer) {
      await stopTree(this.codeServer.pid, { group: true });
      this.pids.delete(this.codeServer.pid);
    }
    this.browser = this.browserServer = this.codeServer = this.page = null;
  }
}
