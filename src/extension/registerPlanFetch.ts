// "Plan Fetch…": what the next fetch will ask of each host, how long it takes at the host's pace and
// how much disk it fills, shown as a read-only plain-text document (host URLs and queries shown as
// data). The plan runs in a job process, as a fetch does, under a cancellable progress notification;
// it asks each host only for robots.txt and a count of its listing, and writes nothing.
import * as vscode from 'vscode';
import { Commands } from './ids/commands';
import { PLAN_SCHEME } from './ids/views';
import type { CorpusSession } from './session';
import { runJobProcess } from './jobs/runJobProcess';
import { plainText } from './plainText';
import { registerCommand } from './registerCommand';

/** review-corpus-plan:/fetch-plan.txt: the last plan made in this window. */
const PLAN_URI = vscode.Uri.from({ scheme: PLAN_SCHEME, path: '/fetch-plan.txt' });

class PlanDocument implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private text = '(no fetch plan yet: run "Review Corpus: Plan Fetch…")';

  set(lines: string[]): void {
    this.text = `${lines.join('\n')}\n`;
    this.changed.fire(PLAN_URI);
  }

  provideTextDocumentContent(): string {
    return this.text;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerPlanFetch(context: vscode.ExtensionContext, session: CorpusSession): vscode.Disposable[] {
  const document = new PlanDocument();
  return [
    document,
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, document),
    registerCommand(session.log, Commands.planFetch, async () => {
      // As Fetch: a corpus.json names the hosts to contact, and one from a folder not trusted contacts none.
      if (!vscode.workspace.isTrusted)
        return void vscode.window.showWarningMessage(
          'Review Corpus: this workspace is not trusted, so Plan Fetch contacts no host; trust it (Manage Workspace Trust) to plan.',
        );
      const file = session.configFile ?? session.findConfig();
      if (!file) return void vscode.window.showWarningMessage('Review Corpus: open a corpus.json first.');
      const result = await runJobProcess(
        context.extensionPath,
        'Review Corpus: Plan Fetch',
        { kind: 'plan', configFile: file },
        session.log,
      );
      session.log.info(result.summary);
      document.set(result.lines ?? [result.summary]);
      await vscode.window.showTextDocument(PLAN_URI, { preview: true });
      if (result.ok === false) void vscode.window.showWarningMessage(plainText(result.summary));
      return result;
    }),
  ];
}
