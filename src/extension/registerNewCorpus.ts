// New Corpus…: pick host presets, give a contact for the User-Agent, choose where corpus.json goes;
// the file is written from src/core/rules/corpusJson/presets.ts (as `review-corpus init` writes it) and opened
// as the corpus. An existing file is replaced only after a modal confirmation.
import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  HOST_PRESETS,
  contactProblem,
  findPreset,
  newCorpusConfig,
  presetNames,
  writeNewCorpusConfig,
  type HostPreset,
} from '../core/rules/corpusJson/presets';
import { Commands } from './ids/commands';
import { plainText } from './plainText';
import { registerCommand } from './registerCommand';
import type { CorpusSession } from './session';

const TITLE = 'Review Corpus: New Corpus';

/** Everything the command would ask, for scripted use (tests, other extensions); whatever is absent is asked. */
export interface NewCorpusArgs {
  presets?: string[];
  /** '' writes no contact. */
  contact?: string;
  file?: string;
  /** Replace an existing file without asking. */
  overwrite?: boolean;
}

export function registerNewCorpus(session: CorpusSession): vscode.Disposable[] {
  return [
    registerCommand(session.log, Commands.newCorpus, async (args?: NewCorpusArgs) => {
      const presets = args?.presets ? namedPresets(args.presets) : await pickPresets();
      if (!presets || presets.length === 0) return undefined;
      const contact = args?.contact ?? (await askContact());
      if (contact === undefined) return undefined;
      const file = args?.file ?? (await askFile());
      if (!file) return undefined;
      let overwrite = args?.overwrite === true;
      if (existsSync(file) && !overwrite) {
        const replace = 'Replace';
        const choice = await vscode.window.showWarningMessage(
          plainText(`${file} already exists. Replace it with a new corpus config?`),
          { modal: true },
          replace,
        );
        if (choice !== replace) return undefined;
        overwrite = true;
      }
      const config = newCorpusConfig(presets, { contact: contact === '' ? undefined : contact }, file);
      writeNewCorpusConfig(file, config, overwrite);
      session.log.info(`wrote ${file} for ${presets.map((p) => p.host.url).join(', ')}`);
      await session.open(file);
      await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
      if (contact === '') {
        void vscode.window.showWarningMessage(
          plainText(
            `Review Corpus: ${path.basename(file)} has no "contact"; add an e-mail address or an https:// URL before fetching (it goes in the User-Agent).`,
          ),
        );
      }
      return file;
    }),
  ];
}

function namedPresets(names: string[]): HostPreset[] {
  return names.map((name) => {
    const preset = findPreset(name);
    if (!preset) throw new Error(`no host preset "${name}" (presets: ${presetNames()})`);
    return preset;
  });
}

async function pickPresets(): Promise<HostPreset[] | undefined> {
  const items = HOST_PRESETS.map((preset) => ({
    label: preset.label,
    description: preset.host.url,
    detail: `org "${preset.host.org}", query ${preset.host.query}, at most one request per ${preset.host.minIntervalMs} ms; terms: ${preset.terms}`,
    preset,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: TITLE,
    canPickMany: true,
    matchOnDescription: true,
    ignoreFocusOut: true,
    placeHolder: 'Gerrit hosts to fetch, one organization each',
  });
  return picked?.map((p) => p.preset);
}

async function askContact(): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: TITLE,
    ignoreFocusOut: true,
    prompt:
      "Contact for the User-Agent: an e-mail address or an https:// URL where the hosts' operators can reach you (empty: add it later)",
    placeHolder: 'corpus-team@example.org',
    validateInput: (value) => (value === '' ? undefined : contactProblem(value)),
  });
}

async function askFile(): Promise<string | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = await vscode.window.showSaveDialog({
    title: TITLE,
    saveLabel: 'Create Corpus',
    filters: { 'Corpus config': ['json'] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, 'corpus.json') } : {}),
  });
  return uri?.fsPath;
}
