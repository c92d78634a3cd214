// Labelling resumes where it stopped after a reload: the example last shown by a navigation, its tree
// group and place, and the tree's filter (the audit sample, say) are kept in the workspace's state. When
// the same corpus file opens again, the filter is set again and labelling goes on at the next example of
// that group you have not labelled (from the one last shown, itself included): Next/Previous go on from
// it, and its diff opens if an example diff was open when the window went.
import * as vscode from 'vscode';
import { localUserPseudonym } from '../../core/ground/privacy/localUser';
import { exampleNameOfKey } from '../../core/review/inspect/exampleName';
import { labelOf } from '../../core/review/labels/labels';
import type { ActiveExample } from '../diff/activeExample';
import { parseDocUri } from '../diff/uris';
import { Commands } from '../ids/commands';
import { Disposable } from '../lifecycle';
import { plainText } from '../plainText';
import { statusNote } from '../registerCommand';
import type { SaltStore } from '../salt';
import type { CorpusSession, OpenCorpus } from '../session';
import type { GroupNode, ItemNode } from '../tree/nodes';
import type { CorpusTree } from '../tree/registerTree';
import { filterActive, type TreeFilter } from '../tree/treeProvider';
import type { ExampleNavigator } from './navigator';

/** The workspaceState key. */
export const POSITION_KEY = 'reviewCorpus.labellingPosition';

export interface LabellingPosition {
  dbFile: string;
  exampleKey: string;
  org: string;
  window: string | null;
  rule: string;
  /** Its place in the group, for when a rebuild left it out: the example now in its place. */
  index: number;
  filter: TreeFilter;
  /** An example diff was open: it opens again. */
  showing: boolean;
}

export class LabellingResume extends Disposable {
  private tried = false;

  constructor(
    private readonly state: vscode.Memento,
    private readonly session: CorpusSession,
    private readonly tree: CorpusTree,
    private readonly navigator: ExampleNavigator,
    private readonly active: ActiveExample,
    private readonly salt: SaltStore,
  ) {
    super();
    this._register(navigator.onDidShow((n) => this.save(n)));
    this._register(vscode.window.tabGroups.onDidChangeTabs(() => this.saveShowing()));
    this._register(
      session.onDidChange((c) => {
        if (c && c.buildId !== undefined && !this.tried) void this.restore(c);
      }),
    );
  }

  private get position(): LabellingPosition | undefined {
    return this.state.get<LabellingPosition>(POSITION_KEY);
  }

  private save(n: ItemNode): void {
    const corpus = this.session.corpus;
    if (!corpus || n.item.kind !== 'example') return;
    const { org, window, rule } = n.parent.ref;
    const position: LabellingPosition = {
      dbFile: corpus.dbFile,
      exampleKey: n.item.key,
      org,
      window,
      rule,
      index: n.index,
      filter: this.tree.provider.filter,
      showing: true,
    };
    void this.state.update(POSITION_KEY, position);
  }

  /** Whether an example diff is among the tabs, kept as it changes: closing them all before a reload means none opens after it. */
  private saveShowing(): void {
    const p = this.position;
    if (!p || !this.tried) return; // the tabs the window restores are not a change of the user's
    const showing = vscode.window.tabGroups.all.some((g) =>
      g.tabs.some(
        (t) => t.input instanceof vscode.TabInputTextDiff && parseDocUri(t.input.original)?.kind === 'example',
      ),
    );
    if (showing !== p.showing) void this.state.update(POSITION_KEY, { ...p, showing });
  }

  private async restore(corpus: OpenCorpus): Promise<void> {
    this.tried = true; // once per window: later opens are the user's own
    const p = this.position;
    if (!p || p.dbFile !== corpus.dbFile) return;
    if (!filterActive(this.tree.provider.filter) && filterActive(p.filter))
      await vscode.commands.executeCommand(Commands.filter, p.filter);
    const found = this.find(p);
    if (!found) return;
    const node = (await this.nextUnlabelled(corpus, found)) ?? found.node;
    const key = node.item.kind === 'example' ? node.item.key : p.exampleKey;
    this.navigator.resumeAt(node);
    if (p.showing && this.active.example?.key !== key) await this.navigator.open(node);
    if (this.tree.view.visible) await this.tree.view.reveal(node, { select: true, focus: false });
    statusNote(`$(history) ${plainText(`Labelling resumes at ${exampleNameOfKey(key) ?? key}`)}`);
  }

  /** The example's tree item, reading the group's pages up to its place; gone from the build: the item now there. */
  private find(p: LabellingPosition): { group: GroupNode; node: ItemNode } | undefined {
    const provider = this.tree.provider;
    const group = provider.findGroup(p.org, p.window, p.rule);
    if (!group) return undefined;
    let items = provider.items(group);
    for (;;) {
      const hit = items.find((n) => n.item.kind === 'example' && n.item.key === p.exampleKey);
      if (hit) return { group, node: hit };
      if (group.loaded >= group.count || items.length > p.index + group.pageSize) break;
      provider.loadMore(group);
      items = provider.items(group);
    }
    return items.length > 0 ? { group, node: items[Math.min(p.index, items.length - 1)] } : undefined;
  }

  /**
   * The first example of the group from `node` on that carries no label of yours, reading its further
   * pages as needed; none after it: the first before it. Undefined: all are labelled, or no salt is set
   * yet (your labels cannot be told from others' without it, and a reload must not ask for it).
   */
  private async nextUnlabelled(corpus: OpenCorpus, { group, node }: { group: GroupNode; node: ItemNode }) {
    const salt = await this.salt.get();
    if (!salt) return undefined;
    const rater = localUserPseudonym(salt);
    const unlabelled = (n: ItemNode) => n.item.kind === 'example' && !labelOf(corpus.store, n.item.key, rater);
    const provider = this.tree.provider;
    for (let from = node.index; ;) {
      const items = provider.items(group);
      const hit = items.slice(from).find(unlabelled);
      if (hit) return hit;
      if (group.loaded >= group.count) return items.slice(0, node.index).find(unlabelled);
      from = items.length;
      provider.loadMore(group);
    }
  }
}
