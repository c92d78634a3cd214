// The corpus tree: organization → window → Kept / one node per rule → items, paged.
import * as vscode from 'vscode';
import { treeGroups } from '../../core/inspect/groups';
import { listItems, type GroupRef, type ItemFilter } from '../../core/inspect/items';
import type { CorpusSession } from '../session';
import type { CorpusNode, GroupNode, ItemNode, OrgNode, WindowNode } from './nodes';
import { toTreeItem } from './treeItems';
import { itemTooltip } from './tooltip';

export interface TreeFilter extends ItemFilter {
  org?: string;
  window?: string;
  rule?: string;
}

export class CorpusTreeProvider implements vscode.TreeDataProvider<CorpusNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<CorpusNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: OrgNode[] = [];
  private readonly groupChildren = new Map<GroupNode, ItemNode[]>();
  filter: TreeFilter = {};

  constructor(private readonly session: CorpusSession, private readonly pageSize: () => number) {}

  refresh(): void {
    this.roots = [];
    this.groupChildren.clear();
    this.changed.fire(undefined);
  }

  getTreeItem(n: CorpusNode): vscode.TreeItem {
    return toTreeItem(n);
  }

  async resolveTreeItem(item: vscode.TreeItem, n: CorpusNode): Promise<vscode.TreeItem> {
    const corpus = this.session.corpus;
    if (n.type === 'item' && corpus) item.tooltip = itemTooltip(corpus.store, n);
    return item;
  }

  getParent(n: CorpusNode): CorpusNode | undefined {
    return n.type === 'org' ? undefined : n.parent;
  }

  getChildren(n?: CorpusNode): CorpusNode[] {
    const corpus = this.session.corpus;
    if (!corpus || corpus.buildId === undefined) return [];
    if (!n) return this.orgs();
    switch (n.type) {
      case 'org': return n.windows.filter((g) => !this.filter.window || g.window === this.filter.window).map((group) => ({ type: 'window', parent: n, group }) as WindowNode);
      case 'window': return this.groups(n);
      case 'group': {
        const items = this.items(n);
        return n.loaded < n.count && items.length === n.loaded ? [...items, { type: 'loadMore', parent: n }] : items;
      }
      default: return [];
    }
  }

  private orgs(): OrgNode[] {
    const corpus = this.session.corpus!;
    if (this.roots.length === 0) {
      this.roots = treeGroups(corpus.store, corpus.buildId!).map((o) => ({ type: 'org', org: o.org, windows: o.windows }));
    }
    return this.roots.filter((o) => !this.filter.org || o.org === this.filter.org);
  }

  private groups(n: WindowNode): GroupNode[] {
    const corpus = this.session.corpus!;
    const g = n.group;
    const base = { buildId: corpus.buildId!, org: g.org, window: g.window };
    const pageSize = this.pageSize();
    const nodes: GroupNode[] = [];
    const itemFiltered = Boolean(this.filter.flagged || this.filter.label || this.filter.text);
    if (!g.sealed && (!this.filter.rule || this.filter.rule === 'kept')) {
      nodes.push({ type: 'group', parent: n, ref: { ...base, rule: 'kept', unit: 'examples' }, count: g.kept, pageSize, loaded: 0 });
    }
    for (const r of g.rules) {
      if (this.filter.rule && this.filter.rule !== r.rule) continue;
      if (itemFiltered && r.unit === 'changes') continue;
      nodes.push({ type: 'group', parent: n, ref: { ...base, rule: r.rule, unit: r.unit as GroupRef['unit'] }, count: r.count, rule: r, pageSize, loaded: 0 });
    }
    return nodes;
  }

  /** The node of one rule (or Kept) in one window, for the funnel report's "reveal". */
  findGroup(org: string, window: string | null, rule: string): GroupNode | undefined {
    const orgNode = this.getChildren().find((o) => o.type === 'org' && o.org === org);
    const winNode = orgNode && this.getChildren(orgNode).find((w) => w.type === 'window' && w.group.window === window);
    return winNode ? (this.getChildren(winNode).find((g) => g.type === 'group' && g.ref.rule === rule) as GroupNode | undefined) : undefined;
  }

  /** The items loaded so far for a group; the first page is read when the group first expands. */
  items(n: GroupNode): ItemNode[] {
    let items = this.groupChildren.get(n);
    if (!items) {
      items = [];
      this.groupChildren.set(n, items);
      this.loadPage(n);
    }
    return items;
  }

  loadMore(n: GroupNode): void {
    this.loadPage(n);
    this.changed.fire(n);
  }

  private loadPage(n: GroupNode): void {
    const corpus = this.session.corpus;
    const items = this.groupChildren.get(n);
    if (!corpus || !items) return;
    const last = items[items.length - 1]?.item;
    const page = listItems(corpus.store, n.ref, items.length, n.pageSize, this.filter, last?.kind === 'example' ? last.id : undefined);
    for (const item of page) items.push({ type: 'item', parent: n, item, index: items.length });
    n.loaded = items.length;
    // With an item filter the true count is unknown until the last page; stop offering more then.
    if (page.length < n.pageSize) n.count = n.loaded;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
