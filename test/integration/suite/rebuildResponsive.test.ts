// A rebuild runs in a job process of its own: while it runs the tree still expands, the process starts
// on huge pages where this machine has them and ends with the job, and cancelling it from its progress
// notification leaves the corpus as it was.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import { currentPlatform, hugePagesTunables } from '../../../src/core/ground/process/hugePages';
import { multiplyRecords, openSampleCorpus, until, workerProcesses as jobProcesses } from './support';

const TOAST = '.notifications-toasts .notification-toast';
const COPIES = 400;

describe('rebuild off the main thread', function () {
  this.timeout(240_000);
  let a: ReviewCorpusApi;

  before(async () => {
    a = await openSampleCorpus('big-sample');
    const store = a.session.corpus!.store;
    store.transaction(() => multiplyRecords(store, COPIES));
    store.save(); // test setup on the main thread: the rebuild job reads the file
    await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
    await vscode.commands.executeCommand('workbench.actions.treeView.reviewCorpus.tree.collapseAll');
  });

  it('keeps the tree expanding while a rebuild runs', async () => {
    const before = a.session.corpus!.buildId!;
    let finished = false;
    const rebuild = Promise.resolve(vscode.commands.executeCommand('reviewCorpus.rebuild')).then(() => {
      finished = true;
    });
    await dom.waitFor(TOAST, 30000);
    assert.equal(finished, false, 'the rebuild is still running');
    const jobs = jobProcesses();
    // Expand a window node of the old build's tree by clicking it, and see its children render.
    await dom.click('.part.sidebar .monaco-list-row[aria-label^="qt"]');
    await dom.press('ArrowRight');
    await dom.waitFor('.part.sidebar .monaco-list-row[aria-label^="pilot"]', 10000);
    await dom.click('.part.sidebar .monaco-list-row[aria-label^="pilot"]');
    await dom.press('ArrowRight');
    await dom.waitFor('.part.sidebar .monaco-list-row[aria-label^="Kept, "]', 10000);
    const expandedWhileRunning = !finished;
    await dom.screenshot('tree-during-rebuild');
    await rebuild;
    if (process.platform === 'linux') {
      assert.equal(jobs.length, 1, 'the rebuild runs in one job process, a child of the extension host');
      const tunables = hugePagesTunables(currentPlatform());
      if (tunables)
        assert.ok(jobs[0].env.includes(`GLIBC_TUNABLES=${tunables}`), `the job process starts with ${tunables}`);
      await until('the job process ended with the job', () => jobProcesses().length === 0 || undefined);
    }
    assert.ok(expandedWhileRunning, 'the tree expanded before the rebuild finished');
    assert.equal(a.session.corpus!.buildId, before + 1, 'the rebuild landed');
  });

  it('pages a large group 200 items at a time, with a Load more item', async () => {
    const c = a.session.corpus!;
    const provider = a.tree.provider;
    const big = provider
      .getChildren()
      .flatMap((o) => provider.getChildren(o))
      .flatMap((w) => provider.getChildren(w))
      .find((g) => g.type === 'group' && g.ref.unit !== 'changes' && g.count > 200);
    assert.ok(big && big.type === 'group', 'a group with more than 200 units');
    let children = provider.getChildren(big);
    assert.equal(children.length, 201);
    assert.equal(children[200].type, 'loadMore');
    provider.loadMore(big);
    children = provider.getChildren(big);
    assert.equal(children.filter((n) => n.type === 'item').length, Math.min(400, big.count));
    assert.ok(c.buildId !== undefined);
  });

  it('cancels a rebuild from its progress notification and leaves the corpus as it was', async () => {
    const before = a.session.corpus!.buildId!;
    const running = Promise.resolve(vscode.commands.executeCommand('reviewCorpus.rebuild'));
    await dom.waitFor(TOAST, 30000);
    await dom.click(`${TOAST} .monaco-button:has-text("Cancel")`);
    await running;
    await until('the corpus reloaded', () => a.session.corpus);
    assert.equal(a.session.corpus!.buildId, before, 'no new build was written');
    assert.equal(
      a.session.corpus!.store.scalar('SELECT count(*) FROM builds WHERE finished_at IS NULL'),
      0,
      'no half-written build',
    );
    if (process.platform === 'linux')
      await until("the cancelled job's process ended", () => jobProcesses().length === 0 || undefined);
  });
});
