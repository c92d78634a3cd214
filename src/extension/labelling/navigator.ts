// Going through examples: Next/Previous Example (Alt+. / Alt+,) within a tree group, loading its next page
// when needed, and opening an item from the tree. Each is a navigation of the key queue, done once the
// example it opens is the one shown, so the label keys pressed meanwhile wait for it (keyQueue.ts).
import * as vscode from 'vscode';
import type { ActiveExample } from '../diff/activeExample';
import { openChange, openComment, openExample } from '../diff/openItem';
import type { CorpusSession } from '../session';
import type { CorpusTree } from '../tree/registerTree';
import type { CorpusNode, ItemNode } from '../tree/nodes';
import { statusNote } from '../registerCommand';
import { Disposable } from '../lifecycle';
import type { KeyQueue } from './keyQueue';

/** How long a navigation waits for the workbench to report its example as the active tab. */
const SHOWN_WITHIN_MS = 5000;

export class ExampleNavigator extends Disposable {
  /** The tree item last selected (by click, keyboard or move) and the example last opened, in the order they happened. */
  private current: ItemNode | undefined;
  private events = 0;
  private selectedAt = 0;
  private openedAt = 0;
  private readonly shown = this._register(new vscode.EventEmitter<ItemNode>());
  /** Fires with the tree item of each example a navigation showed (for resuming after a reload). */
  readonly onDidShow = this.shown.event;

  constructor(
    private readonly session: CorpusSession,
    private readonly active: ActiveExample,
    private readonly tree: CorpusTree,
    private readonly queue: KeyQueue,
  ) {
    super();
    this._register(
      tree.view.onDidChangeSelection((e) => {
        const n = e.selection[0];
        if (n?.type !== 'item') return;
        this.current = n;
        this.selectedAt = ++this.events;
      }),
    );
    this._register(
      active.onDidChange((example) => {
        if (example) this.openedAt = ++this.events;
      }),
    );
  }

  /** Next (1) or previous (-1) example of the current tree group. */
  move(step: 1 | -1): Promise<void> {
    return this.queue.navigate(() => this.moveNow(step));
  }

  /** Opens a tree item (a click) or an example by id; what shows an example's diff is a navigation. */
  open(n: CorpusNode | { exampleId: number }): Promise<unknown> {
    const showsExample = 'exampleId' in n || (n.type === 'item' && n.item.kind !== 'change');
    return showsExample ? this.queue.navigate(() => this.openNow(n)) : this.openNow(n);
  }

  private async openNow(n: CorpusNode | { exampleId: number }): Promise<unknown> {
    if ('exampleId' in n) return this.show(n.exampleId, () => openExample(this.session, n.exampleId));
    if (n.type !== 'item') return undefined;
    const item = n.item;
    if (item.kind === 'change') return openChange(this.session, item.id, item.changeNumber);
    if (item.kind === 'example') {
      this.resumeAt(n); // a click passes its item: Next/Previous go on from it even before the selection event
      return this.show(item.id, () => openExample(this.session, item.id), n);
    }
    // A removed comment shows its example's diff when it reached one, else a note.
    const exampleId = item.exampleId;
    if (exampleId === null) return openComment(this.session, item.id);
    return this.show(exampleId, () => openComment(this.session, item.id));
  }

  /** Where Next/Previous go on from (an item opened, or a position restored after a reload). */
  resumeAt(n: ItemNode): void {
    this.current = n;
    this.selectedAt = ++this.events;
  }

  private async moveNow(step: 1 | -1): Promise<void> {
    // From the later of the two: a selection moved by keyboard since the example opened, or the example
    // opened since the selection (where a loaded group lists it: one opened while the view was hidden
    // leaves no selection behind). A selection event can come after the open it caused, or never (the
    // same item id stays selected across corpora), so an older selection must not win.
    const provider = this.tree.provider;
    const opened = this.active.example ? provider.loadedExample(this.active.example.id) : undefined;
    const from =
      opened && (!this.current || this.openedAt > this.selectedAt) ? opened : (this.current ?? this.selected());
    if (!from) throw new Error('open an example from the tree first');
    // An edit (a label) refreshed the tree: `from` is a node of before; the group now holds its pages.
    const group = provider.currentGroup(from.parent) ?? from.parent;
    let siblings = provider.items(group);
    const at = siblings.findIndex((s) => s.item.kind === from.item.kind && s.item.id === from.item.id);
    // Gone from the group (a label filter it no longer matches): the item now in its place is next.
    const index = at >= 0 ? at + step : step > 0 ? from.index : from.index - 1;
    if (index >= siblings.length && group.loaded < group.count) {
      provider.loadMore(group);
      siblings = provider.items(group);
    }
    if (index < 0 || index >= siblings.length) {
      statusNote(step > 0 ? 'Last example in this group' : 'First example in this group');
      return;
    }
    const next = siblings[index];
    this.current = next;
    this.selectedAt = ++this.events;
    await this.tree.view.reveal(next, { select: true, focus: false });
    await this.openNow(next);
  }

  /** Opens an example and waits until the workbench shows it, so what comes next in the queue applies to it. */
  private async show<T>(id: number, open: () => Promise<T>, node?: ItemNode): Promise<T> {
    const opened = await open();
    this.active.update();
    if (this.active.example?.id !== id) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          listener.dispose();
          resolve();
        };
        const timer = setTimeout(done, SHOWN_WITHIN_MS);
        const listener = this.active.onDidChange((e) => {
          if (e?.id === id) done();
        });
      });
    }
    const shownNode = node ?? this.tree.provider.loadedExample(id);
    if (shownNode && this.active.example?.id === id) this.shown.fire(shownNode);
    return opened;
  }

  private selected(): ItemNode | undefined {
    const sel = this.tree.view.selection[0];
    return sel?.type === 'item' ? sel : undefined;
  }
}
