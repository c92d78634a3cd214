// "Review Corpus: Protect References…": registers a JSONL reference set (another benchmark's test split,
// say) in the open corpus, as `review-corpus protect` does. The write is a session edit, so it goes
// through the background saver under the corpus file's writer lock, like sealing a window.
import * as vscode from 'vscode';
import path from 'node:path';
import { checkSetName, readReferenceFile } from '../core/rules/decontam/referenceSets';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';
import { plainText } from './plainText';
import { registerCommand } from './registerCommand';

/** A name offered from the file's name: what a set name may hold, the rest dropped. */
function suggestedName(file: string): string {
  return path
    .basename(file)
    .replace(/\.jsonl?$/i, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 100);
}

const nameProblem = (name: string): string | undefined => {
  try {
    checkSetName(name);
    return undefined;
  } catch (e) {
    return (e as Error).message.replace(/^protect: --name /, '');
  }
};

export function registerProtectReferences(session: CorpusSession): vscode.Disposable[] {
  return [
    // Arguments (file, name, replace) let a test or a keybinding skip the dialogs.
    registerCommand(
      session.log,
      Commands.protectReferences,
      async (fileArg?: string, nameArg?: string, replaceArg?: boolean) => {
        const corpus = session.corpus;
        if (!corpus) throw new Error('open a corpus first');
        const file =
          fileArg ??
          (
            await vscode.window.showOpenDialog({
              canSelectMany: false,
              filters: { 'JSON Lines': ['jsonl', 'json'] },
              title: 'Protect which reference set (JSONL of {id, before?, after?, comment?})?',
              defaultUri: vscode.Uri.file(path.dirname(corpus.configFile)),
            })
          )?.[0]?.fsPath;
        if (!file) return undefined;
        const items = readReferenceFile(file); // one line naming the file and line when it is wrong
        const name =
          nameArg ??
          (await vscode.window.showInputBox({
            title: 'Name of the protected set',
            prompt: 'Shown in the evidence and the dataset card',
            value: suggestedName(file),
            validateInput: nameProblem,
          }));
        if (!name) return undefined;
        checkSetName(name);
        const existing = corpus.store.get<{ sha256: string }>('SELECT sha256 FROM protected_sets WHERE name = ?', [
          name,
        ]);
        let replace = replaceArg === true;
        if (existing && !replace) {
          const ok = await vscode.window.showWarningMessage(
            plainText(
              `A set named "${name}" is registered already (sha256 ${existing.sha256.slice(0, 12)}…). Replace it? The replacement is recorded.`,
            ),
            { modal: true },
            'Replace',
          );
          if (ok !== 'Replace') return undefined;
          replace = true;
        }
        const sha256 = session.edit({ kind: 'protect', name, items, replace, at: new Date().toISOString() }) ?? '';
        void vscode.window.showInformationMessage(
          plainText(
            `Protected "${name}": ${items.length} items (sha256 ${sha256.slice(0, 12)}…). Rebuild to remove what overlaps it.`,
          ),
        );
        return { name, items: items.length, sha256 };
      },
    ),
  ];
}
