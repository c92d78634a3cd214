// Reviewing in place: confirm or reject flags, label examples, and move to the next/previous example.
import * as vscode from 'vscode';
import { flagsOf } from '../core/build/flags/flagStore';
import type { Label } from '../core/review/labels/labels';
import { localUserPseudonym } from '../core/ground/privacy/localUser';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';
import type { SaltStore } from './salt';
import type { ActiveExample } from './diff/activeExample';
import { openKeptTwin } from './diff/twin';
import { parseDocUri } from './diff/uris';
import type { CorpusTree } from './tree/registerTree';
import type { CorpusNode, ItemNode } from './tree/nodes';
import { plainText } from './plainText';
import { registerCommand, statusNote } from './registerCommand';

/** The example a command was invoked on: a tree node, the diff's title (VS Code passes the editor's URI), or { exampleId }. */
function exampleIdOf(n: CorpusNode | vscode.Uri | { exampleId: number } | undefined): number | undefined {
  if (n === undefined) return undefined;
  if (n instanceof vscode.Uri) {
    const ref = parseDocUri(n);
    return ref?.kind === 'example' ? ref.id : undefined;
  }
  if ('exampleId' in n) return n.exampleId;
  return n.type === 'item' && n.item.kind === 'example' ? n.item.id : undefined;
}

const LABEL_TEXT: Record<Label, string> = {
  answers: 'Rewrite answers its comment',
  does_not: 'Rewrite does not answer its comment',
  unsure: 'Unsure',
};

export function registerReviewCommands(
  session: CorpusSession,
  salt: SaltStore,
  active: ActiveExample,
  tree: CorpusTree,
): vscode.Disposable[] {
  /** The tree item last selected (by click, keyboard or move) and the example last opened, in the order they happened. */
  let current: ItemNode | undefined;
  let events = 0;
  let selectedAt = 0;
  let openedAt = 0;
  const log = session.log;

  const rater = async () => {
    const s = await salt.getOrAsk();
    if (!s) throw new Error('a salt is needed to record your rater pseudonym (Review Corpus: Set Salt…)');
    return localUserPseudonym(s);
  };
  const targetKey = (n?: CorpusNode): string | undefined =>
    n?.type === 'item' && n.item.kind === 'example' ? n.item.key : active.example?.key;
  const decide = (status: 'confirmed' | 'rejected') => async (n?: CorpusNode) => {
    const key = targetKey(n);
    const corpus = session.corpus;
    if (!key || !corpus) throw new Error('open a flagged example first');
    const open = flagsOf(corpus.store, key).filter((f) => f.status === 'open');
    if (open.length === 0) throw new Error('this example has no open flag');
    let chosen = open;
    if (open.length > 1) {
      const pick = await vscode.window.showQuickPick(
        open.map((f) => ({ label: plainText(f.reason), description: plainText(f.detail ?? ''), flag: f })),
        { canPickMany: true, title: `${status === 'confirmed' ? 'Confirm' : 'Reject'} which flags?` },
      );
      if (!pick?.length) return;
      chosen = pick.map((p) => p.flag);
    }
    const who = await rater();
    session.edit({ kind: 'flags', flagIds: chosen.map((f) => f.id), status, rater: who, at: new Date().toISOString() });
    session.log.info(`${status} ${chosen.length} flag(s) on ${key}`);
    const flags = `${chosen.length} flag${chosen.length > 1 ? 's' : ''}`;
    // A confirmed flag takes effect at the next build: until then the example stays in its group.
    statusNote(
      status === 'confirmed'
        ? `$(sign-out) Confirmed ${flags}: the example leaves at the next build`
        : `$(close) Rejected ${flags}: the example stays`,
    );
  };

  const label = (l?: Label) => async (n?: CorpusNode) => {
    const key = targetKey(n);
    if (!key) throw new Error('open an example first');
    let chosen = l;
    if (!chosen) {
      const pick = await vscode.window.showQuickPick(
        (Object.keys(LABEL_TEXT) as Label[]).map((k) => ({ label: LABEL_TEXT[k], value: k })),
        { title: 'Label this example' },
      );
      chosen = pick?.value;
    }
    if (!chosen) return;
    const who = await rater();
    session.edit({ kind: 'label', exampleKey: key, rater: who, label: chosen, at: new Date().toISOString() });
    statusNote(`$(tag) Labelled: ${LABEL_TEXT[chosen]}`);
  };

  /** Next/previous within the current tree group, loading the next page when needed. */
  const move = async (step: 1 | -1) => {
    // From the later of the two: a selection moved by keyboard since the example opened, or the example
    // opened since the selection (where a loaded group lists it: one opened while the view was hidden
    // leaves no selection behind). A selection event can come after the open it caused, or never (the
    // same item id stays selected across corpora), so an older selection must not win.
    const opened = active.example ? tree.provider.loadedExample(active.example.id) : undefined;
    const from = opened && (!current || openedAt > selectedAt) ? opened : (current ?? selectedItem());
    if (!from) throw new Error('open an example from the tree first');
    // An edit (this label) refreshed the tree: `from` is a node of before; the group now holds its pages.
    const group = tree.provider.currentGroup(from.parent) ?? from.parent;
    let siblings = tree.provider.items(group);
    const at = siblings.findIndex((s) => s.item.kind === from.item.kind && s.item.id === from.item.id);
    // Gone from the group (a label filter it no longer matches): the item now in its place is next.
    const index = at >= 0 ? at + step : step > 0 ? from.index : from.index - 1;
    if (index >= siblings.length && group.loaded < group.count) {
      tree.provider.loadMore(group);
      siblings = tree.provider.items(group);
    }
    if (index < 0 || index >= siblings.length) {
      statusNote(step > 0 ? 'Last example in this group' : 'First example in this group');
      return;
    }
    const next = siblings[index];
    current = next;
    selectedAt = ++events;
    await tree.view.reveal(next, { select: true, focus: false });
    await vscode.commands.executeCommand(Commands.openItem, next);
  };

  const selectedItem = (): ItemNode | undefined => {
    const sel = tree.view.selection[0];
    return sel?.type === 'item' ? sel : undefined;
  };

  return [
    tree.view.onDidChangeSelection((e) => {
      const n = e.selection[0];
      if (n?.type !== 'item') return;
      current = n;
      selectedAt = ++events;
    }),
    active.onDidChange((example) => {
      if (example) openedAt = ++events;
    }),
    registerCommand(log, Commands.confirmFlag, decide('confirmed')),
    registerCommand(log, Commands.rejectFlag, decide('rejected')),
    registerCommand(log, Commands.label, label()),
    registerCommand(log, Commands.labelAnswers, label('answers')),
    registerCommand(log, Commands.labelDoesNot, label('does_not')),
    registerCommand(log, Commands.labelUnsure, label('unsure')),
    registerCommand(log, Commands.nextExample, () => move(1)),
    registerCommand(log, Commands.previousExample, () => move(-1)),
    registerCommand(log, Commands.openKeptTwin, (n?: CorpusNode | vscode.Uri | { exampleId: number }) => {
      const id = exampleIdOf(n) ?? active.example?.id;
      if (id === undefined)
        return void vscode.window.showWarningMessage('Review Corpus: open a duplicate example first.');
      return openKeptTwin(session, id);
    }),
  ];
}
