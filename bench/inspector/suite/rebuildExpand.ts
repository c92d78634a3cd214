// One run of "expand the tree while a rebuild runs": a collapsed window, a rebuild started in the worker and
// reporting progress, a click on the window's twistie, then the keyboard on its Kept group; then the rebuild
// is cancelled from its toast, so the corpus file never gains a second build.
import * as vscode from 'vscode';
import { performance } from 'node:perf_hooks';
import type { ReviewCorpusApi } from '../../../src/extension';
import type { GroupNode, WindowNode } from '../../../src/extension/tree/nodes';
import { memorySnapshot, ProviderProbe, round, until } from './probes';
import type { TimedBridge } from './timedDom';
import * as wb from './workbench';

const now = () => performance.now();

export async function expandDuringRebuild(
  a: ReviewCorpusApi,
  bridge: TimedBridge,
): Promise<Record<string, number | string | boolean | undefined>> {
  await wb.collapseTree(bridge);
  a.tree.provider.refresh();
  const win: WindowNode = wb.largestWindow(a);
  await a.tree.view.reveal(win, { select: false, focus: false, expand: false });
  const winRow = wb.row(2, win.group.window ?? '');
  await bridge.send('waitFor', { selector: winRow, timeoutMs: 10000 });
  await wb.untilCount(bridge, wb.row(3), 0);

  let finished = false;
  const rebuildStarted = now();
  const rebuild = Promise.resolve(vscode.commands.executeCommand('reviewCorpus.rebuild')).then(() => {
    finished = true;
  });
  await bridge.send('waitFor', { selector: wb.TOAST_WITH_PROGRESS, timeoutMs: 120000 }, 135000);
  const progressAt = now();

  const expanded: number[] = [];
  const onExpand = a.tree.view.onDidExpandElement(() => expanded.push(now()));
  const probe = new ProviderProbe(a);
  const result: Record<string, number | string | boolean | undefined> = {
    window: `${win.group.org}/${win.group.window}`,
  };
  try {
    // The window, by mouse. Its children are the groups, whose counts came with the tree's roots.
    const winWatch = bridge.waitVisible(wb.row(3), 30000);
    await winWatch.armed;
    const click = await bridge.send('click', { selector: wb.twistie(winRow), timeoutMs: 10000 });
    const winVisible = await winWatch.visible;
    // Playwright's click first waits for the target to be stable and hit-testable, then answers after the
    // mouse-up; the expansion reaches the host in between. So the click happened after the pick-up (upper bound
    // of the latency) and before both the answer and the host hearing of the expansion (lower bound).
    const clickedBy = Math.min(click.answeredAt, expanded[0] ?? Infinity);
    Object.assign(result, {
      rebuildProgressAfterMs: round(progressAt - rebuildStarted),
      clickOpMs: round(click.answeredAt - click.pickedUpAt),
      windowChildrenDomMs: round(winVisible.at - clickedBy),
      windowChildrenFromPickupMs: round(winVisible.at - click.pickedUpAt),
      providerWindowMs: round(probe.spent('window', click.pickedUpAt)),
      rssMbDuringRebuild: memorySnapshot(a).rssMb,
    });

    // Its Kept group, by keyboard (a key press has no actionability wait, so its start is known to a few ms).
    // Its children are the first page of items: a query on the main thread while the worker builds.
    const kept = a.tree.provider
      .getChildren(win)
      .find((g): g is GroupNode => g.type === 'group' && g.ref.rule === 'kept');
    if (!kept) throw new Error(`bench: ${result.window} has no Kept group`);
    await a.tree.view.reveal(kept, { select: true, focus: true, expand: false });
    await bridge.send('waitFor', { selector: `${wb.row(3, 'Kept (')}.focused`, timeoutMs: 10000 });
    const groupWatch = bridge.waitVisible(wb.row(4), 30000);
    await groupWatch.armed;
    const press = await bridge.send('press', { keys: 'ArrowRight' });
    const groupVisible = await groupWatch.visible;
    Object.assign(result, {
      groupFirstPageDomMs: round(groupVisible.at - press.pickedUpAt),
      groupListItemsMs: round(probe.spent('group', press.pickedUpAt)),
      rebuildStillRunning: !finished,
      // The stamps these figures rest on that came from the fallback poll instead of an inotify event.
      fallbackStamps: [
        winVisible.precise,
        click.answeredPrecise,
        click.pickedUpPrecise,
        groupVisible.precise,
        press.pickedUpPrecise,
      ].filter((p) => !p).length,
    });
  } finally {
    onExpand.dispose();
    probe.restore();
  }
  const cancelAt = now();
  if (!finished) await bridge.send('click', { selector: wb.CANCEL_IN_TOAST, timeoutMs: 10000 });
  await rebuild;
  await until('the corpus reloaded after the cancel', () => !a.session.busy && a.session.corpus !== undefined, 180000);
  result.cancelToReloadedMs = round(now() - cancelAt);
  result.threadsAfterCancel = memorySnapshot(a).threads;
  return result;
}
