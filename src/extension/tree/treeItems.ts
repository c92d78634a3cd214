// How each node looks: labels, descriptions, icons, context values and lazily resolved tooltips.
// Host and corpus-file text goes through plainText: tree labels draw no icons or links in VS Code 1.100,
// but a bidi override in a path would still reorder what shows.
import * as vscode from 'vscode';
import { Commands } from '../ids/commands';
import type { CorpusNode, GroupNode, ItemNode } from './nodes';
import { nodeId } from './nodes';
import { plainText } from '../plainText';

const NO_WINDOW = '(no window)';

export function toTreeItem(n: CorpusNode): vscode.TreeItem {
  switch (n.type) {
    case 'org': {
      const item = new vscode.TreeItem(plainText(n.org), vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = new vscode.ThemeIcon('organization');
      item.contextValue = 'org';
      return withId(item, n);
    }
    case 'window': {
      const g = n.group;
      const item = new vscode.TreeItem(g.window === null ? NO_WINDOW : plainText(g.window), vscode.TreeItemCollapsibleState.Collapsed);
      item.iconPath = new vscode.ThemeIcon(g.sealed ? 'lock' : 'calendar');
      item.description = g.sealed ? `sealed · sha256 ${plainText(g.sealHash?.slice(0, 12) ?? '')}` : `${g.kept} kept`;
      item.tooltip = g.sealed ? `Sealed window. Definition SHA-256: ${plainText(g.sealHash ?? '')}` : undefined;
      item.contextValue = g.sealed ? 'window.sealed' : 'window';
      return withId(item, n);
    }
    case 'group': return groupItem(n);
    case 'item': return itemItem(n);
    case 'loadMore': {
      const left = n.parent.count - n.parent.loaded;
      const item = new vscode.TreeItem(`Load more (${left} left)`, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: Commands.loadMore, title: 'Load more', arguments: [n.parent] };
      item.contextValue = 'loadMore';
      return withId(item, n);
    }
  }
}

function groupItem(n: GroupNode): vscode.TreeItem {
  const kept = n.ref.rule === 'kept';
  const label = `${kept ? 'Kept' : plainText(n.ref.rule)} (${n.count})`;
  const expandable = n.ref.unit !== 'changes' && n.count > 0;
  const item = new vscode.TreeItem(label, expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.iconPath = new vscode.ThemeIcon(kept ? 'pass' : 'filter');
  item.description = kept ? undefined : plainText(`${n.rule?.stage ?? ''} · ${n.ref.unit}`);
  item.contextValue = kept ? 'group.kept' : `group.rule.${n.ref.unit}`;
  return withId(item, n);
}

function itemItem(n: ItemNode): vscode.TreeItem {
  const it = n.item;
  const item = new vscode.TreeItem(`#${it.changeNumber} ${plainText(it.path)}`, vscode.TreeItemCollapsibleState.None);
  if (it.kind === 'example') {
    item.description = plainText(firstWords(it.firstComment));
    const icon = it.openFlags > 0 ? 'warning' : it.labels > 0 ? 'tag' : it.rule === null ? 'check' : 'circle-slash';
    item.iconPath = new vscode.ThemeIcon(icon, it.openFlags > 0 ? new vscode.ThemeColor('list.warningForeground') : undefined);
    item.contextValue = `example${it.rule === null ? '.kept' : '.removed'}${it.openFlags > 0 ? '.flagged' : ''}`;
    item.command = { command: Commands.openItem, title: 'Open Example', arguments: [n] };
  } else {
    item.description = plainText(firstWords(it.message));
    item.iconPath = new vscode.ThemeIcon('comment-discussion');
    item.contextValue = 'comment.removed';
    item.command = { command: Commands.openItem, title: 'Open Comment', arguments: [n] };
  }
  return withId(item, n);
}

/** The first words of a comment, on one line; shown through plainText. */
export function firstWords(text: string, max = 48): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function withId(item: vscode.TreeItem, n: CorpusNode): vscode.TreeItem {
  item.id = nodeId(n);
  return item;
}
