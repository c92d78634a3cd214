// The tree's node kinds. Each knows its parent so TreeView.reveal and next/previous can walk the tree.
import type { WindowGroup, RuleCount } from '../../core/review/inspect/groups';
import type { GroupRef, Item } from '../../core/review/inspect/items';

/** Under an item filter (flagged, label, text): how many of the node's units match, of how many the filter looks at. */
export interface Matched {
  matched: number;
  total: number;
}

/** `probe`: the comment-count probe's line from the build's funnel. */
export interface OrgNode {
  type: 'org';
  org: string;
  windows: WindowGroup[];
  kept: number;
  filtered?: Matched;
  probe?: string;
}
export interface WindowNode {
  type: 'window';
  parent: OrgNode;
  group: WindowGroup;
  filtered?: Matched;
}
/** `count` is what the group lists (under a filter, the filtered count); `total` its count in the build. */
export interface GroupNode {
  type: 'group';
  parent: WindowNode;
  ref: GroupRef;
  count: number;
  total: number;
  filtered: boolean;
  rule?: RuleCount;
  pageSize: number;
  loaded: number;
}
export interface ItemNode {
  type: 'item';
  parent: GroupNode;
  item: Item;
  index: number;
}
export interface LoadMoreNode {
  type: 'loadMore';
  parent: GroupNode;
}

export type CorpusNode = OrgNode | WindowNode | GroupNode | ItemNode | LoadMoreNode;

export function nodeId(n: CorpusNode): string {
  switch (n.type) {
    case 'org':
      return `org:${n.org}`;
    case 'window':
      return `${nodeId(n.parent)}/win:${n.group.window ?? '-'}`;
    case 'group':
      return `${nodeId(n.parent)}/rule:${n.ref.rule}:${n.ref.unit}`;
    case 'item':
      return `${nodeId(n.parent)}/${n.item.kind}:${n.item.id}`;
    case 'loadMore':
      return `${nodeId(n.parent)}/more`;
  }
}
