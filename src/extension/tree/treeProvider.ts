// The corpus tree: organization → window → Kept / one node per rule → items, paged.
// Nodes are kept by id for one generation of the tree (until the next refresh), so a group's pages and
// its items stay the same objects while the tree is shown. A refresh (a label, a flag decision, a reload)
// reads each group again up to the items it had loaded, so the pages and the reviewer's place survive it.
import * as vscode from 'vscode';
import { treeGroups, type WindowGroup } from '../../core/review/inspect/groups';
import {
  filteredCounts,
  filtersItems,
  groupKey,
  listItems,
  type GroupRef,
  type ItemFilter,
} from '../../core/review/inspect/items';
import { CorpusFileError } from '../../core/ground/store/errors';
import { showError } from '../registerCommand';
import type { CorpusSession } from '../session';
import {
  nodeId,
  type CorpusNode,
  type GroupNode,
  type ItemNode,
  type Matched,
  type OrgNode,
  type WindowNode,
} from './nodes';
import { toTreeItem } from './treeItems';
import { itemTooltip } from './tooltip';
import { changeTooltip } from './changeTooltip';

export interface TreeFilter extends ItemFilter {
  org?: string;
  window?: string;
  rule?: string;
}

/** Any part of the filter set. */
export function filterActive(f: TreeFilter): boolean {
  return Boolean(f.org || f.window || f.rule || filtersItems(f));
}

