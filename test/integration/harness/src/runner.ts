// The entry point @vscode/test-electron loads as --extensionTestsPath: it must export run() and reject on failure.
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../../bridge';
import envNames from '../../env-names.json';
import { progressFileOf, runSuite, writeResults } from './runSuite';

export async function run(): Promise<void> {
  const resultsFile = process.env[envNames.results];
  const results = await runSuite(
    path.join(__dirname, 'suite', 'integration.js'),
    resultsFile && progressFileOf(resultsFile),
  );
  if (resultsFile) writeResults(resultsFile, { vscodeVersion: vscode.version, ...results });
  // VS Code closes as soon as run() settles, so the final screenshot is taken from here (through the bridge).
  if (process.env[envNames.bridge]) await dom.screenshot('workbench').catch(() => undefined);
  if (results.fatalError) throw new Error(results.fatalError);
  if (results.failed > 0) throw new Error(`${results.failed} integration test(s) failed`);
  if (results.passed === 0) throw new Error('the integration suite ran zero tests');
}
