// Every command of the extension is registered here, so each one fails the same way: the error goes to
// the log and to one plain-text notification with a "Show Log" action; a cancellation (the user pressed
// Cancel, a job was stopped) is logged and noted briefly in the status bar, never shown as an error.
// Use registerCommand(log, Commands.x, handler) instead of vscode.commands.registerCommand (a unit
// test, test/unit/commandWrapper.test.ts, checks that nothing else registers a command or shows an error).
import * as vscode from 'vscode';
import type { CommandId } from './ids/commands';
import { plainText } from './plainText';

export const SHOW_LOG = 'Show Log';
/** How long a status bar note stays. */
export const NOTE_MS = 6000;

/**
 * Logs `message` as an error and shows it as a notification with a "Show Log" action. The message may
 * quote host or corpus text (a path, a date): it is shown through plainText, so it forms no link or icon.
 */
export function showError(log: vscode.LogOutputChannel, message: string, source?: string): void {
  log.error(source ? `${source}: ${message}` : message);
  void vscode.window.showErrorMessage(plainText(`Review Corpus: ${message}`), SHOW_LOG).then((picked) => {
    if (picked === SHOW_LOG) log.show(true);
  });
}

/** A short note in the status bar of what a command did. `text` is ours; host text in it goes through plainText first. */
export function statusNote(text: string): vscode.Disposable {
  return vscode.window.setStatusBarMessage(text, NOTE_MS);
}

/** The argument with which any of our commands returns at once, doing nothing (primeCommands). */
export const PRIME_ARG = 'reviewCorpus.prime';

/**
 * The workbench runs an extension's command at once only once it has sent the command's activation event
 * (`onCommand:<id>`) to the extension host; the first time, it waits for that round trip first
 * (CommandService.executeCommand, VS Code 1.100). So the first press of a key whose command had not run
 * yet reaches us after a key pressed behind it: the first Ctrl+Alt+2 of a session after the Alt+. that
 * followed it, a label on the wrong example. Running each command once through the workbench (runCommands)
 * with PRIME_ARG, which it ignores, sends those events before any key is pressed.
 */
export async function primeCommands(log: vscode.LogOutputChannel, ids: readonly CommandId[]): Promise<void> {
  try {
    await vscode.commands.executeCommand('runCommands', {
      commands: ids.map((command) => ({ command, args: PRIME_ARG })),
    });
  } catch (e) {
    log.warn(`could not prime the key commands (a first key may then arrive late): ${(e as Error).message}`);
  }
}

/** Registers a command whose errors and cancellations are reported as the header says. The handler's result is returned. */
export function registerCommand<A extends unknown[]>(
  log: vscode.LogOutputChannel,
  id: CommandId,
  handler: (...args: A) => unknown,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: A) => {
    if (args[0] === PRIME_ARG) return undefined;
    try {
      return await handler(...args);
    } catch (e) {
      if (e instanceof vscode.CancellationError) {
        const what = e.message && e.message !== 'Canceled' ? e.message : `${id} cancelled`;
        log.info(what);
        statusNote(`$(circle-slash) ${plainText(what)}`);
        return undefined;
      }
      const error = e instanceof Error ? e : new Error(String(e));
      if (error.stack) log.debug(`${id}: ${error.stack}`);
      showError(log, error.message, id);
      return undefined;
    }
  });
}
