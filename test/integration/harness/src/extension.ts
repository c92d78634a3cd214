// The harness extension for code-server: on startup it runs the integration suite and writes the results file.
// It does nothing unless the runner (test/integration/run-code-server.mjs) set the results path in the environment.
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import envNames from '../../env-names.json';
import { progressFileOf, runSuite, writeResults } from './runSuite';

export function activate(context: vscode.ExtensionContext): void {
  const resultsFile = process.env[envNames.results];
  if (!resultsFile) return;
  // A reloaded window starts a new extension host; the suite runs once per run.
  if (existsSync(resultsFile)) return;
  const suiteFile = path.join(context.extensionPath, 'suite', 'integration.js');
  // Not awaited: activation must finish so the workbench (and our extension under test) carry on starting.
  void runSuite(suiteFile, progressFileOf(resultsFile)).then((results) =>
    writeResults(resultsFile, { vscodeVersion: vscode.version, ...results }),
  );
}

export function deactivate(): void {}
