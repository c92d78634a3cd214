// The labelling flow: the key queue, moving through examples and opening them, labels and their undo,
// progress in the status bar, and resuming after a reload (README: "Labelling with the keyboard").
import type * as vscode from 'vscode';
import type { ActiveExample } from '../diff/activeExample';
import { Commands } from '../ids/commands';
import { primeCommands, registerCommand } from '../registerCommand';
import { KeyBindings } from '../ids/keybindings';
import type { SaltStore } from '../salt';
import type { CorpusSession } from '../session';
import type { CorpusNode } from '../tree/nodes';
import type { CorpusTree } from '../tree/registerTree';
import { KeyQueue } from './keyQueue';
import { Labeller } from './labeller';
import { ExampleNavigator } from './navigator';
import { LabelProgressItem } from './progressItem';
import { LabellingResume } from './resume';

/** What the integration suite reads of the flow. */
export interface LabellingApi {
  /** Every key pressed so far has been handled. */
  readonly idle: boolean;
  readonly onDidSettle: vscode.Event<void>;
  readonly progress: LabelProgressItem;
}

export function registerLabelling(
  context: vscode.ExtensionContext,
  session: CorpusSession,
  salt: SaltStore,
  active: ActiveExample,
  tree: CorpusTree,
): { labelling: LabellingApi; disposables: vscode.Disposable[] } {
  const log = session.log;
  const queue = new KeyQueue();
  const navigator = new ExampleNavigator(session, active, tree, queue);
  const progress = new LabelProgressItem(session, salt, active, tree.provider);
  const labeller = new Labeller(session, salt, active, queue, progress);
  const resume = new LabellingResume(context.workspaceState, session, tree, navigator, active, salt);
  const labelling: LabellingApi = {
    get idle() {
      return queue.idle;
    },
    onDidSettle: queue.onDidSettle,
    progress,
  };
  const disposables = [
    queue,
    navigator,
    progress,
    labeller,
    resume,
    registerCommand(log, Commands.label, (n?: CorpusNode) => labeller.label(undefined, n)),
    registerCommand(log, Commands.labelAnswers, (n?: CorpusNode) => labeller.label('answers', n)),
    registerCommand(log, Commands.labelDoesNot, (n?: CorpusNode) => labeller.label('does_not', n)),
    registerCommand(log, Commands.labelUnsure, (n?: CorpusNode) => labeller.label('unsure', n)),
    registerCommand(log, Commands.undoLabel, () => labeller.undo()),
    registerCommand(log, Commands.nextExample, () => navigator.move(1)),
    registerCommand(log, Commands.previousExample, () => navigator.move(-1)),
    registerCommand(log, Commands.openItem, (n: CorpusNode | { exampleId: number }) => navigator.open(n)),
  ];
  // Once registered: the keys' commands then run in the order the keys were pressed, the first press too.
  void primeCommands(log, [...new Set(KeyBindings.map((k) => k.command)), Commands.openItem]);
  return { labelling, disposables };
}
