// "Export for the Hub…": the Hub export (`export --format hub`: Parquet shards per window, the card
// with the Hub's front matter, the reports) into a folder the user picks, in the job process like
// Export…, under a cancellable progress notification. A cancelled export leaves the folder as it was.
import * as vscode from 'vscode';
import path from 'node:path';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';
import { runExportJob } from './jobs/exportJob';
import { registerCommand } from './registerCommand';

export function registerHubExport(context: vscode.ExtensionContext, session: CorpusSession): vscode.Disposable[] {
  return [
    // Tests pass the folder; from the palette, a folder picker.
    registerCommand(session.log, Commands.exportHub, async (target?: string) => {
      const c = session.corpus;
      if (!c) throw new Error('open a corpus first');
      const out =
        target ??
        (
          await vscode.window.showOpenDialog({
            defaultUri: vscode.Uri.file(path.dirname(c.configFile)),
            canSelectFiles: false,
            canSelectFolders: true,
            canSelectMany: false,
            openLabel: 'Export Here',
            title: 'Export for the Hub: the folder to write data/, README.md and the reports into',
          })
        )?.[0]?.fsPath;
      if (!out) return undefined;
      return runExportJob(context.extensionPath, session, 'Review Corpus: Export for the Hub', {
        kind: 'export',
        format: 'hub',
        configFile: c.configFile,
        out,
      });
    }),
  ];
}
