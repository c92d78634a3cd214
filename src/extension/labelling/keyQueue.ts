// The labelling keys (a label, Undo, Alt+. and Alt+,, a click on an example) run one after another, in
// the order VS Code delivered them, each once the one before has finished. So a label pressed while the
// next example opens waits for it and lands on it, never on the example left behind, and two moves in a
// row go two examples on. VS Code hands commands to the extension host in the order the keys were pressed.
//
// A move also sets ContextKeys.navigating until the example it opens is shown: while the diff opens, the
// editor is blank and focus is on the page, and the keys' `when` clauses (ids/keybindings.ts) keep them
// bound there because of it. The key is set in the command handler, before anything is opened, so the
// workbench has it before the tab changes: the messages travel in order on one connection.
import * as vscode from 'vscode';
import { ContextKeys } from '../ids/contextKeys';

export class KeyQueue implements vscode.Disposable {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private moves = 0;
  private readonly settled = new vscode.EventEmitter<void>();
  /** Fires whenever the queue has run everything it was given. */
  readonly onDidSettle = this.settled.event;

  /** Nothing waiting or running. */
  get idle(): boolean {
    return this.pending === 0;
  }

  /** Runs `task` after everything queued before it; its failure is the caller's, and the queue goes on. */
  run<T>(task: () => Promise<T>): Promise<T> {
    this.pending++;
    const result = this.tail.then(task);
    this.tail = result
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        if (--this.pending === 0) this.settled.fire();
      });
    return result;
  }

  /** A task that shows another example: the label keys stay bound until it has (and any moved after it). */
  navigate<T>(task: () => Promise<T>): Promise<T> {
    if (this.moves++ === 0) void vscode.commands.executeCommand('setContext', ContextKeys.navigating, true);
    return this.run(task).finally(() => {
      if (--this.moves === 0) void vscode.commands.executeCommand('setContext', ContextKeys.navigating, false);
    });
  }

  dispose(): void {
    this.settled.dispose();
  }
}
