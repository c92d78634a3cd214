// A base for the extension's long-lived parts (decorations, threads, the active example): what a part
// registers it disposes with itself, once, latest first, so nothing it set up outlives it.
import type * as vscode from 'vscode';

export abstract class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposed = false;

  /** Takes `value` to be disposed with this part; after dispose() it is disposed at once. Returns it. */
  protected _register<T extends vscode.Disposable>(value: T): T {
    if (this.disposed) value.dispose();
    else this.owned.push(value);
    return value;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // Latest first: a listener goes before the emitter or decoration type it was registered against.
    while (this.owned.length > 0) this.owned.pop()!.dispose();
  }
}
