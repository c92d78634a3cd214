// Workbench steps the benchmark repeats: DOM selectors, getting the tree and editors back to a cold state,
// and picking tree nodes. All DOM access goes through the timed bridge.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ReviewCorpusApi } from '../../../src/extension';
import type { GroupNode, OrgNode, WindowNode } from '../../../src/extension/tree/nodes';
import type { TimedBridge } from './timedDom';

const SIDEBAR = '.part.sidebar';
/** A tree row at a depth: 1 organization, 2 window, 3 group (Kept / a rule), 4 item. */
export const row = (level: number, labelStart?: string) =>
  `${SIDEBAR} .monaco-list-row[aria-level="${level}"]${labelStart ? `[aria-label^=${JSON.stringify(labelStart)}]` : ''}`;
export const twistie = (rowSelector: string) => `${rowSelector} .monaco-tl-twistie`;
export const TOAST = '.notifications-toasts .notification-toast';
/** A rebuild's toast once the worker reports progress ("stage: done/total"), i.e. the build itself runs. */
export const TOAST_WITH_PROGRESS = `${TOAST}:has-text("/")`;
export const CANCEL_IN_TOAST = `${TOAST} .monaco-button:has-text("Cancel")`;
/** Both sides of the diff rendered and a comment's gutter mark drawn on the before side. */
export const DIFF_READY = '.monaco-diff-editor:has(.editor.modified .view-line) .editor.original [class*="cgmr"]';
/** A line of the before side of a diff. */
export const BEFORE_SIDE_LINE = '.monaco-diff-editor .editor.original .view-line';
/** Both sides of the diff rendered (the baseline, which draws no decorations). */
export const DIFF_SIDES_READY = '.monaco-diff-editor:has(.editor.modified .view-line) .editor.original .view-line';

export async function count(bridge: TimedBridge, selector: string): Promise<number> {
  return (await bridge.send<number>('count', { selector })).value;
}

/** Polls the DOM (through the bridge) until `selector` matches `n` elements. */
export async function untilCount(bridge: TimedBridge, selector: string, n: number, timeoutMs = 20000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  while ((last = await count(bridge, selector)) !== n) {
    if (Date.now() > deadline) throw new Error(`bench: ${selector} matched ${last}, not ${n}, after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every tree node collapsed and no row below the organizations in the DOM. */
export async function collapseTree(bridge: TimedBridge): Promise<void> {
  await vscode.commands.executeCommand('workbench.actions.treeView.reviewCorpus.tree.collapseAll');
  await untilCount(bridge, `${row(2)}, ${row(3)}, ${row(4)}`, 0);
}

/** No editor open, and no diff editor left in the DOM. */
export async function closeEditors(bridge: TimedBridge): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await untilCount(bridge, '.monaco-diff-editor', 0);
}

export function firstOrg(a: ReviewCorpusApi): OrgNode {
  const org = a.tree.provider.getChildren()[0];
  assert.ok(org?.type === 'org', 'the tree has an organization');
  return org;
}

/** The first organization's first window's first group: what "the first group" means below. */
export function firstGroup(a: ReviewCorpusApi): GroupNode {
  const win = a.tree.provider.getChildren(firstOrg(a))[0] as WindowNode;
  const group = a.tree.provider.getChildren(win)[0];
  assert.ok(group?.type === 'group', 'the first window has a group');
  return group;
}

/** The examples group with the most items, in the whole tree (the worst case for a first page). */
export function largestGroup(a: ReviewCorpusApi): GroupNode {
  const p = a.tree.provider;
  const groups = p
    .getChildren()
    .flatMap((o) => p.getChildren(o))
    .flatMap((w) => p.getChildren(w))
    .filter((g): g is GroupNode => g.type === 'group' && g.ref.unit === 'examples');
  return groups.reduce((best, g) => (g.count > best.count ? g : best));
}

/** The window of the first organization with the most kept examples. */
export function largestWindow(a: ReviewCorpusApi): WindowNode {
  const wins = a.tree.provider.getChildren(firstOrg(a)) as WindowNode[];
  return wins.filter((w) => !w.group.sealed).reduce((best, w) => (w.group.kept > best.group.kept ? w : best));
}
