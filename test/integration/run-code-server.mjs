// Runs the integration suite (out/test/integration.js) inside a real VS Code 1.100.3: code-server 4.100.3,
// driven by Debian's Chromium through playwright-core. See /work/shared/notes/real-vscode.md.
//   node scripts/build.mjs && node test/integration/run-code-server.mjs [--grep <pattern>]
// Environment: REVIEW_CORPUS_IT_TIMEOUT_MS (startup and suite, default 600000), REVIEW_CORPUS_IT_KEEP=1 (keep the temp dir),
// REVIEW_CORPUS_IT_SUITE=<bundle.js> (run that suite bundle instead of out/test/integration.js; bench/inspector uses it).
// Exit code 0 only when tests ran and none failed. Results also go to test-results/integration.json.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureCodeServer } from '../../scripts/code-server.mjs';
import { startBridge } from './bridge-server.mjs';
import { buildHarness } from './harness/build.mjs';
import { killTreesNow } from './processes.mjs';
import {
  elapsed,
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
  withSuiteBundle,
} from './run-common.mjs';
import { installVsixes, packageVsix } from './vsix.mjs';
import { freePort, WorkbenchSession } from './workbench-session.mjs';

const TIMEOUT_MS = Number(process.env.REVIEW_CORPUS_IT_TIMEOUT_MS || 600000);

async function waitForResults(session, follower, resultsFile, deadline) {
  while (!existsSync(resultsFile)) {
    follower.poll();
    const where = follower.describeRunning();
    if (session.codeServerExit) throw new Error(`${session.codeServerExit} before the suite finished${where}`);
    if (session.pageCrashed) throw new Error(`the workbench page crashed before the suite finished${where}`);
    if (Date.now() > deadline) {
      throw new Error(
        `no results within ${TIMEOUT_MS} ms (REVIEW_CORPUS_IT_TIMEOUT_MS)${where || '; the harness may never have activated'}`,
      );
    }
    await pause(200);
  }
}

function printTail(file, lines = 40) {
  if (!existsSync(file)) return;
  console.error(`--- last lines of ${file} ---`);
  console.error(readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n'));
}

async function main() {
  const started = Date.now();
  startRun(['dist/extension.js', 'out/test/integration.js']);
  const codeServer = ensureCodeServer();
  const dirs = prepareTempDirs();
  Object.assign(dirs, {
    // Our own config file, so code-server neither reads nor writes ~/.config/code-server,
    // and its own data (heartbeat, logs) goes here instead of ~/.local/share/code-server.
    configFile: path.join(dirs.tmp, 'code-server.yaml'),
    dataHome: path.join(dirs.tmp, 'xdg-data'),
    logFile: path.join(dirs.tmp, 'code-server.log'),
  });
  writeFileSync(dirs.configFile, 'auth: none\ncert: false\n');
  const session = new WorkbenchSession();
  let bridge = null;
  let failure = null;
  const follower = new ProgressFollower(dirs.resultsFile);

  const cleanup = async () => {
    bridge?.stop();
    await session.stop();
  };
  // Ctrl+C or a CI timeout: stop what we started before leaving. 'exit' is the last resort (synchronous).
  const onSignal = (sig, code) =>
    process.once(sig, () => {
      console.error(`\n${sig}: stopping code-server and the browser`);
      cleanup().finally(() => {
        if (process.env.REVIEW_CORPUS_IT_KEEP !== '1') rmSync(dirs.tmp, { recursive: true, force: true });
        process.exit(code);
      });
    });
  onSignal('SIGINT', 130);
  onSignal('SIGTERM', 143);
  process.once('exit', () => killTreesNow(session.pids));

  try {
    const harnessDir = withSuiteBundle(await buildHarness(), process.env.REVIEW_CORPUS_IT_SUITE, dirs.tmp);
    const vsixes = [
      packageVsix(ROOT, path.join(dirs.tmp, 'review-corpus.vsix')),
      packageVsix(harnessDir, path.join(dirs.tmp, 'harness.vsix')),
    ];
    installVsixes(codeServer, dirs, vsixes, { XDG_DATA_HOME: dirs.dataHome });
    console.log(`packaged and installed ${vsixes.length} extensions (${elapsed(started)})`);

    const deadline = Date.now() + TIMEOUT_MS;
    const port = await freePort();
    const grep = grepArg(process.argv.slice(2));
    const env = {
      XDG_DATA_HOME: dirs.dataHome,
      [envNames.launcher]: 'code-server',
      [envNames.results]: dirs.resultsFile,
      [envNames.bridge]: dirs.bridge,
      ...(grep ? { [envNames.grep]: grep } : {}),
    };
    await session.startCodeServer({ bin: codeServer, port, env, deadline, ...dirs });
    bridge = startBridge({
      dir: dirs.bridge,
      screenshotDir: RESULTS_DIR,
      getPage: () => session.page ?? Promise.reject(new Error('the workbench page is not open')),
    });
    await session.openWorkbench({ port, folder: dirs.workspace, deadline });
    console.log(`workbench open on 127.0.0.1:${port} (${elapsed(started)}); running the suite in the extension host`);

    await waitForResults(session, follower, dirs.resultsFile, deadline);
    failure = reportResults(dirs.resultsFile, 'code-server', follower);
  } catch (err) {
    failure = err.message;
    // What ran before a timeout or crash; the log only when the suite never got going.
    if (follower.printer.printed > 0) follower.printer.summary();
    else if (!follower.running) printTail(dirs.logFile);
    if (session.browserLog.length) console.error(`--- browser errors ---\n${session.browserLog.slice(-20).join('\n')}`);
  }

  // Taken after a failure too: it is the first thing to look at.
  await session
    .screenshot(path.join(RESULTS_DIR, 'workbench.png'))
    .catch((e) => console.error(`no screenshot: ${e.message}`));
  await cleanup();
  finishRun(dirs, failure, started);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(`integration: ${err.message}`);
    process.exitCode = 1;
  });
}
