// Reviewing in place: confirm or dismiss flags, label examples, and move to the next/previous example.
import * as vscode from 'vscode';
import { flagsOf } from '../core/flags/flagStore';
import type { Label } from '../core/labels/labels';
import { localUserPseudonym } from '../core/privacy/localUser';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';
import type { SaltStore } from './salt';
import type { ActiveExample } from './diff/activeExample';
import type { CorpusTree } from './tree/registerTree';
import type { CorpusNode, ItemNode } from './tree/nodes';
import { plainText } from './plainText';

const LABEL_TEXT: Record<Label, string> = { answers: 'Rewrite answers its comment', does_not: 'Rewrite does not answer its comment', unsure: 'Unsure' };

export function registerReviewCommands(session: CorpusSession, salt: SaltStore, active: ActiveExample, tree: CorpusTree): vscode.Disposable[] {
  let current: ItemNode | undefined;

  const rater = async () => {
    const s = await salt.getOrAsk();
    if (!s) throw new Error('a salt is needed to record your rater pseudonym (Review Corpus: Set Salt…)');
    return localUserPseudonym(s);
  };
  const targetKey = (n?: CorpusNode): string | undefined =>
    n?.type === 'item' && n.item.kind === 'example' ? n.item.key : active.example?.key;
  const guard = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (e) {
      void vscode.window.showErrorMessage(plainText(`Review Corpus: ${(e as Error).message}`));
    }
  };

  const decide = (status: 'confirmed' | 'dismissed') => (n?: CorpusNode) => guard(async () => {
    const key = targetKey(n);
    const corpus = session.corpus;
    if (!key || !corpus) throw new Error('open a flagged example first');
    const open = flagsOf(corpus.store, key).filter((f) => f.status === 'open');
    if (open.length === 0) throw new Error('this example has no open flag');
    let chosen = open;
    if (open.length > 1) {
      const pick = await vscode.window.showQuickPick(open.map((f) => ({ label: plainText(f.reason), description: plainText(f.detail ?? ''), flag: f })), { canPickMany: true, title: `${status === 'confirmed' ? 'Confirm' : 'Dismiss'} which flags?` });
      if (!pick?.length) return;
      chosen = pick.map((p) => p.flag);
    }
    const who = await rater();
    session.edit({ kind: 'flags', flagIds: chosen.map((f) => f.id), status, rater: who, at: new Date().toISOString() });
    session.log.info(`${status} ${chosen.length} flag(s) on ${key}`);
  });

  const label = (l?: Label) => (n?: CorpusNode) => guard(async () => {
    const key = targetKey(n);
    if (!key) throw new Error('open an example first');
    let chosen = l;
    if (!chosen) {
      const pick = await vscode.window.showQuickPick((Object.keys(LABEL_TEXT) as Label[]).map((k) => ({ label: LABEL_TEXT[k], value: k })), { title: 'Label this example' });
      chosen = pick?.value;
    }
    if (!chosen) return;
    const who = await rater();
    session.edit({ kind: 'label', exampleKey: key, rater: who, label: chosen, at: new Date().toISOString() });
    vscode.window.setStatusBarMessage(`Labelled: ${LABEL_TEXT[chosen]}`, 3000);
  });

  /** Next/previous within the current tree group, loading the next page when needed. */
  const move = (step: 1 | -1) => guard(async () => {
    const from = current ?? findActiveNode();
    if (!from) throw new Error('open an example from the tree first');
    const group = from.parent;
    let siblings = tree.provider.items(group);
    const index = siblings.findIndex((s) => s.item.kind === from.item.kind && s.item.id === from.item.id) + step;
    if (index >= siblings.length && group.loaded < group.count) {
      tree.provider.loadMore(group);
      siblings = tree.provider.items(group);
    }
    if (index < 0 || index >= siblings.length) {
      vscode.window.setStatusBarMessage(step > 0 ? 'Last example in this group' : 'First example in this group', 3000);
      return;
    }
    const next = siblings[index];
    current = next;
    await tree.view.reveal(next, { select: true, focus: false });
    await vscode.commands.executeCommand(Commands.openItem, next);
  });

  const findActiveNode = (): ItemNode | undefined => {
    const sel = tree.view.selection[0];
    return sel?.type === 'item' ? sel : undefined;
  };

  return [
    tree.view.onDidChangeSelection((e) => {
      const n = e.selection[0];
      if (n?.type === 'item') current = n;
    }),
    vscode.commands.registerCommand(Commands.confirmFlag, decide('confirmed')),
    vscode.commands.registerCommand(Commands.dismissFlag, decide('dismissed')),
    vscode.commands.registerCommand(Commands.label, label()),
    vscode.commands.registerCommand(Commands.labelAnswers, label('answers')),
    vscode.commands.registerCommand(Commands.labelDoesNot, label('does_not')),
    vscode.commands.registerCommand(Commands.labelUnsure, label('unsure')),
    vscode.commands.registerCommand(Commands.nextExample, () => move(1)),
    vscode.commands.registerCommand(Commands.previousExample, () => move(-1)),
  ];
}
