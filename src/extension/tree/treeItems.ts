// How each node looks: labels, descriptions, icons, context values and lazily resolved tooltips.
// Host and corpus-file text goes through plainText: tree labels draw no icons or links in VS Code 1.100,
// but a bidi override in a path would still reorder what shows.
import * as vscode from 'vscode';
import { Commands } from '../ids/commands';
import { FUNNEL } from '../../core/rules/funnel';
import type { CorpusNode, GroupNode, ItemNode, Matched } from './nodes';
import type { ExampleItem } from '../../core/review/inspect/items';
import { nodeId } from './nodes';
import { plainText } from '../plainText';
import { PROBE_NOT_RUN } from '../../core/build/reports/funnelNotes';

const NO_WINDOW = '(no window)';

/** "2 of 15": under an item filter, what matches of what the filter looked at. */
const ofTotal = (m: Matched) => `${m.matched} of ${m.total}`;

export function toTreeItem(n: CorpusNode): vscode.TreeItem {
  switch (n.type) {
    case 'org': {
      const item = new vscode.TreeItem(plainText(n.org), vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = new vscode.ThemeIcon('organization');
      item.description = n.filtered ? ofTotal(n.filtered) : `${n.kept} kept`;
      // The probe's line is the build's own text; it is what decides whether no_comments could be trusted.
      item.tooltip = `${n.filtered ? `${ofTotal(n.filtered)} match the filter` : `${n.kept} examples kept`}\nComment-count ${n.probe ?? PROBE_NOT_RUN}`;
      item.accessibilityInformation = {
        label: `${plainText(n.org)}, organization, ${n.filtered ? `${ofTotal(n.filtered)} match the filter` : `${n.kept} kept`}`,
      };
      item.contextValue = 'org';
      return withId(item, n);
    }
    case 'window': {
      const g = n.group;
      const item = new vscode.TreeItem(
        g.window === null ? NO_WINDOW : plainText(g.window),
        vscode.TreeItemCollapsibleState.Collapsed,
      );
      item.iconPath = new vscode.ThemeIcon(g.sealed ? 'lock' : 'calendar');
      const name = g.window === null ? NO_WINDOW : plainText(g.window);
      // Short, to fit a default-width sidebar: the seal's hash is in the tooltip.
      item.description = n.filtered
        ? ofTotal(n.filtered)
        : g.sealed
          ? 'sealed'
          : !g.fetched
            ? 'not fetched'
            : `${g.kept} kept`;
      item.tooltip = g.sealed
        ? `Sealed window. Definition SHA-256: ${plainText(g.sealHash ?? '')}`
        : n.filtered
          ? `${ofTotal(n.filtered)} match the filter`
          : !g.fetched
            ? 'Not fetched yet: it can be sealed (Seal Window) before its first fetch.'
            : `${g.kept} examples kept`;
      // Without it the accessible name is the tooltip (VS Code reads a string tooltip before the label).
      item.accessibilityInformation = {
        label: `${name}, ${g.sealed ? 'sealed' : n.filtered ? `${ofTotal(n.filtered)} match the filter` : !g.fetched ? 'not fetched' : `${g.kept} kept`}`,
      };
      // Only a window never fetched can be sealed (sealWindow): the menu offers Seal Window on those alone.
      item.contextValue = g.sealed ? 'window.sealed' : g.fetched ? 'window' : 'window.sealable';
      return withId(item, n);
    }
    case 'group':
      return groupItem(n);
    case 'item':
      return itemItem(n);
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
  const name = kept ? 'Kept' : plainText(n.ref.rule);
  const notCounted = n.rule?.notCounted;
  // Not counted is never shown as 0: the node says so, and has nothing under it.
  const item = new vscode.TreeItem(
    notCounted ? `${name} (not counted)` : `${name} (${n.count})`,
    n.count > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.iconPath = new vscode.ThemeIcon(kept ? 'pass' : 'filter');
  const stage = n.rule?.stage;
  // The stage only when it says more than the unit: "comments", not "comments · comments".
  item.description = kept
    ? undefined
    : plainText(stage && stage !== n.ref.unit ? `${stage} · ${n.ref.unit}` : n.ref.unit);
  const matched = n.filtered ? `, ${n.count} of ${n.total} match the filter` : '';
  const what = kept
    ? 'examples this build kept'
    : (FUNNEL.find((s) => s.rule === n.ref.rule)?.description ?? `removed by ${n.ref.rule}`);
  // A reason can quote the host (its Gerrit version): plain text, like every host string in the tree.
  const gap = notCounted
    ? `\nnot counted on this host: ${plainText(notCounted)}`
    : n.rule?.partly
      ? `\npartly counted: ${plainText(n.rule.partly)}`
      : '';
  item.tooltip = `${kept ? 'Kept' : n.ref.rule}: ${what}${stage ? ` (${stage} stage)` : ''}${gap}${n.filtered ? `\n${n.count} of ${n.total} match the filter` : ''}`;
  item.accessibilityInformation = {
    label: kept
      ? `Kept, ${n.count} examples${matched}`
      : notCounted
        ? `${name}, not counted`
        : `${name}, removed ${n.count} ${n.ref.unit}${matched}`,
  };
  item.contextValue = kept ? 'group.kept' : `group.rule.${n.ref.unit}`;
  return withId(item, n);
}

function itemItem(n: ItemNode): vscode.TreeItem {
  const it = n.item;
  if (it.kind === 'change') {
    const item = new vscode.TreeItem(
      `#${it.changeNumber} ${plainText(it.project)}`,
      vscode.TreeItemCollapsibleState.None,
    );
    item.description = plainText(it.created.slice(0, 10));
    item.iconPath = new vscode.ThemeIcon('git-pull-request-closed');
    item.accessibilityInformation = {
      label: `change #${it.changeNumber}, ${plainText(it.project)}, created ${plainText(it.created.slice(0, 10))}, removed by ${plainText(it.rule)}`,
    };
    item.contextValue = 'change.removed';
    item.command = { command: Commands.openItem, title: 'Open Change', arguments: [n] };
    return withId(item, n);
  }
  // Short, to fit a default-width sidebar: the change and the file's name; the full path is in the
  // tooltip and in what a screen reader hears.
  const label = `#${it.changeNumber} ${plainText(fileName(it.path))}`;
  const spoken = `#${it.changeNumber} ${plainText(it.path)}`;
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  if (it.kind === 'example') {
    item.description = plainText(firstWords(it.firstComment));
    const leaving = leavesAtNextBuild(it);
    const icon =
      it.openFlags > 0
        ? 'warning'
        : leaving
          ? 'sign-out'
          : it.labels > 0
            ? 'tag'
            : it.rule === null
              ? 'check'
              : 'circle-slash';
    item.iconPath = new vscode.ThemeIcon(
      icon,
      it.openFlags > 0
        ? new vscode.ThemeColor('list.warningForeground')
        : leaving
          ? new vscode.ThemeColor('list.deemphasizedForeground')
          : undefined,
    );
    item.contextValue = `example${it.rule === null ? '.kept' : '.removed'}${it.twin !== null ? '.duplicate' : ''}${it.openFlags > 0 ? '.flagged' : ''}`;
    // The icon says kept, removed, flagged or labelled; a screen reader hears it here.
    const state = [
      it.rule === null ? 'kept example' : `example removed by ${plainText(it.rule)}`,
      it.openFlags > 0 ? `${it.openFlags} open flag${it.openFlags > 1 ? 's' : ''}` : '',
      leaving ? LEAVES_AT_NEXT_BUILD : '',
      it.labels > 0 ? 'labelled' : '',
    ];
    item.accessibilityInformation = {
      label: [spoken, ...state.filter(Boolean), item.description].filter(Boolean).join(', '),
    };
    item.command = { command: Commands.openItem, title: 'Open Example', arguments: [n] };
  } else {
    item.description = plainText(firstWords(it.message));
    item.iconPath = new vscode.ThemeIcon('comment-discussion');
    item.accessibilityInformation = {
      label: `${spoken}, comment removed by ${plainText(it.rule)}, ${item.description}`,
    };
    item.contextValue = 'comment.removed';
    item.command = { command: Commands.openItem, title: 'Open Comment', arguments: [n] };
  }
  return withId(item, n);
}

export const LEAVES_AT_NEXT_BUILD = 'confirmed: leaves at the next build';

/** A kept example with a confirmed flag: it stays in Kept until a build applies manual_flag. */
export function leavesAtNextBuild(it: ExampleItem): boolean {
  return it.rule === null && it.confirmedFlags > 0;
}

/** A host path's last segment (the whole path when it has none). */
export const fileName = (hostPath: string): string => hostPath.split('/').filter(Boolean).pop() ?? hostPath;

/** The first words of a comment, on one line; shown through plainText. */
export function firstWords(text: string, max = 48): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function withId(item: vscode.TreeItem, n: CorpusNode): vscode.TreeItem {
  item.id = nodeId(n);
  return item;
}
