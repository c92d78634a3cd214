// Runs the same integration suite under desktop VS Code 1.100.3 with @vscode/test-electron, for machines that
// can download VS Code (these cannot: use run-code-server.mjs here).
//   node scripts/build.mjs && node test/integration/run-desktop.mjs [--grep <pattern>]
// Our extension loads from the repo root (extensionDevelopmentPath); the harness's runner.js is the
// extensionTestsPath. DOM checks reach the workbench through Chromium's DevTools port with playwright-core.
import { runTests } from '@vscode/test-electron';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startBridge } from './bridge-server.mjs';
import { buildHarness, HARNESS_RUNNER } from './harness/build.mjs';
import {
  envNames,
  finishRun,
  grepArg,
  pause,
  prepareTempDirs,
  ProgressFollower,
  reportResults,
  RESULTS_DIR,
  ROOT,
  startRun,
} from './run-common.mjs';
import { freePort } from './workbench-session.mjs';

const VSCODE_VERSION = '1.100.3';
const CONNECT_TIMEOUT_MS = 60000;

/** Connects to the window's DevTools port (retrying while VS Code starts) and finds the workbench page. */
export function workbenchPageGetter(cdpPort) {
  let browser = null;
  let pagePromise = null;
  async function connect() {
    const deadline = Date.now() + CONNECT_TIMEOUT_MS;
    for (;;) {
      try {
        browser ??= await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`);
        const page = browser
          .contexts()
          .flatMap((c) => c.pages())
          .find((p) => p.url().includes('workbench'));
        if (page) {
          await page.waitForSelector('.monaco-workbench', { timeout: Math.max(1000, deadline - Date.now()) });
          return page;
        }
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`no VS Code workbench on DevTools port ${cdpPort}: ${err.message}`);
      }
      if (Date.now() > deadline) throw new Error(`no VS Code workbench page on DevTools port ${cdpPort}`);
      await pause(250);
    }
  }
  return {
    getPage: () =>
      (pagePromise ??= connect().catch((err) => {
        pagePromise = null;
        throw err;
      })),
    close: () => browser?.close().catch(() => {}),
  };
}

async function main() {
  const started = Date.now();
  startRun(['dist/extension.js', 'out/test/integration.js']);
  const dirs = prepareTempDirs();
  await buildHarness();
  const cdpPort = await freePort();
  const pages = workbenchPageGetter(cdpPort);
  const bridge = startBridge({ dir: dirs.bridge, screenshotDir: RESULTS_DIR, getPage: pages.getPage });
  const grep = grepArg(process.argv.slice(2));
  const follower = new ProgressFollower(dirs.resultsFile);
  const following = setInterval(() => follower.poll(), 200);
  let failure = null;
  try {
    // runTests stops VS Code itself on Ctrl+C and resolves or rejects when it exits.
    await runTests({
      version: VSCODE_VERSION,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: HARNESS_RUNNER,
      extensionTestsEnv: {
        [envNames.launcher]: 'desktop',
        [envNames.results]: dirs.resultsFile,
        [envNames.bridge]: dirs.bridge,
        ...(grep ? { [envNames.grep]: grep } : {}),
      },
      launchArgs: [
        dirs.workspace,
        `--user-data-dir=${dirs.userDataDir}`,
        `--extensions-dir=${dirs.extensionsDir}`,
        '--disable-extensions',
        `--remote-debugging-port=${cdpPort}`,
      ],
    }).catch((err) => {
      // A failing test also ends here (VS Code exits 1); the results file says which.
      if (!existsSync(dirs.resultsFile)) throw err;
    });
    clearInterval(following);
    if (!existsSync(dirs.resultsFile))
      throw new Error(`VS Code exited without writing results${follower.describeRunning()}`);
    failure = reportResults(dirs.resultsFile, 'desktop', follower);
  } catch (err) {
    failure = err.message;
  } finally {
    clearInterval(following);
    bridge.stop();
    await pages.close();
  }
  finishRun(dirs, failure, started);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(`integration: ${err.message}`);
    process.exitCode = 1;
  });
}
