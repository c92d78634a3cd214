// Labels from the keys (Ctrl+Alt+1/2/3), Label… and the tree's menu, and Undo Last Label (Ctrl+Z): each
// runs in the key queue, so it applies to the example shown once the moves pressed before it are done.
// Every label given is confirmed in the status bar (the example's name, the label, the progress), and
// can be undone, last first: back to the label it replaced, with that label's time, or to none.
import * as vscode from 'vscode';
import { localUserPseudonym } from '../../core/ground/privacy/localUser';
import { exampleNameOfKey } from '../../core/review/inspect/exampleName';
import { describeProgress } from '../../core/review/labels/labelProgress';
import { labelOf, type Label } from '../../core/review/labels/labels';
import type { ActiveExample } from '../diff/activeExample';
import { ContextKeys } from '../ids/contextKeys';
import { Disposable } from '../lifecycle';
import { plainText } from '../plainText';
import { statusNote } from '../registerCommand';
import type { SaltStore } from '../salt';
import type { CorpusSession } from '../session';
import type { CorpusNode } from '../tree/nodes';
import type { KeyQueue } from './keyQueue';
import type { LabelProgressItem } from './progressItem';

export const LABEL_TEXT: Record<Label, string> = {
  answers: 'Rewrite answers its comment',
  does_not: 'Rewrite does not answer its comment',
  unsure: 'Unsure',
};

/** A label given in this window, and what it replaced. */
interface Given {
  exampleKey: string;
  rater: string;
  label: Label;
  replaced: { label: Label; at: string } | undefined;
}

/** How many labels Undo can go back through. */
const UNDO_DEPTH = 500;

export class Labeller extends Disposable {
  private given: Given[] = [];
  private givenIn: string | undefined;
  /** Labels and undos pressed and not run yet: Ctrl+Z must be bound as soon as a label key is pressed. */
  private queuedLabels = 0;
  private queuedUndos = 0;
  private undoable = false;

  constructor(
    private readonly session: CorpusSession,
    private readonly salt: SaltStore,
    private readonly active: ActiveExample,
    private readonly queue: KeyQueue,
    private readonly progress: LabelProgressItem,
  ) {
    super();
    this._register(
      session.onDidChange((c) => {
        if (c?.dbFile === this.givenIn) return;
        this.given = []; // another corpus: its labels are not this one's to undo
        this.givenIn = c?.dbFile;
        this.syncUndoable();
      }),
    );
    void vscode.commands.executeCommand('setContext', ContextKeys.labelUndoable, false);
  }

  /** Labels the example shown once the keys before this one have run (or the tree item `n`); no `l`: asks. */
  label(l?: Label, n?: CorpusNode): Promise<void> {
    this.queuedLabels++;
    this.syncUndoable();
    return this.queue
      .run(() => this.labelNow(l, n))
      .finally(() => {
        this.queuedLabels--;
        this.syncUndoable();
      });
  }

  undo(): Promise<void> {
    this.queuedUndos++;
    this.syncUndoable();
    return this.queue
      .run(() => this.undoNow())
      .finally(() => {
        this.queuedUndos--;
        this.syncUndoable();
      });
  }

  private async labelNow(l: Label | undefined, n: CorpusNode | undefined): Promise<void> {
    const key = n?.type === 'item' && n.item.kind === 'example' ? n.item.key : this.active.example?.key;
    if (!key) {
      void vscode.window.showWarningMessage('Review Corpus: no example is shown, so the label was not recorded.');
      return;
    }
    const chosen = l ?? (await this.pick());
    if (!chosen) return;
    const rater = await this.rater();
    const corpus = this.session.corpus;
    if (!corpus) throw new Error('no corpus is open, so the label was not recorded');
    const replaced = labelOf(corpus.store, key, rater);
    this.session.edit({ kind: 'label', exampleKey: key, rater, label: chosen, at: new Date().toISOString() });
    this.given.push({ exampleKey: key, rater, label: chosen, replaced });
    if (this.given.length > UNDO_DEPTH) this.given.shift();
    await this.confirm('$(tag)', `${this.nameOf(key)}: ${LABEL_TEXT[chosen]}`);
  }

  private async undoNow(): Promise<void> {
    const last = this.given.pop();
    if (!last) return void statusNote('$(discard) No label to undo');
    const { exampleKey, rater, replaced } = last;
    try {
      this.session.edit(
        replaced
          ? { kind: 'label', exampleKey, rater, label: replaced.label, at: replaced.at }
          : { kind: 'unlabel', exampleKey, rater },
      );
    } catch (e) {
      this.given.push(last); // not undone (a rebuild holds the file): still the last label
      throw e;
    }
    const now = replaced ? `back to ${LABEL_TEXT[replaced.label]}` : 'no label';
    await this.confirm('$(discard)', `Undid ${LABEL_TEXT[last.label]} on ${this.nameOf(exampleKey)}: ${now}`);
  }

  /** The note (its text names an example: host text, shown plain), with the progress after it (how many so far). */
  private async confirm(icon: string, text: string): Promise<void> {
    await this.progress.update();
    const p = await this.progress.current();
    statusNote(`${icon} ${plainText(p ? `${text} · ${describeProgress(p)}` : text)}`);
  }

  private nameOf(key: string): string {
    return exampleNameOfKey(key) ?? key;
  }

  private async pick(): Promise<Label | undefined> {
    const pick = await vscode.window.showQuickPick(
      (Object.keys(LABEL_TEXT) as Label[]).map((k) => ({ label: LABEL_TEXT[k], value: k })),
      { title: 'Label this example' },
    );
    return pick?.value;
  }

  private async rater(): Promise<string> {
    const s = await this.salt.getOrAsk();
    if (!s) throw new Error('a salt is needed to record your rater pseudonym (Review Corpus: Set Salt…)');
    return localUserPseudonym(s);
  }

  private syncUndoable(): void {
    const undoable = this.queuedLabels + this.given.length - this.queuedUndos > 0;
    if (undoable === this.undoable) return;
    this.undoable = undoable;
    void vscode.commands.executeCommand('setContext', ContextKeys.labelUndoable, undoable);
  }
}
