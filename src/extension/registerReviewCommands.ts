// Reviewing in place: confirm or reject an example's flags, open a duplicate's kept twin. Labels and
// moving between examples are the labelling flow's (labelling/registerLabelling.ts).
import * as vscode from 'vscode';
import { flagsOf } from '../core/build/flags/flagStore';
import { localUserPseudonym } from '../core/ground/privacy/localUser';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';
import type { SaltStore } from './salt';
import type { ActiveExample } from './diff/activeExample';
import { openKeptTwin } from './diff/twin';
import { parseDocUri } from './diff/uris';
import type { CorpusNode } from './tree/nodes';
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

export function registerReviewCommands(
  session: CorpusSession,
  salt: SaltStore,
  active: ActiveExample,
): vscode.Disposable[] {
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

  return [
    registerCommand(log, Commands.confirmFlag, decide('confirmed')),
    registerCommand(log, Commands.rejectFlag, decide('rejected')),
    registerCommand(log, Commands.openKeptTwin, (n?: CorpusNode | vscode.Uri | { exampleId: number }) => {
      const id = exampleIdOf(n) ?? active.example?.id;
      if (id === undefined)
        return void vscode.window.showWarningMessage('Review Corpus: open a duplicate example first.');
      return openKeptTwin(session, id);
    }),
  ];
}
