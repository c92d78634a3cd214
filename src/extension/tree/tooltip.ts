// The item tooltip, resolved only when hovered. Host text goes in through inertMarkdown (bidi marks
// shown, all markdown escaped); so does a removal's evidence, which can quote host text.
import * as vscode from 'vscode';
import {
  commentEvidence,
  decisionEvidence,
  evidenceLines,
  findTwin,
  twinStatus,
} from '../../core/review/inspect/evidence';
import type { CorpusStore } from '../../core/ground/store/corpusStore';
import { flagStatus } from '../../core/build/flags/flagDecisions';
import type { ItemNode } from './nodes';
import { inertMarkdown } from '../plainText';
import { LEAVES_AT_NEXT_BUILD, leavesAtNextBuild } from './treeItems';
import { untrustedMarkdown } from '../untrustedMarkdown';
import type { CorpusConfig } from '../../core/ground/config/types';
import { exampleJudgeLines } from './judgeTooltip';

/** `config`: whose judgments the Judge line shows (its judge.model; absent: the latest of any model). */
export function itemTooltip(store: CorpusStore, n: ItemNode, config?: CorpusConfig): vscode.MarkdownString {
  const md = untrustedMarkdown();
  const it = n.item;
  if (it.kind === 'change') return md; // a removed change has its own tooltip (changeTooltip.ts)
  const ref = n.parent.ref;
  if (it.kind === 'example' && leavesAtNextBuild(it)) md.appendMarkdown(`**${LEAVES_AT_NEXT_BUILD}**  \n`);
  const line = (label: string, value: string) => {
    md.appendMarkdown(`**${label}:** `);
    md.appendMarkdown(inertMarkdown(value));
    md.appendMarkdown('  \n');
  };
  line('Project', it.project);
  line('Change', `#${it.changeNumber}`);
  line('File', it.path);
  line('Window', ref.window ?? '(no window)');
  line('Rule', it.kind === 'example' ? (it.rule ?? 'kept') : it.rule);
  const evidence =
    it.kind === 'example'
      ? it.rule === null
        ? null
        : decisionEvidence(store, ref.buildId, ref.unit, it.key)
      : commentEvidence(store, ref.buildId, it.id);
  if (it.kind === 'example' && it.rule === 'protected_overlap' && evidence) {
    line(
      'Protected reference',
      `${String(evidence.reference_set)} / ${String(evidence.reference_id)}, policy ${String(evidence.policy)}`,
    );
  }
  const lines = evidenceLines(evidence);
  const twin = findTwin(store, ref.buildId, evidence);
  if (twin) lines.push(`twin in this build: ${twinStatus(twin)}`);
  if (lines.length > 0) {
    md.appendMarkdown('**Evidence:**  \n');
    for (const l of lines) md.appendMarkdown(`${inertMarkdown(l)}  \n`);
  }
  if (it.kind === 'example') {
    line('Patch sets', `PS${it.psBefore} → PS${it.psAfter}`);
    const rebased = Number(
      store.scalar('SELECT rebase_edited_lines FROM examples WHERE example_key = ? ORDER BY build_id DESC LIMIT 1', [
        it.key,
      ]) ?? 0,
    );
    if (rebased > 0)
      line('Rebase', `${rebased} edited line(s) came with a rebase (upstream code, not the author's answer)`);
    const flags = store.all<{ reason: string; status: string }>(
      'SELECT reason, status FROM flags WHERE example_key = ? ORDER BY reason',
      [it.key],
    );
    line('Flags', flags.length ? flags.map((f) => `${f.reason} (${flagStatus(f.status)})`).join(', ') : 'none');
    const labels = store.all<{ rater: string; label: string }>(
      'SELECT rater, label FROM labels WHERE example_key = ? ORDER BY rater',
      [it.key],
    );
    line('Labels', labels.length ? labels.map((l) => `${l.label} by ${l.rater}`).join(', ') : 'none');
    // Each judge line names itself ("Judge: not judged", "Judge (model): high · …"): its own label, said once.
    for (const l of exampleJudgeLines(store, ref, it, config)) {
      const at = l.indexOf(': ');
      line(l.slice(0, at), l.slice(at + 2));
    }
  } else {
    line('Patch set', it.patchSet === null ? '?' : `PS${it.patchSet}`);
    line('Line', it.line === null ? 'none' : String(it.line));
  }
  return md;
}
