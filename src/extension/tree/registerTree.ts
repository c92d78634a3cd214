import * as vscode from 'vscode';
import { Commands } from '../ids/commands';
import { ContextKeys } from '../ids/contextKeys';
import { SETTINGS_SECTION, Settings } from '../ids/settings';
import { Views } from '../ids/views';
import type { CorpusSession } from '../session';
import type { CorpusNode, GroupNode } from './nodes';
import { CorpusTreeProvider } from './treeProvider';
import { describeFilter, registerFilter } from './registerFilter';
import { plainText } from '../plainText';
import { registerCommand } from '../registerCommand';
import { buildLabel } from '../../core/publish/versions/tags';

export interface CorpusTree {
  provider: CorpusTreeProvider;
  view: vscode.TreeView<CorpusNode>;
}

export function registerTree(session: CorpusSession): { tree: CorpusTree; disposables: vscode.Disposable[] } {
  const pageSize = () => vscode.workspace.getConfiguration(SETTINGS_SECTION).get<number>(Settings.pageSize, 200);
  const provider = new CorpusTreeProvider(session, pageSize);
  const view = vscode.window.createTreeView(Views.tree, { treeDataProvider: provider, showCollapseAll: true });
  // The view's title is cut at the default width ("REVIEW CORPUS: C…"), so the corpus, its build and
  // the filter also show in the view's message, above the tree. A message hides the welcome content,
  // so an empty tree (a filter that matches nothing) gets none and shows its welcome instead.
  const updateDescription = () => {
    const c = session.corpus;
    const filter = describeFilter(provider.filter);
    void vscode.commands.executeCommand('setContext', ContextKeys.filterActive, filter !== '');
    const matched = provider.matched();
    const parts = c
      ? [plainText(c.config.name), c.buildId === undefined ? 'not built' : plainText(buildLabel(c.store, c.buildId))]
      : [];
    if (filter) parts.push(`filter: ${plainText(filter)}${matched ? ` (${matched.matched} of ${matched.total})` : ''}`);
    view.description = parts.length > 0 ? parts.join(' · ') : undefined;
    view.message = c?.buildId !== undefined && !provider.isEmpty() ? parts.join(' · ') : undefined;
  };
  updateDescription();
  const tree = { provider, view };
  return {
    tree,
    disposables: [
      provider,
      view,
      session.onDidChange(() => {
        provider.refresh();
        updateDescription();
      }),
      session.examples.onDidFindProblem(() => provider.refresh()),
      registerCommand(session.log, Commands.loadMore, (n: GroupNode) => provider.loadMore(n)),
      registerCommand(session.log, Commands.refresh, () => session.reload()),
      ...registerFilter(session, provider, updateDescription),
    ],
  };
}
