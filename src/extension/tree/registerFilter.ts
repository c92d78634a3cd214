// Filter… : narrow the tree by organization, window, rule, flagged, label and text in comments.
// The active filter shows in the view's description.
import * as vscode from 'vscode';
import { LABELS } from '../../core/labels/labels';
import { Commands } from '../ids/commands';
import type { CorpusSession } from '../session';
import type { CorpusTree } from './registerTree';
import type { TreeFilter } from './treeProvider';
import { plainText } from '../plainText';

type FilterPick = vscode.QuickPickItem & { apply?: (f: TreeFilter) => void };

export function describeFilter(f: TreeFilter): string {
  const parts = [f.org, f.window, f.rule, f.flagged ? 'flagged' : undefined, f.label ? `label ${f.label}` : undefined, f.text ? `“${f.text}”` : undefined];
  return parts.filter(Boolean).join(' · ');
}

export function registerFilter(session: CorpusSession, tree: CorpusTree, updateDescription: () => void): vscode.Disposable[] {
  const apply = (f: TreeFilter) => {
    tree.provider.filter = f;
    tree.provider.refresh();
    updateDescription();
  };
  return [
    vscode.commands.registerCommand(Commands.filter, async (preset?: TreeFilter) => {
      if (preset) return apply(preset);
      const corpus = session.corpus;
      if (!corpus || corpus.buildId === undefined) return void vscode.window.showWarningMessage('Review Corpus: open a built corpus first.');
      const orgs = corpus.store.all<{ org: string }>('SELECT org FROM hosts ORDER BY org').map((r) => r.org);
      const windows = corpus.store.all<{ name: string }>('SELECT name FROM windows ORDER BY from_date').map((r) => r.name);
      const rules = corpus.store.all<{ rule: string }>('SELECT DISTINCT rule FROM decisions WHERE build_id = ? ORDER BY rule', [corpus.buildId]).map((r) => r.rule);
      const items: FilterPick[] = [
        { label: 'Organization', kind: vscode.QuickPickItemKind.Separator },
        ...orgs.map((o) => ({ label: plainText(o), description: 'organization', apply: (f: TreeFilter) => { f.org = o; } })),
        { label: 'Window', kind: vscode.QuickPickItemKind.Separator },
        ...windows.map((w) => ({ label: plainText(w), description: 'window', apply: (f: TreeFilter) => { f.window = w; } })),
        { label: 'Rule', kind: vscode.QuickPickItemKind.Separator },
        ...rules.map((r) => ({ label: plainText(r), description: 'rule', apply: (f: TreeFilter) => { f.rule = r; } })),
        { label: 'Examples', kind: vscode.QuickPickItemKind.Separator },
        { label: 'Flagged only', apply: (f) => { f.flagged = true; } },
        ...LABELS.map((l) => ({ label: `Label: ${l}`, apply: (f: TreeFilter) => { f.label = l; } })),
        { label: 'Text in comments…', description: 'asks for the text', apply: () => undefined },
      ];
      const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: 'Filter the corpus tree', placeHolder: 'Pick one value per kind' });
      if (!picked) return;
      const f: TreeFilter = {};
      for (const p of picked) p.apply?.(f);
      if (picked.some((p) => p.label === 'Text in comments…')) {
        const text = await vscode.window.showInputBox({ title: 'Text in comments', prompt: 'Case-insensitive substring' });
        if (text) f.text = text;
      }
      apply(f);
    }),
    vscode.commands.registerCommand(Commands.clearFilter, () => apply({})),
  ];
}
