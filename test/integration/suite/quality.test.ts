// Comment quality and diversity in the real VS Code: a judgment seeded into a copy of the sample
// corpus (through the judge's store API) shows in the comment hover; a comment without one says "not
// judged"; the funnel report shows the Comment quality and Diversity sections.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import { exampleIdOfComment, localRater, openSampleCorpus, until } from './support';
import { qualityAgreementInput, qualityRaterAgreement } from '../../../src/core/review/quality/qualityRaterAgreement';
import { figureText } from '../../../src/core/review/quality/raterAgreement';
import { writeJudgment, writeRewrite } from '../../../src/core/build/judgments/judgmentStore';
import { commentKey } from '../../../src/core/build/stages/decisionKeys';

const ORIGINAL = '.monaco-diff-editor .editor.original';
const plain = (t: string) => t.replace(/\u00a0/g, ' ');
const JUDGED = 'os930005_c01';
const REWRITE = 'Raise exception.InvalidInput here so that a bad value is a 400, not a 500.';

describe('comment quality and diversity', function () {
  this.timeout(120_000);
  let a: ReviewCorpusApi;
  let model: string;

  before(async () => {
    a = await openSampleCorpus('quality-sample');
    const c = a.session.corpus!;
    // The config's judge model is whose judgments the inspector shows (the sample's own are older).
    model = c.config.judge?.model ?? 'fake-judge-1';
    const number = Number(
      c.store.scalar('SELECT c.number FROM comments cm JOIN changes c ON c.id = cm.change_id WHERE cm.gerrit_id = ?', [
        JUDGED,
      ]),
    );
    // Before any view of this corpus reads its judgments; saved so the file holds what the session shows.
    writeJudgment(c.store, {
      cacheKey: 'integration-seeded',
      commentKey: commentKey('openstack', number, JUDGED),
      model,
      promptVersion: 'test',
      params: {},
      status: 'judged',
      judgedAt: '2026-12-31T00:00:00Z',
      answer: {
        type: ['Refactoring', 'Testing'],
        nature: ['Prescriptive'],
        civility: 'Civil',
        relevance: 8,
        clarity: 7,
        conciseness: 9,
      },
    });
    // A CuREV rewrite of the same comment: the inspector shows it under the original, never instead of it.
    writeRewrite(c.store, {
      cacheKey: 'integration-seeded-rewrite',
      commentKey: commentKey('openstack', number, JUDGED),
      mode: 'curev',
      model,
      promptVersion: 'test',
      text: REWRITE,
      exemplarKeys: [],
      rewrittenAt: '2026-12-31T00:00:00Z',
    });
    c.store.save();
  });

  it("shows the judge's scores and categories in the hover of a judged comment", async () => {
    const id = exampleIdOfComment(a, JUDGED);
    await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: id });
    await dom.waitFor(`${ORIGINAL} .view-lines`, 20000);
    const e = await until('the active example', () => (a.active.example?.id === id ? a.active.example : undefined));
    const comment = e.comments.find((x) => x.gerritId === JUDGED)!;
    const line = (comment.range?.startLine ?? comment.line!) - 1;
    const character = (comment.range?.startCharacter ?? 0) + 1;
    const editor = await until('the before side', () =>
      vscode.window.visibleTextEditors.find(
        (ed) => ed.document.uri.scheme === 'review-corpus' && ed.document.uri.query.includes('side=before'),
      ),
    );
    // The read-only thread carries the verdict too (inert Markdown: backslash escapes and &nbsp; undone to compare).
    const threads = await until('the read-only threads', () => {
      const open = a.threads.threadsFor(editor.document.uri);
      return open.length >= 1 ? open : undefined;
    });
    const bodies = threads
      .flatMap((t) => t.comments)
      .map((c) => (typeof c.body === 'string' ? c.body : c.body.value).replace(/\\/g, '').replace(/&nbsp;/g, ' '));
    assert.ok(
      bodies.some((b) => b.includes(`Judge (${model}): high`)),
      bodies.join('\n---\n'),
    );
    const judged = bodies.find((b) => b.includes(`Judge (${model}): high`))!;
    assert.ok(judged.includes(`Rewritten (curev, ${model}): ${REWRITE}`), judged);
    assert.ok(
      judged.indexOf('Raise exception.InvalidInput so the user gets a 400') < judged.indexOf('Rewritten ('),
      'the original first, the rewrite under it',
    );
    await vscode.commands.executeCommand('workbench.action.compareEditor.focusSecondarySide');
    editor.selection = new vscode.Selection(line, character, line, character);
    await vscode.commands.executeCommand('editor.action.showHover');
    const hover = await until('the judge line in the hover', async () => {
      await dom.waitFor('.monaco-hover .hover-contents', 10000);
      const t = plain(await dom.text('.monaco-hover'));
      return t.includes('Judge (') ? t : undefined;
    });
    assert.ok(
      hover.includes(
        `Judge (${model}): high · type Refactoring, Testing · nature Prescriptive · Civil · relevance 8, clarity 7, conciseness 9`,
      ),
      hover,
    );
    await dom.press('Escape');
  });

  it('shows the Comment quality and Diversity sections in the funnel report', async () => {
    await vscode.commands.executeCommand('reviewCorpus.showFunnel');
    const quality = plain(await dom.frameText('[aria-label="comment quality per window"]', 20000));
    assert.match(quality, /openstack/);
    assert.match(quality, /high/);
    assert.ok(!/not counted/.test(quality), `judged: counts, not "not counted": ${quality.slice(0, 300)}`);
    const relevance = await dom.frameText('svg[aria-label^="openstack"][aria-label$="relevance"] title', 20000);
    assert.match(relevance, /relevance/);
    const diversity = plain(await dom.frameText('[aria-label="openstack diversity"]', 20000));
    assert.match(diversity, /distinct-1/);
    assert.match(diversity, /original/);
    assert.match(diversity, /curev\+/, "the sample's CuREV+ rewrites have a row");
  });

  it('shows the agreement among all raters per label beside the pairwise κ, once a hand label joins the judge', async () => {
    const c = a.session.corpus!;
    const key = commentKey(
      'openstack',
      Number(
        c.store.scalar(
          'SELECT c.number FROM comments cm JOIN changes c ON c.id = cm.change_id WHERE cm.gerrit_id = ?',
          [JUDGED],
        ),
      ),
      JUDGED,
    );
    a.session.edit({
      kind: 'qualityLabel',
      label: {
        commentKey: key,
        rater: localRater(),
        answer: {
          type: ['Refactoring'],
          nature: ['Prescriptive'],
          civility: 'Civil',
          relevance: 7,
          clarity: 7,
          conciseness: 8,
        },
        labelledAt: '2026-12-31T00:00:00Z',
      },
    });
    await vscode.commands.executeCommand('reviewCorpus.showFunnel');
    const expected = qualityRaterAgreement(qualityAgreementInput(c.store, c.buildId));
    const civility = expected.scopes[0].labels.find((l) => l.label === 'civility')!;
    const all = civility.groups.find((g) => g.raters === 'all')!;
    assert.ok(all.rater_count >= 2, 'the judge and the hand label');
    const shown = plain(await dom.frameText('[aria-label="quality agreement among all raters"]', 30000));
    for (const text of [
      'all windows',
      'civility',
      `all (${all.rater_count})`,
      figureText(all.fleiss_kappa),
      'relevance',
    ])
      assert.ok(shown.includes(text), `the page shows ${text}: ${shown.slice(0, 400)}`);
  });
});
