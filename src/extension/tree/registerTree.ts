import * as vscode from 'vscode';
import { Commands } from '../ids/commands';
import { SETTINGS_SECTION, Settings } from '../ids/settings';
import { Views } from '../ids/views';
import type { CorpusSession } from '../session';
import type { CorpusNode, GroupNode } from './nodes';
import { CorpusTreeProvider } from './treeProvider';
import { describeFilter, registerFilter } from './registerFilter';
import { plainText } from '../plainText';

export interface CorpusTree {
  provider: CorpusTreeProvider;
  view: vscode.TreeView<CorpusNode>;
}

export function registerTree(session: CorpusSession): { tree: CorpusTree; disposables: vscode.Disposable[] } {
  const pageSize = () => vscode.workspace.getConfiguration(SETTINGS_SECTION).get<number>(Settings.pageSize, 200);
  const provider = new CorpusTreeProvider(session, pageSize);
  const view = vscode.window.createTreeView(Views.tree, { treeDataProvider: provider, showCollapseAll: true });
  const updateDescription = () => {
    const c = session.corpus;
    const filter = describeFilter(provider.filter);
    view.description = filter ? `filter: ${plainText(filter)}` : c ? `${plainText(c.config.name)}${c.buildId === undefined ? ' · not built' : ` · build ${c.buildId}`}` : undefined;
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
      vscode.commands.registerCommand(Commands.loadMore, (n: GroupNode) => provider.loadMore(n)),
      vscode.commands.registerCommand(Commands.refresh, () => session.reload()),
      ...registerFilter(session, tree, updateDescription),
    ],
  };
}
