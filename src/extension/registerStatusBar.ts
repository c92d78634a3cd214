// A status bar item: corpus name, kept examples and build number; clicking opens the funnel report.
import * as vscode from 'vscode';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';

export function registerStatusBar(session: CorpusSession): vscode.Disposable[] {
  const item = vscode.window.createStatusBarItem('reviewCorpus.status', vscode.StatusBarAlignment.Left, 10);
  item.name = 'Review Corpus';
  item.command = Commands.showFunnel;
  const update = () => {
    const c = session.corpus;
    if (!c) return item.hide();
    const kept = c.buildId === undefined ? undefined : Number(c.store.scalar("SELECT count(*) FROM decisions WHERE build_id = ? AND unit = 'examples' AND rule = 'kept'", [c.buildId]));
    item.text = `$(database) ${c.config.name}: ${kept === undefined ? 'not built' : `${kept.toLocaleString('en-US')} kept · build ${c.buildId}`}`;
    item.tooltip = `Review Corpus ${c.config.name}\n${c.dbFile}`;
    item.show();
  };
  update();
  return [item, session.onDidChange(update)];
}
