// The label audit in the real VS Code: the funnel page's "Label audit" section shows what
// label-audit-<org>.json holds for the sample corpus's audit (scripts/sample-corpus.ts), and
// "Draw Label Audit Sample…" draws again through the saver and narrows the tree to the sample.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import { labelAudit } from '../../../src/core/review/labels/labelAudit';
import { figureText } from '../../../src/core/review/quality/raterAgreement';
import type { CorpusNode } from '../../../src/extension/tree/nodes';
import { openSampleCorpus, until } from './support';

const SECTION = 'section[data-section="label-audit"]';

describe('label audit', function () {
  this.timeout(120_000);
  let a: ReviewCorpusApi;

  before(async () => {
    a = await openSampleCorpus('audit-sample');
    await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
    await vscode.commands.executeCommand('reviewCorpus.showFunnel');
  });

  // Drawing narrows the tree to the audit sample; the suites after this one expect the whole tree.
  after(async () => vscode.commands.executeCommand('reviewCorpus.clearFilter'));

  it('shows the label audit section with the numbers of label-audit-<org>.json', async () => {
    const c = a.session.corpus!;
    const report = labelAudit(c.store, c.buildId!)!;
    assert.ok(report, 'the sample corpus carries an audit sample');
    const o = report.organizations.find((x) => x.org === 'openstack')!;
    const table = await dom.frameText(`${SECTION} [aria-label="openstack label audit"]`, 20000);
    for (const r of o.raters) {
      const row = [
        r.rater,
        r.kind,
        r.scored,
        r.answers,
        r.does_not,
        r.unsure,
        r.valid_share === null ? 'none labelled' : r.valid_share.toFixed(3),
      ].join('\\s+');
      assert.match(table, new RegExp(row.replace(/\./g, '\\.')), `the row of ${r.rater}: ${table.slice(0, 400)}`);
    }
    const heading = await dom.frameText(`${SECTION} > h2`);
    assert.equal(heading, 'Label audit');
    const summary = await dom.frameText(`${SECTION} section[data-org="openstack"] ul`);
    for (const line of o.summary) assert.ok(summary.includes(line), `the page says: ${line}`);
    assert.ok(
      (await dom.frameCount(`${SECTION} [aria-label="openstack label audit cross-tab"]`)) === 1,
      'the cross-tab by rule and flag',
    );
    // Beside the pairwise κ, the agreement among all raters, from a worker process: the same figures
    // (seeded bootstrap) as label-audit-openstack.json.
    const many = await dom.frameText(`${SECTION} [aria-label="openstack agreement among all raters"]`, 30000);
    const all = o.rater_agreement!.scopes[0].groups.find((g) => g.raters === 'all')!;
    for (const text of ['all windows', 'all (2)', figureText(all.fleiss_kappa), figureText(all.alpha.nominal!)])
      assert.ok(many.includes(text), `the page shows ${text}: ${many.slice(0, 400)}`);
  });

  it('draws a new sample from the palette command, saved in the file, and the tree shows its items', async () => {
    const drawn = await vscode.commands.executeCommand<{ id: number; items: number }>(
      'reviewCorpus.drawAuditSample',
      5,
      'integration-seed',
      true,
    );
    assert.equal(drawn.items, 5);
    assert.equal(a.tree.provider.filter.audit, true, 'the tree is narrowed to the audit sample');
    // Every org's groups, as the tree lists them under the filter: the sample's 5 items.
    const groups = (a.tree.provider.getChildren(undefined) as CorpusNode[])
      .flatMap((org) => a.tree.provider.getChildren(org) as CorpusNode[])
      .flatMap((w) => a.tree.provider.getChildren(w) as CorpusNode[])
      .filter((n): n is Extract<CorpusNode, { type: 'group' }> => n.type === 'group');
    assert.equal(
      groups.reduce((n, g) => n + g.count, 0),
      5,
    );
    await until('the sample saved', () => !a.session.hasUnsavedChanges || undefined);
    await a.session.reload();
    assert.equal(
      a.session.corpus!.store.scalar('SELECT count(*) FROM audit_samples'),
      2,
      'the first draw stays on record',
    );
    assert.equal(
      a.session.corpus!.store.scalar('SELECT seed FROM audit_samples ORDER BY id DESC LIMIT 1'),
      'integration-seed',
    );
    await vscode.commands.executeCommand('reviewCorpus.showFunnel');
    await until(
      'the page shows the new sample',
      async () =>
        (await dom.frameText(`${SECTION} > p`, 10000)).startsWith(`Sample ${drawn.id}: 5 kept examples`) || undefined,
    );
  });
});
