// The harness extension for code-server: on startup it runs the integration suite and writes the results file.
// It does nothing unless the runner (test/integration/run-code-server.mjs) set the results path in the environment.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import envNames from '../../env-names.json';
import { reloadMarkerOf, type TestRecord } from './results';
import { finishedTests, progressFileOf, runSuite, summarizeTests, writeResults } from './runSuite';

export function activate(context: vscode.ExtensionContext): void {
  const resultsFile = process.env[envNames.results];
  if (!resultsFile) return;
  // A reloaded window starts a new extension host; the suite runs once per run.
  if (existsSync(resultsFile)) return;
  const suiteFile = path.join(context.extensionPath, 'suite', 'integration.js');
  const progressFile = progressFileOf(resultsFile);
  const reloadMarker = reloadMarkerOf(resultsFile);
  let finished: TestRecord[] = [];
  if (existsSync(progressFile)) {
    // The suite had started in an extension host that is gone: go on after a reload a test asked for;
    // anything else (the host crashed or was restarted) fails the run, naming the test it was in.
    if (!existsSync(reloadMarker)) {
      const running = readFileSync(progressFile, 'utf8').trim().split('\n').at(-1) ?? '';
      const why = `the extension host started again mid-suite without a test asking for a reload (last event: ${running})`;
      writeResults(resultsFile, {
        vscodeVersion: vscode.version,
        ...summarizeTests(finishedTests(progressFile), Date.now(), why),
      });
      return;
    }
    rmSync(reloadMarker);
    finished = finishedTests(progressFile);
  }
  // Not awaited: activation must finish so the workbench (and our extension under test) carry on starting.
  void runSuite(suiteFile, progressFile, finished).then((results) =>
    writeResults(resultsFile, { vscodeVersion: vscode.version, ...results }),
  );
}

export function deactivate(): void {}