export class CorpusTreeProvider implements vscode.TreeDataProvider<CorpusNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<CorpusNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: OrgNode[] | undefined;
  private readonly windowNodes = new Map<string, WindowNode[]>();
  private readonly groupNodes = new Map<string, GroupNode[]>();
  private readonly groupChildren = new Map<string, ItemNode[]>();
  /** Items per group id loaded before the last refresh, in `scope`: read again that far. */
  private keepLoaded = new Map<string, number>();
  private scope = '';
  private counts: Map<string, number> | undefined;
  private countsStore: unknown;
  filter: TreeFilter = {};

  constructor(
    private readonly session: CorpusSession,
    private readonly pageSize: () => number,
  ) {}

  refresh(): void {
    const scope = this.currentScope();
    const keep = scope === this.scope ? this.keepLoaded : new Map<string, number>();
    if (scope === this.scope) for (const [id, items] of this.groupChildren) keep.set(id, items.length);
    // A text filter's counts take a second at 100k examples; an edit (a label, a flag decision, a seal)
    // changes no comment text, so they stay while the same file is open. Flags and labels recount.
    const c = this.session.corpus;
    const textOnly = !this.filter.flagged && !this.filter.label;
    if (!(scope === this.scope && textOnly && c?.store === this.countsStore)) this.counts = undefined;
    this.countsStore = c?.store;
    this.keepLoaded = keep;
    this.scope = scope;
    this.roots = undefined;
    this.windowNodes.clear();
    this.groupNodes.clear();
    this.groupChildren.clear();
    this.changed.fire(undefined);
  }

  /** Loaded pages belong to one corpus file, build and filter; another of any of them starts at page 1. */
  private currentScope(): string {
    const c = this.session.corpus;
    return JSON.stringify([c?.dbFile, c?.buildId, this.filter]);
  }

  getTreeItem(n: CorpusNode): vscode.TreeItem {
    const item = toTreeItem(n);
    const problem =
      n.type === 'item' && n.item.kind === 'example' ? this.session.examples.problem(n.item.id) : undefined;
    if (problem) markUnreadable(item, problem);
    return item;
  }

  async resolveTreeItem(item: vscode.TreeItem, n: CorpusNode): Promise<vscode.TreeItem> {
    const corpus = this.session.corpus;
    if (n.type === 'item' && corpus)
      item.tooltip = n.item.kind === 'change' ? changeTooltip(n.item) : itemTooltip(corpus.store, n, corpus.config);
    return item;
  }

  getParent(n: CorpusNode): CorpusNode | undefined {
    return n.type === 'org' ? undefined : n.parent;
  }

  getChildren(n?: CorpusNode): CorpusNode[] {
    try {
      return this.childrenOf(n);
    } catch (e) {
      // The open corpus is read from its file as the tree needs it (SMALL_EDITS_OPEN): a file cut short
      // or overwritten under it fails here. One notification naming the file per open corpus, not one
      // per row the workbench asks for; the tree shows nothing under that node.
      if (!(e instanceof CorpusFileError)) throw e;
      const store = this.session.corpus?.store;
      if (this.reportedFor !== store) {
        this.reportedFor = store;
        showError(this.session.log, `${e.message}; run "Review Corpus: Refresh" to open it again`);
      }
      return [];
    }
  }

  /** The store whose read failure was last shown. */
  private reportedFor: unknown;

  private childrenOf(n?: CorpusNode): CorpusNode[] {
    const corpus = this.session.corpus;
    if (!corpus || corpus.buildId === undefined) return [];
    if (!n) return this.orgs();
    switch (n.type) {
      case 'org':
        return this.windows(n);
      case 'window':
        return this.groups(n);
      case 'group': {
        const items = this.items(n);
        return n.loaded < n.count && items.length === n.loaded ? [...items, { type: 'loadMore', parent: n }] : items;
      }
      default:
        return [];
    }
  }

  /** Nothing to show: no built corpus, or a filter that matches nothing. */
  isEmpty(): boolean {
    return this.getChildren().length === 0;
  }

  /** Under an item filter, the units matched in the whole tree, of those the filter looked at. */
  matched(): Matched | undefined {
    if (!filtersItems(this.filter)) return undefined;
    return sum(this.getChildren().map((o) => (o as OrgNode).filtered));
  }

  private orgs(): OrgNode[] {
    const corpus = this.session.corpus!;
    if (!this.roots) {
      const active = filterActive(this.filter);
      this.roots = treeGroups(corpus.store, corpus.buildId!)
        .filter((o) => !this.filter.org || o.org === this.filter.org)
        .map((o): OrgNode => ({
          type: 'org',
          org: o.org,
          windows: o.windows,
          kept: o.windows.reduce((k, w) => k + w.kept, 0),
          probe: o.probe,
        }))
        // A quiet tree: an organization with nothing to show is left out unless the filter names it.
        .filter((org) => this.windows(org).length > 0 || (!active && this.filter.org === org.org));
    }
    return this.roots;
  }

  private windows(org: OrgNode): WindowNode[] {
    const id = nodeId(org);
    let nodes = this.windowNodes.get(id);
    if (!nodes) {
      const active = filterActive(this.filter);
      const all = org.windows
        .filter((g) => !this.filter.window || g.window === this.filter.window)
        .map((group): WindowNode => ({ type: 'window', parent: org, group }));
      // A window with no group left is left out, unless the filter names it, or (no filter) it can still
      // be sealed: never fetched, so Seal Window is offered on it.
      nodes = all.filter(
        (w) =>
          this.groups(w).length > 0 ||
          this.filter.window === w.group.window ||
          (!active && !w.group.sealed && !w.group.fetched),
      );
      // The organization's "2 of 40" counts its windows that match nothing too.
      if (filtersItems(this.filter)) org.filtered = sum(all.map((w) => w.filtered));
      this.windowNodes.set(id, nodes);
    }
    return nodes;
  }

  private groups(n: WindowNode): GroupNode[] {
    const id = nodeId(n);
    let nodes = this.groupNodes.get(id);
    if (nodes) return nodes;
    const corpus = this.session.corpus!;
    const g = n.group;
    const base = { buildId: corpus.buildId!, org: g.org, window: g.window };
    const pageSize = this.pageSize();
    const itemFiltered = filtersItems(this.filter);
    const candidates: { ref: GroupRef; total: number; rule?: WindowGroup['rules'][number] }[] = [];
    if (!g.sealed && (!this.filter.rule || this.filter.rule === 'kept'))
      candidates.push({ ref: { ...base, rule: 'kept', unit: 'examples' }, total: g.kept });
    for (const r of g.rules) {
      if (this.filter.rule && this.filter.rule !== r.rule) continue;
      // An item filter looks at examples, and at removed comments for text; never at changes.
      if (
        itemFiltered &&
        (r.unit === 'changes' || (r.unit === 'comments' && (this.filter.flagged || this.filter.label)))
      )
        continue;
      candidates.push({ ref: { ...base, rule: r.rule, unit: r.unit as GroupRef['unit'] }, total: r.count, rule: r });
    }
    const counts = itemFiltered
      ? (this.counts ??= filteredCounts(corpus.store, corpus.buildId!, this.filter))
      : undefined;
    const all = candidates.map((c): GroupNode => ({
      type: 'group',
      parent: n,
      ref: c.ref,
      total: c.total,
      filtered: itemFiltered,
      rule: c.rule,
      pageSize,
      loaded: 0,
      count: counts ? (counts.get(groupKey(g.org, g.window, c.ref.rule)) ?? 0) : c.total,
    }));
    if (itemFiltered)
      n.filtered = { matched: all.reduce((m, x) => m + x.count, 0), total: all.reduce((t, x) => t + x.total, 0) };
    // Empty groups are hidden ("Kept (0)" under a window nothing was kept in) unless the filter names the
    // rule; a rule not counted on this host stays, saying so (never shown as 0).
    nodes = all.filter(
      (x) => x.count > 0 || (!itemFiltered && x.rule?.notCounted) || (!itemFiltered && this.filter.rule === x.ref.rule),
    );
    this.groupNodes.set(id, nodes);
    return nodes;
  }

  /** The node of one rule (or Kept) in one window, for the funnel report's "reveal". */
  findGroup(org: string, window: string | null, rule: string): GroupNode | undefined {
    const orgNode = this.getChildren().find((o) => o.type === 'org' && o.org === org);
    const winNode = orgNode && this.getChildren(orgNode).find((w) => w.type === 'window' && w.group.window === window);
    return winNode
      ? (this.getChildren(winNode).find((g) => g.type === 'group' && g.ref.rule === rule) as GroupNode | undefined)
      : undefined;
  }

  /** The group as the tree shows it now: a node from before a refresh names it, this one holds its pages. */
  currentGroup(n: GroupNode): GroupNode | undefined {
    return this.findGroup(n.ref.org, n.ref.window, n.ref.rule);
  }

  /** A loaded item node of this example, when a group the tree has expanded holds it. */
  loadedExample(exampleId: number): ItemNode | undefined {
    for (const items of this.groupChildren.values()) {
      const found = items.find((n) => n.item.kind === 'example' && n.item.id === exampleId);
      if (found) return found;
    }
    return undefined;
  }

  /** The items loaded so far for a group: the first page when it first expands, or as many as before a refresh. */
  items(n: GroupNode): ItemNode[] {
    const id = nodeId(n);
    let items = this.groupChildren.get(id);
    if (!items) {
      items = [];
      this.groupChildren.set(id, items);
      const want = this.keepLoaded.get(id) ?? 0;
      while (this.loadPage(n) === n.pageSize && items.length < want);
    }
    return items;
  }

  loadMore(n: GroupNode): void {
    const group = this.currentGroup(n) ?? n;
    this.items(group);
    this.loadPage(group);
    this.changed.fire(group);
  }

  /** Reads the group's next page; returns how many items it held. */
  private loadPage(n: GroupNode): number {
    const corpus = this.session.corpus;
    const items = this.groupChildren.get(nodeId(n));
    if (!corpus || !items) return 0;
    const last = items[items.length - 1]?.item;
    const page = listItems(
      corpus.store,
      n.ref,
      items.length,
      n.pageSize,
      this.filter,
      last?.kind === 'example' ? last.id : undefined,
    );
    for (const item of page) items.push({ type: 'item', parent: n, item, index: items.length });
    n.loaded = items.length;
    // The counts come from the build's funnel (or a filtered count); a short page ends the group whatever they say.
    if (page.length < n.pageSize) n.count = n.loaded;
    return page.length;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** An example whose files could not be read when opened: a warning icon, and why in its description and tooltip. */
function markUnreadable(item: vscode.TreeItem, problem: string): void {
  item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  item.description = `files unreadable · ${typeof item.description === 'string' ? item.description : ''}`;
  item.tooltip = `Its whole files cannot be shown: ${problem}`;
  if (item.accessibilityInformation)
    item.accessibilityInformation = { label: `${item.accessibilityInformation.label}, files unreadable: ${problem}` };
}

function sum(parts: (Matched | undefined)[]): Matched {
  return parts.reduce<Matched>(
    (s, p) => ({ matched: s.matched + (p?.matched ?? 0), total: s.total + (p?.total ?? 0) }),
    { matched: 0, total: 0 },
  );
}
