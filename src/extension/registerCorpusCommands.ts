// Opening a corpus, fetching and rebuilding: the commands that change which corpus is shown or its file.
import * as vscode from 'vscode';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';
import { JobCancelled, runJobProcess } from './jobs/runJobProcess';
import type { SaltStore } from './salt';
import { openComment, openExample } from './diff/openItem';
import type { CorpusNode } from './tree/nodes';
import { plainText } from './plainText';

export function registerCorpusCommands(context: vscode.ExtensionContext, session: CorpusSession, salt: SaltStore): vscode.Disposable[] {
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
      if (e instanceof JobCancelled) {
        log.info(`${title}: cancelled; the corpus file is consistent and the next run resumes`);
        await session.reload();
        return undefined;
      }
      log.error(`${title}: ${(e as Error).message}`);
      void vscode.window.showErrorMessage(plainText(`Review Corpus: ${(e as Error).message}`)); // may quote a record: a date, a path
      return undefined;
    } finally {
      session.busy = false;
    }
  };

  return [
    vscode.commands.registerCommand(Commands.openCorpus, async (file?: vscode.Uri | string) => {
      let target = typeof file === 'string' ? file : file?.fsPath;
      if (!target) {
        const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'Corpus config': ['json'] }, openLabel: 'Open Corpus' });
        target = picked?.[0]?.fsPath;
      }
      if (!target) return undefined;
      try {
        return await session.open(target);
      } catch (e) {
        void vscode.window.showErrorMessage(plainText(`Review Corpus: ${(e as Error).message}`));
        return undefined;
      }
    }),
    vscode.commands.registerCommand(Commands.fetch, async () => {
      const file = configFile();
      if (!file) return void vscode.window.showWarningMessage('Review Corpus: open a corpus.json first.');
      const s = await salt.getOrAsk();
      if (!s) return void vscode.window.showWarningMessage('Review Corpus: no salt, so nothing was fetched.');
      return runJob('Review Corpus: Fetch from Hosts', { kind: 'fetch', configFile: file, salt: s });
    }),
    vscode.commands.registerCommand(Commands.rebuild, async () => {
      const file = configFile();
      if (!file) return void vscode.window.showWarningMessage('Review Corpus: open a corpus.json first.');
      return runJob('Review Corpus: Rebuild', { kind: 'build', configFile: file });
    }),
    vscode.commands.registerCommand(Commands.setSalt, (value?: string) => (typeof value === 'string' ? salt.set(value) : salt.ask())),
    vscode.commands.registerCommand(Commands.openItem, async (n: CorpusNode | { exampleId: number }) => {
      if ('exampleId' in n) return openExample(session, n.exampleId);
      if (n.type !== 'item') return undefined;
      return n.item.kind === 'example' ? openExample(session, n.item.id) : openComment(session, n.item.id);
    }),
  ];
}
