// Which example the active diff shows, kept in the context keys that enable labelling and flag commands.
import * as vscode from 'vscode';
import { twinKey } from '../../core/review/inspect/evidence';
import type { ExampleRecord } from '../../core/review/inspect/example';
import { ContextKeys } from '../ids/contextKeys';
import type { CorpusSession } from '../session';
import { parseDocUri } from './uris';
import { Disposable } from '../lifecycle';

export class ActiveExample extends Disposable {
  private current: ExampleRecord | undefined;
  private readonly changed = new vscode.EventEmitter<ExampleRecord | undefined>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly session: CorpusSession) {
    super();
    this._register(this.changed);
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.update()));
    this._register(vscode.window.tabGroups.onDidChangeTabs(() => this.update()));
    this._register(session.onDidChange(() => this.update()));
    this.update();
  }

  get example(): ExampleRecord | undefined {
    return this.current;
  }

  /** The example of the active tab when it is one of our diffs and its example is in the current build. */
  private activeTabExample(): ExampleRecord | undefined {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    const uri =
      tab?.input instanceof vscode.TabInputTextDiff ? tab.input.original : vscode.window.activeTextEditor?.document.uri;
    const ref = uri ? parseDocUri(uri) : undefined;
    return ref?.kind === 'example' && this.session.corpus ? this.session.examples.view(ref)?.example : undefined;
  }

  update(): void {
    const corpus = this.session.corpus;
    const next = this.activeTabExample();
    const flagged =
      next !== undefined &&
      Number(
        corpus?.store.scalar("SELECT count(*) FROM flags WHERE example_key = ? AND status = 'open'", [next.key]) ?? 0,
      ) > 0;
    this.setContext(ContextKeys.exampleDiffActive, next !== undefined);
    this.setContext(ContextKeys.exampleFlagged, flagged);
    this.setContext(ContextKeys.exampleHasTwin, twinKey(next?.evidence ?? null) !== null);
    if (next?.id !== this.current?.id || next?.buildId !== this.current?.buildId) {
      this.current = next;
      this.changed.fire(next);
    }
  }

  /** The values last sent: this runs on every tab and editor change, and each setContext is a trip to the workbench. */
  private readonly sent = new Map<string, boolean>();

  private setContext(key: string, value: boolean): void {
    if (this.sent.get(key) === value) return;
    this.sent.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
}
