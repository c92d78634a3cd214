// "Review Corpus: Register Halves…": registers one organization's halves of the open corpus's latest
// build, as `review-corpus halves register --org` does (size floor, suffix-mix ceiling, matched
// suffix, the split's hash). It asks which organization, among those the build has halves for. A
// session edit, so it is saved by the background saver under the writer lock, like sealing a window.
// Re-registering asks first, and the replacement is recorded.
import * as vscode from 'vscode';
import { registeredHalves } from '../core/build/halves/halvesRegistry';
import { storedFunnel } from '../core/build/reports/storedFunnel';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';
import { plainText } from './plainText';
import { registerCommand } from './registerCommand';

export function registerHalvesCommand(session: CorpusSession): vscode.Disposable[] {
  return [
    // `orgArg` and `replaceArg` let a test or a keybinding skip the questions.
    registerCommand(session.log, Commands.registerHalves, async (orgArg?: string, replaceArg?: boolean) => {
      const corpus = session.corpus;
      if (!corpus) throw new Error('open a corpus first');
      const buildId = corpus.buildId;
      if (buildId === undefined)
        throw new Error(`${corpus.config.name} is not built yet: rebuild before registering halves`);
      const org = typeof orgArg === 'string' ? orgArg : await pickOrg(session, buildId);
      if (org === undefined) return undefined;
      const existing = registeredHalves(corpus.store).find((r) => r.org === org);
      let replace = replaceArg === true;
      if (existing && !replace) {
        const ok = await vscode.window.showWarningMessage(
          plainText(
            `${org}'s halves are registered already (size floor ${existing.size_floor}, ${existing.registered_at}). Replace them with build ${buildId}'s? The replacement is recorded.`,
          ),
          { modal: true },
          'Replace',
        );
        if (ok !== 'Replace') return undefined;
        replace = true;
      }
      session.edit({ kind: 'halves', buildId, org, replace, at: new Date().toISOString() });
      const r = registeredHalves(corpus.store).find((x) => x.org === org)!;
      void vscode.window.showInformationMessage(
        plainText(
          `Registered ${r.org}'s halves from build ${buildId}: size floor ${r.size_floor}, TVD ceiling ${r.suffix_tvd_ceiling}, matched suffix ${r.matched_suffix ?? 'none'}. Rebuild to check against them.`,
        ),
      );
      return {
        org: r.org,
        sizeFloor: r.size_floor,
        suffixTvdCeiling: r.suffix_tvd_ceiling,
        matchedSuffix: r.matched_suffix,
      };
    }),
  ];
}

/** Which organization, among those the build has halves for (each with its halves' sizes); undefined: dismissed. */
async function pickOrg(session: CorpusSession, buildId: number): Promise<string | undefined> {
  const funnel = storedFunnel(session.corpus!.store, buildId);
  const items = Object.entries(funnel.organizations).flatMap(([org, o]) =>
    o.halves
      ? [
          {
            label: plainText(org),
            description: plainText(
              `halves of ${o.halves.window}: a ${o.halves.a.examples}, b ${o.halves.b.examples} examples`,
            ),
            org,
          },
        ]
      : [],
  );
  if (items.length === 0)
    throw new Error(
      `build ${buildId} has no halves (the corpus config defines none, or no kept example is in their window)`,
    );
  return (await vscode.window.showQuickPick(items, { title: "Register which organization's halves?" }))?.org;
}
