// "Judge Comments…" and "Set Judge API Key…": the judge runs in the job process like Fetch (cancellable
// progress; each answer saved as it comes, so a cancelled run resumes), with the key from SecretStorage.
import * as vscode from 'vscode';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';
import { JobCancelled, runJobProcess } from './jobs/runJobProcess';
import { JudgeKeyStore } from './judgeKey';
import { plainText } from './plainText';
import { registerCommand, statusNote } from './registerCommand';
import { loadCorpusConfig } from '../core/rules/corpusJson/loadConfig';

export function registerJudge(context: vscode.ExtensionContext, session: CorpusSession): vscode.Disposable[] {
  const log = session.log;
  const keys = new JudgeKeyStore(context.secrets);
  return [
    registerCommand(
      log,
      Commands.judgeComments,
      async (opts?: { sample?: number; seed?: string; dryRun?: boolean }) => {
        if (!vscode.workspace.isTrusted)
          return void vscode.window.showWarningMessage(
            'Review Corpus: this workspace is not trusted, so the judge contacts no endpoint; trust it (Manage Workspace Trust) to judge.',
          );
        const file = session.configFile ?? session.findConfig();
        if (!file) return void vscode.window.showWarningMessage('Review Corpus: open a corpus.json first.');
        const judge = loadCorpusConfig(file).judge;
        // No local default judge: without an endpoint nothing is judged and the quality counts read "not counted".
        if (!judge?.endpoint || !judge.model) {
          return void vscode.window.showWarningMessage(
            'Review Corpus: no judge configured. Set judge.endpoint and judge.model in corpus.json (any OpenAI-compatible /v1 endpoint, a local llama.cpp, vLLM or Ollama server included).',
          );
        }
        const title = 'Review Corpus: Judge Comments';
        session.busy = true;
        try {
          await session.flush();
          const result = await runJobProcess(
            context.extensionPath,
            title,
            { kind: 'judge', configFile: file, apiKey: await keys.get(), ...opts },
            log,
          );
          log.info(result.summary);
          await session.open(file);
          void vscode.window.showInformationMessage(plainText(result.summary));
          return result;
        } catch (e) {
          if (!(e instanceof JobCancelled)) throw e;
          await session.reload();
          throw new JobCancelled('Judging cancelled: the judgments so far are kept, and the next run resumes');
        } finally {
          session.busy = false;
        }
      },
    ),
    registerCommand(log, Commands.setJudgeKey, async (value?: string) => {
      const stored = typeof value === 'string' ? await keys.set(value) : await keys.ask();
      // Never the key itself: only whether one is stored.
      statusNote(
        stored === undefined
          ? '$(key) Judge key unchanged'
          : stored
            ? "$(key) Judge key saved in VS Code's secret storage"
            : '$(key) Judge key cleared',
      );
      return stored !== undefined;
    }),
  ];
}
