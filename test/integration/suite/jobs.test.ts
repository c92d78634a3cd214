// Fetch and rebuild from the palette inside the real VS Code: a job process does the work under a
// cancellable progress notification, against the sample Gerrit served from the extension host.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import { startSampleHosts } from '../../fake-gerrit/server';
import { sampleConfig, sampleHostSetup } from '../../../scripts/sample-corpus';
import { api, SAMPLE_SALT, until, workspaceDir } from './support';

const TOAST = '.notifications-toasts .notification-toast';

describe('fetch and rebuild from the palette', function () {
  this.timeout(180_000);
  let sample: Awaited<ReturnType<typeof startSampleHosts>>;
  let configFile: string;

  before(async () => {
    const setup = sampleHostSetup();
    // Slow responses keep the fetch running long enough to watch its progress and cancel it.
    const slow = { route: /\/comments$/, kind: 'slow' as const, delayMs: 250, times: 1_000_000 };
    sample = await startSampleHosts({
      ...setup,
      faults: Object.fromEntries(['openstack', 'qt', 'wikimedia'].map((o) => [o, [...(setup.faults[o] ?? []), slow]])),
    });
    const dir = path.join(workspaceDir(), 'fetched');
    mkdirSync(dir, { recursive: true });
    configFile = path.join(dir, 'corpus.json');
    writeFileSync(configFile, JSON.stringify(sampleConfig(sample.hosts), null, 2));
    await vscode.commands.executeCommand('reviewCorpus.setSalt', SAMPLE_SALT);
    await vscode.commands.executeCommand('reviewCorpus.openCorpus', configFile);
  });
  after(async () => sample?.close());

  it('cancels a fetch from its progress notification, leaving a file the next fetch resumes', async () => {
    const a = await api();
    const running = vscode.commands.executeCommand('reviewCorpus.fetch');
    await dom.waitFor(TOAST, 20000);
    await until(
      'progress naming a host and its requests',
      async () =>
        (/Fetch from Hosts/.test(await dom.text(TOAST)) && /requests/.test(await dom.text(TOAST))) || undefined,
      20000,
    );
    await dom.screenshot('fetch-progress');
    await dom.click(`${TOAST} a.monaco-button[aria-label^="Cancel"], ${TOAST} .monaco-button:has-text("Cancel")`);
    await running;
    const partial = a.session.corpus;
    assert.ok(partial, 'the corpus file exists after cancelling and opens cleanly');
    const done = Number(
      partial.store.scalar("SELECT count(*) FROM changes WHERE fetch_state = 'done' AND collection_rule IS NULL"),
    );
    const pending = Number(
      partial.store.scalar("SELECT count(*) FROM changes WHERE fetch_state = 'listed' AND collection_rule IS NULL"),
    );
    assert.ok(pending > 0, `cancelled before the end (${done} done, ${pending} pending)`);
  });

  it('fetches the rest, shows the result, and rebuilds into the tree', async () => {
    const a = await api();
    const commentsBefore = sample.hosts.flatMap((h) => h.requests).filter((r) => /\/comments$/.test(r.path)).length;
    await vscode.commands.executeCommand('reviewCorpus.fetch');
    const c = a.session.corpus!;
    assert.equal(
      c.store.scalar("SELECT count(*) FROM changes WHERE fetch_state = 'listed' AND collection_rule IS NULL"),
      0,
      'every change fetched',
    );
    assert.equal(c.store.scalar("SELECT count(*) FROM changes WHERE collection_rule = 'disallowed'"), 1);
    const commentsAfter = sample.hosts.flatMap((h) => h.requests).filter((r) => /\/comments$/.test(r.path)).length;
    const fetchedChanges = Number(
      c.store.scalar("SELECT count(*) FROM changes WHERE collection_rule IS NULL OR collection_rule = 'fetch_error'"),
    );
    assert.ok(
      commentsAfter - commentsBefore < fetchedChanges + 10,
      'the second fetch resumed instead of starting over',
    );
    await vscode.commands.executeCommand('reviewCorpus.rebuild');
    assert.notEqual(a.session.corpus?.buildId, undefined, 'built');
    const orgs = a.tree.provider.getChildren();
    assert.deepEqual(
      orgs.map((o) => o.type === 'org' && o.org),
      ['openstack', 'qt', 'wikimedia'],
    );
  });

  it('moves a confirmed flag under manual_flag at the next rebuild, and keeps the decision', async () => {
    const a = await api();
    let c = a.session.corpus!;
    // An example with exactly one open flag, so confirming needs no choice.
    const key = String(
      c.store.scalar(
        `SELECT e.example_key FROM examples e JOIN flags f ON f.example_key = e.example_key
      WHERE e.build_id = ? AND e.rule IS NULL AND f.status = 'open' GROUP BY e.example_key HAVING count(*) = 1 ORDER BY e.example_key LIMIT 1`,
        [c.buildId!],
      ),
    );
    const id = Number(
      c.store.scalar('SELECT id FROM examples WHERE example_key = ? AND build_id = ?', [key, c.buildId!]),
    );
    await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: id });
    await until('the flagged example is active', () => a.active.example?.key === key || undefined);
    await vscode.commands.executeCommand('reviewCorpus.confirmFlag');
    const rater = a.session.corpus!.store.get<{ status: string; rater: string }>(
      'SELECT status, rater FROM flags WHERE example_key = ?',
      [key],
    );
    assert.equal(rater?.status, 'confirmed');
    assert.match(String(rater?.rater), /^r_[0-9a-f]{16}$/);
    // The decision is a recorded input: kept in the history with its time, and read by the next build.
    const decided = a.session.corpus!.store.get<{ status: string; decided_at: string }>(
      'SELECT status, decided_at FROM flag_decisions WHERE example_key = ? ORDER BY id DESC LIMIT 1',
      [key],
    );
    assert.equal(decided?.status, 'confirmed');
    assert.match(String(decided?.decided_at), /^\d{4}-\d\d-\d\dT/);
    await vscode.commands.executeCommand('reviewCorpus.rebuild');
    c = a.session.corpus!;
    assert.equal(
      c.store.scalar('SELECT status FROM build_flag_decisions WHERE build_id = ? AND example_key = ?', [
        c.buildId!,
        key,
      ]),
      'confirmed',
      'the rebuild records the decision it used',
    );
    assert.match(
      String(c.store.scalar('SELECT flag_decisions_sha256 FROM builds WHERE id = ?', [c.buildId!])),
      /^[0-9a-f]{64}$/,
    );
    assert.equal(
      c.store.scalar("SELECT rule FROM decisions WHERE build_id = ? AND unit = 'examples' AND unit_key = ?", [
        c.buildId!,
        key,
      ]),
      'manual_flag',
    );
    assert.equal(
      c.store.scalar('SELECT status FROM flags WHERE example_key = ?', [key]),
      'confirmed',
      'the decision survives the rebuild',
    );
    const w = String(
      c.store.scalar("SELECT window FROM decisions WHERE build_id = ? AND unit = 'examples' AND unit_key = ?", [
        c.buildId!,
        key,
      ]),
    );
    const org = key.split('/')[0];
    const group = a.tree.provider.findGroup(org, w, 'manual_flag');
    assert.ok(group, 'a manual_flag node in the tree');
    assert.ok(
      a.tree.provider
        .getChildren(group)
        .some((n) => n.type === 'item' && n.item.kind === 'example' && n.item.key === key),
    );
  });

  it('verifies, compares the two builds, and exports from the palette', async () => {
    const a = await api();
    const c = a.session.corpus!;
    const verified = await vscode.commands.executeCommand<{ ok?: boolean; summary: string }>('reviewCorpus.verify');
    assert.equal(verified?.ok, true, verified?.summary);
    const to = c.buildId!;
    const cmp = await vscode.commands.executeCommand<{
      keptFrom: number;
      keptTo: number;
      left: { rule: string }[];
      entered: unknown[];
    }>('reviewCorpus.compareBuilds', to - 1, to);
    assert.ok(cmp);
    assert.deepEqual(
      cmp.left.map((m) => m.rule),
      ['manual_flag'],
    );
    assert.equal(cmp.keptFrom - cmp.left.length + cmp.entered.length, cmp.keptTo);
    const report = vscode.window.activeTextEditor?.document;
    // A read-only document of ours: closing it never asks to save.
    assert.equal(report?.uri.scheme, 'review-corpus', `the report is ${report?.uri.toString()}`);
    assert.equal(report.isUntitled, false);
    assert.equal(report.isDirty, false);
    const doc = report.getText();
    assert.match(
      doc,
      new RegExp(
        `kept\\(${to - 1}\\) − left \\+ entered = kept\\(${to}\\): ${cmp.keptFrom} − 1 \\+ ${cmp.entered.length} = ${cmp.keptTo}`,
      ),
    );
    const out = path.join(path.dirname(configFile), 'examples.jsonl');
    await vscode.commands.executeCommand('reviewCorpus.export', out);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    assert.equal(lines.length, cmp.keptTo);
    assert.ok(existsSync(path.join(path.dirname(configFile), 'dataset-funnel.json')));
  });
});
