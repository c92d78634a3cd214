// "Review Corpus: Draw Label Audit Sample…": draws the label audit's seeded, stratified sample from the
// open corpus's build, as `review-corpus audit sample` does, then narrows the tree to it so a person
// labels its items with the usual label keys. A session edit, saved by the background saver under the
// writer lock; re-drawing asks first, and the earlier sample stays on record.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { checkAuditParameters, currentAuditSample, DEFAULT_AUDIT_SIZE } from '../core/review/labels/auditSample';
import { Commands } from './ids/commands';
import type { CorpusSession } from './session';
import { plainText } from './plainText';
import { registerCommand } from './registerCommand';

const sizeProblem = (v: string) =>
  /^\d+$/.test(v.trim()) && Number(v) >= 1 ? undefined : 'a whole number of examples, 1 or more';

export function registerAuditSample(session: CorpusSession): vscode.Disposable[] {
  return [
    // Arguments (size, seed, redraw) let a test or a keybinding skip the questions.
    registerCommand(
      session.log,
      Commands.drawAuditSample,
      async (sizeArg?: number, seedArg?: string, redrawArg?: boolean) => {
        const corpus = session.corpus;
        if (!corpus) throw new Error('open a corpus first');
        if (corpus.buildId === undefined)
          throw new Error(`${corpus.config.name} is not built yet: rebuild before drawing an audit sample`);
        const current = currentAuditSample(corpus.store);
        let redraw = redrawArg === true;
        if (current && !redraw) {
          const ok = await vscode.window.showWarningMessage(
            plainText(
              `Audit sample ${current.id} is drawn already (${current.items} items of build ${current.buildId}, seed "${current.seed}"). Draw another from build ${corpus.buildId}? The earlier one stays on record.`,
            ),
            { modal: true },
            'Draw Again',
          );
          if (ok !== 'Draw Again') return undefined;
          redraw = true;
        }
        const sizeText =
          sizeArg !== undefined
            ? String(sizeArg)
            : await vscode.window.showInputBox({
                title: 'Label audit: how many kept examples?',
                prompt: `Stratified by organization × window in proportion (${DEFAULT_AUDIT_SIZE}: a share's 95% interval of ±5 points)`,
                value: String(DEFAULT_AUDIT_SIZE),
                validateInput: sizeProblem,
              });
        if (sizeText === undefined) return undefined;
        const seed =
          seedArg ??
          (await vscode.window.showInputBox({
            title: 'Label audit: seed',
            prompt: 'The same seed and build draw the same items; it is recorded with the sample',
            value: randomBytes(6).toString('hex'),
            validateInput: (v) => (v.trim() ? undefined : 'a seed is needed'),
          }));
        if (seed === undefined) return undefined;
        const size = Number(sizeText);
        checkAuditParameters(size, seed);
        session.edit({
          kind: 'auditSample',
          buildId: corpus.buildId,
          size,
          seed,
          redraw,
          at: new Date().toISOString(),
        });
        const drawn = currentAuditSample(corpus.store)!;
        await vscode.commands.executeCommand(Commands.filter, { audit: true });
        void vscode.window.showInformationMessage(
          plainText(
            `Drew audit sample ${drawn.id}: ${drawn.items} kept examples of build ${drawn.buildId} (seed "${drawn.seed}"). The tree shows them; label each, or export them for model raters with review-corpus audit export.`,
          ),
        );
        return { id: drawn.id, items: drawn.items, itemsSha256: drawn.itemsSha256 };
      },
    ),
  ];
}
