// Create Sample Corpus: copies the sample corpus that ships in the extension (built at package time
// by fetching the fabricated sample Gerrit through the real fetch and build) into a folder, and opens it.
import * as vscode from 'vscode';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { copyCorpus, filesBeside } from '../core/ground/store/copyCorpus';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';
import { registerCommand } from './registerCommand';

export function registerSampleCorpus(context: vscode.ExtensionContext, session: CorpusSession): vscode.Disposable[] {
  return [
    registerCommand(session.log, Commands.createSampleCorpus, async (target?: string) => {
      const source = path.join(context.extensionPath, 'dist', 'sample');
      if (!existsSync(path.join(source, 'corpus.sqlite')))
        throw new Error('this build of the extension carries no sample corpus (run `npm run build`)');
      let folder = target;
      if (!folder) {
        const picked = await vscode.window.showOpenDialog({
          canSelectFolders: true,
          canSelectFiles: false,
          openLabel: 'Create Sample Corpus Here',
        });
        folder = picked?.[0]?.fsPath;
      }
      if (!folder) return undefined;
      mkdirSync(folder, { recursive: true });
      const [config, db] = ['corpus.json', 'corpus.sqlite'].map((f) => path.join(folder, f));
      for (const dest of [config, db, ...filesBeside(db)]) {
        if (existsSync(dest)) throw new Error(`${dest} already exists; pick an empty folder`);
      }
      copyFileSync(path.join(source, 'corpus.json'), config);
      copyCorpus(path.join(source, 'corpus.sqlite'), db);
      return session.open(path.join(folder, 'corpus.json'));
    }),
  ];
}
