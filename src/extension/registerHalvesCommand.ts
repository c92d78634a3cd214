// "Review Corpus: Register Halves…": registers the open corpus's latest build's halves, as
// `review-corpus halves register` does (size floor, suffix-mix ceiling, matched suffix, the split's
// hash). A session edit, so it is saved by the background saver under the writer lock, like sealing
// a window. Re-registering asks first, and the replacement is recorded.
import * as vscode from 'vscode';
import { registeredHalves } from '../core/build/halves/halvesRegistry';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';
import { plainText } from './plainText';
import { registerCommand } from './registerCommand';

export function registerHalvesCommand(session: CorpusSession): vscode.Disposable[] {
  return [
    // `replaceArg` lets a test or a keybinding skip the question.
    registerCommand(session.log, Commands.registerHalves, async (replaceArg?: boolean) => {
      const corpus = session.corpus;
      if (!corpus) throw new Error('open a corpus first');
      if (corpus.buildId === undefined)
        throw new Error(`${corpus.config.name} is not built yet: rebuild before registering halves`);
      const existing = registeredHalves(corpus.store);
      let replace = replaceArg === true;
      if (existing.length && !replace) {
        const ok = await vscode.window.showWarningMessage(
          plainText(
            `Halves are registered already (${existing.map((r) => `${r.org}: size floor ${r.size_floor}, ${r.registered_at}`).join('; ')}). Replace them with build ${corpus.buildId}'s? The replacement is recorded.`,
          ),
          { modal: true },
          'Replace',
        );
        if (ok !== 'Replace') return undefined;
        replace = true;
      }
      const at = new Date().toISOString();
      session.edit({ kind: 'halves', buildId: corpus.buildId, replace, at });
      const regs = registeredHalves(corpus.store);
      void vscode.window.showInformationMessage(
        plainText(
          `Registered halves from build ${corpus.buildId}: ${regs.map((r) => `${r.org} size floor ${r.size_floor}, TVD ceiling ${r.suffix_tvd_ceiling}, matched suffix ${r.matched_suffix ?? 'none'}`).join('; ')}. Rebuild to check against them.`,
        ),
      );
      return regs.map((r) => ({
        org: r.org,
        sizeFloor: r.size_floor,
        suffixTvdCeiling: r.suffix_tvd_ceiling,
        matchedSuffix: r.matched_suffix,
      }));
    }),
  ];
}
