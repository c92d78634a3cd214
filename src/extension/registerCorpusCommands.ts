// Opening a corpus, fetching and rebuilding: the commands that change which corpus is shown or its file.
import * as vscode from 'vscode';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';
import { JobCancelled, runJobProcess } from './jobs/runJobProcess';
import type { SaltStore } from './salt';
import { plainText } from './plainText';
import { registerCommand, statusNote } from './registerCommand';

export function registerCorpusCommands(
  context: vscode.ExtensionContext,
  session: CorpusSession,
  salt: SaltStore,
): vscode.Disposable[] {
  const log = session.log;
  const configFile = () => session.configFile ?? session.findConfig();

  const runJob = async (title: string, job: Parameters<typeof runJobProcess>[2]) => {
    session.busy = true;
    try {
      await session.flush(); // the job process reads the file: labels and flag decisions must be in it
      const result = await runJobProcess(context.extensionPath, title, job, log);
      log.info(result.summary);
      await session.open(job.configFile);
      void vscode.window.showInformationMessage(plainText(result.summary));
      return result;
    } catch (e) {
      if (!(e instanceof JobCancelled)) throw e; // registerCommand shows it, with Show Log
      await session.reload(); // the job left the file consistent: show what it holds now
      throw new JobCancelled(
        job.kind === 'fetch'
          ? 'Fetch cancelled: what was fetched is kept, and the next fetch resumes'
          : 'Rebuild cancelled: the corpus keeps its last build',
      );
    } finally {
      session.busy = false;
    }
  };

  return [
    registerCommand(log, Commands.openCorpus, async (file?: vscode.Uri | string) => {
      let target = typeof file === 'string' ? file : file?.fsPath;
      if (!target) {
        const picked = await vscode.window.showOpenDialog({
          canSelectMany: false,
          filters: { 'Corpus config': ['json'] },
          openLabel: 'Open Corpus',
        });
        target = picked?.[0]?.fsPath;
      }
      if (!target) return undefined;
      return session.open(target);
    }),
    registerCommand(log, Commands.fetch, async () => {
      // A corpus.json names the hosts to contact: one from a folder not trusted contacts none (package.json capabilities).
      if (!vscode.workspace.isTrusted)
        return void vscode.window.showWarningMessage(
          'Review Corpus: this workspace is not trusted, so Fetch contacts no host; trust it (Manage Workspace Trust) to fetch.',
        );
      const file = configFile();
      if (!file) return void vscode.window.showWarningMessage('Review Corpus: open a corpus.json first.');
      const s = await salt.getOrAsk();
      if (!s) return void vscode.window.showWarningMessage('Review Corpus: no salt, so nothing was fetched.');
      return runJob('Review Corpus: Fetch from Hosts', { kind: 'fetch', configFile: file, salt: s });
    }),
    registerCommand(log, Commands.rebuild, async () => {
      const file = configFile();
      if (!file) return void vscode.window.showWarningMessage('Review Corpus: open a corpus.json first.');
      return runJob('Review Corpus: Rebuild', { kind: 'build', configFile: file });
    }),
    registerCommand(log, Commands.setSalt, async (value?: string) => {
      const stored = typeof value === 'string' ? await salt.set(value) : await salt.ask();
      // Never the salt itself: only that it is stored, and where.
      statusNote(stored ? "$(key) Salt saved in VS Code's secret storage" : '$(key) Salt unchanged');
      return stored !== undefined; // not the salt: any extension can run this command
    }),
  ];
}
