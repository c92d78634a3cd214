// "Label Comment Quality…": a hand label of one kept comment of the open example on CuREV's
// framework (type and nature multi-select, civility, relevance, clarity and conciseness 1..10), stored
// in quality_labels under the user's rater pseudonym, through the background saver like every edit.
// Judge-vs-human κ (core/review/quality/agreement.ts, the funnel report) reads these labels.
import * as vscode from 'vscode';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';
import type { SaltStore } from './salt';
import type { ActiveExample } from './diff/activeExample';
import { registerCommand, statusNote } from './registerCommand';
import { plainText } from './plainText';
import { localUserPseudonym } from '../core/ground/privacy/localUser';
import { commentKey } from '../core/build/stages/decisionKeys';
import { readQualityLabels } from '../core/build/judgments/judgmentStore';
import { CIVILITIES, JUDGE_NATURES, JUDGE_TYPES, type JudgeAnswer } from '../core/build/judgments/types';
import { SCORE_NAMES } from '../core/review/quality/agreement';

export function registerQualityLabel(
  session: CorpusSession,
  salt: SaltStore,
  active: ActiveExample,
): vscode.Disposable[] {
  return [
    registerCommand(session.log, Commands.labelCommentQuality, async () => {
      const corpus = session.corpus;
      const example = active.example;
      if (!corpus || !example) throw new Error('open an example diff first');
      const kept = example.comments.filter((c) => c.removedBy === null);
      if (kept.length === 0) throw new Error('this example has no kept comment to label');
      const comment =
        kept.length === 1
          ? kept[0]
          : (
              await vscode.window.showQuickPick(
                kept.map((c) => ({
                  label: plainText(`${c.author ?? 'unknown'}: ${c.message.replace(/\s+/g, ' ').slice(0, 80)}`),
                  description: c.line === null ? undefined : `line ${c.line}`,
                  c,
                })),
                { title: 'Label Comment Quality: which comment?' },
              )
            )?.c;
      if (!comment) return;
      const s = await salt.getOrAsk();
      if (!s) throw new Error('a salt is needed to record your rater pseudonym (Review Corpus: Set Salt…)');
      const rater = localUserPseudonym(s);
      const key = commentKey(example.org, example.changeNumber, comment.gerritId);
      const before = readQualityLabels(corpus.store, rater).find((l) => l.commentKey === key)?.answer;
      const answer = await askAnswer(before);
      if (!answer) return;
      session.edit({
        kind: 'qualityLabel',
        label: { commentKey: key, rater, answer, labelledAt: new Date().toISOString() },
      });
      statusNote(
        `$(tag) Quality label stored: relevance ${answer.relevance}, clarity ${answer.clarity}, conciseness ${answer.conciseness}`,
      );
    }),
  ];
}

async function askAnswer(before: JudgeAnswer | undefined): Promise<JudgeAnswer | undefined> {
  const many = async <T extends string>(
    title: string,
    values: readonly T[],
    picked: readonly T[] | undefined,
  ): Promise<T[] | undefined> => {
    const chosen = await vscode.window.showQuickPick(
      values.map((v) => ({ label: v, picked: picked?.includes(v) ?? false })),
      { title, canPickMany: true, placeHolder: 'One or more: a comment can be of several' },
    );
    if (chosen === undefined) return undefined;
    if (chosen.length === 0) throw new Error(`${title}: pick at least one (Other when none fits)`);
    return chosen.map((c) => c.label as T);
  };
  const type = await many('Comment type', JUDGE_TYPES, before?.type);
  if (!type) return undefined;
  const nature = await many('Comment nature', JUDGE_NATURES, before?.nature);
  if (!nature) return undefined;
  const civility = (
    await vscode.window.showQuickPick(
      CIVILITIES.map((v) => ({ label: v, description: v === before?.civility ? 'your last label' : undefined })),
      { title: 'Civility' },
    )
  )?.label;
  if (!civility) return undefined;
  const scores: Partial<Record<(typeof SCORE_NAMES)[number], number>> = {};
  for (const name of SCORE_NAMES) {
    const pick = await vscode.window.showQuickPick(
      Array.from({ length: 10 }, (_, i) => ({
        label: String(10 - i),
        description: before?.[name] === 10 - i ? 'your last label' : undefined,
      })),
      { title: `${name[0].toUpperCase()}${name.slice(1)} (1–10)` },
    );
    if (!pick) return undefined;
    scores[name] = Number(pick.label);
  }
  return {
    type,
    nature,
    civility: civility as JudgeAnswer['civility'],
    relevance: scores.relevance!,
    clarity: scores.clarity!,
    conciseness: scores.conciseness!,
  };
}
