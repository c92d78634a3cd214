// The tooltip of a change a collection rule removed: what is known of it and why it left. The project
// name comes from the host, and evidence can quote host text: both go in through inertMarkdown.
import * as vscode from 'vscode';
import { whyLines } from '../../core/review/inspect/changeNote';
import type { ChangeItem } from '../../core/review/inspect/items';
import { inertMarkdown } from '../plainText';
import { untrustedMarkdown } from '../untrustedMarkdown';

export function changeTooltip(c: ChangeItem): vscode.MarkdownString {
  const md = untrustedMarkdown();
  const line = (label: string, value: string) => md.appendMarkdown(`**${label}:** ${inertMarkdown(value)}  \n`);
  line('Change', `#${c.changeNumber}`);
  line('Project', c.project);
  line('Created', c.created);
  line('Status', c.status ?? 'not recorded');
  line('Removed by', c.rule);
  for (const why of whyLines(c.rule, c.evidence)) line('Why', why);
  return md;
}
