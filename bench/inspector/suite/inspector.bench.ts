// The inspector benchmark, run inside the real VS Code by bench/inspector/run.mjs (not part of npm test).
// Times come from the extension host's performance clock; DOM times from the timed bridge (timedDom.ts).
// Every figure is written to REVIEW_CORPUS_BENCH_OUT as JSON, even when a step fails.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { dom } from '../../../test/integration/bridge';
import { api, EXTENSION_ID } from '../../../test/integration/suite/support';
import type { ReviewCorpusApi } from '../../../src/extension';
import { getExample } from '../../../src/core/review/inspect/example';
import type { GroupNode, ItemNode } from '../../../src/extension/tree/nodes';
import { collectGarbage, DecorateProbe, memorySnapshot, ProviderProbe, round, until } from './probes';
import { profileStep } from './profile';
import { expandDuringRebuild } from './rebuildExpand';
import { TimedBridge } from './timedDom';
import * as wb from './workbench';

const CORPUS = process.env.REVIEW_CORPUS_BENCH_CORPUS;
const OUT = process.env.REVIEW_CORPUS_BENCH_OUT;
const RUNS = Number(process.env.REVIEW_CORPUS_BENCH_RUNS || 5);
/** The diff figures spread widely from run to run (150 ms to 700 ms for the same kind of diff), so they take three times as many. */
const DIFF_RUNS = 3 * RUNS;
const BASELINE_SCHEME = 'bench-baseline';

type Row = Record<string, number | string | boolean | undefined>;
const figures: Record<string, unknown> & { memory: Record<string, unknown> } = { memory: {} };
const rows = (name: string): Row[] => (figures[name] ??= []) as Row[];
const save = () => {
  if (OUT) writeFileSync(OUT, JSON.stringify(figures, null, 2));
};
const now = () => performance.now();

/** Opens the corpus, reveals `pick()`'s group expanded, and times each step until its first item row shows. */
async function timeFirstPage(
  a: ReviewCorpusApi,
  bridge: TimedBridge,
  pick: () => GroupNode,
  open: boolean,
): Promise<Row> {
  await wb.closeEditors(bridge);
  await wb.collapseTree(bridge);
  const probe = new ProviderProbe(a);
  try {
    const watch = bridge.waitVisible(wb.row(4), 120000);
    await watch.armed;
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    const t0 = now();
    stalls.enable();
    if (open) assert.ok(await vscode.commands.executeCommand('reviewCorpus.openCorpus', CORPUS), 'the corpus opened');
    else a.tree.provider.refresh();
    const t1 = now();
    stalls.disable();
    const group = pick();
    const tPicked = now();
    await a.tree.view.reveal(group, { expand: true, select: false, focus: false });
    const t2 = now();
    const visible = await watch.visible;
    return {
      group: `${group.ref.org}/${group.ref.window}/${group.ref.rule} (${group.count})`,
      ...(open ? { openCommandMs: round(t1 - t0), openLongestStallMs: round(stalls.max / 1e6) } : {}),
      treeGroupsMs: round(tPicked - t1),
      revealMs: round(t2 - t1),
      firstPageDomMs: round(visible.at - t1),
      ...(open ? { totalDomMs: round(visible.at - t0) } : {}),
      providerMs: round(['root', 'org', 'window', 'group'].reduce((ms, of) => ms + probe.spent(of, t0), 0)),
      listItemsMs: round(probe.spent('group', t0)),
      fallbackStamps: visible.precise ? 0 : 1,
    };
  } finally {
    probe.restore();
  }
}

describe('inspector benchmark', function () {
  this.timeout(20 * 60_000);
  let a: ReviewCorpusApi;
  let bridge: TimedBridge;

  before(async () => {
    assert.ok(CORPUS, 'REVIEW_CORPUS_BENCH_CORPUS names the corpus.json to open');
    a = await api();
    bridge = new TimedBridge();
    figures.meta = {
      vscodeVersion: vscode.version,
      runs: RUNS,
      diffRuns: DIFF_RUNS,
      corpus: CORPUS,
      cpus: cpus().length,
      loadavgAtStart: loadavg().map(round),
    };
    await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
    figures.memory.beforeOpen = memorySnapshot(a);
  });

  after(() => {
    (figures.meta as Row).loadavgAtEnd = loadavg().map(round).join(' ');
    (figures.meta as Row).fallbackPickups = bridge?.fallbacks.pickups;
    (figures.meta as Row).fallbackAnswers = bridge?.fallbacks.answers;
    if (a) {
      figures.memory.atEnd = memorySnapshot(a);
      collectGarbage();
      figures.memory.atEndAfterGc = memorySnapshot(a);
    }
    bridge?.close();
    save();
  });

  it('bridge overhead: a trivial dom.count, through the normal bridge and the timed one', async () => {
    for (let i = 0; i < 10; i++) {
      const t0 = now();
      await dom.count('body');
      const normalMs = now() - t0;
      const r = await bridge.send<number>('count', { selector: 'body' });
      const w = bridge.waitVisible('.monaco-workbench');
      const armedAt = await w.armed;
      const visible = await w.visible;
      rows('bridge').push({
        normalCountMs: round(normalMs),
        timedPickupMs: round(r.pickedUpAt - r.sentAt),
        timedCountOpMs: round(r.answeredAt - r.pickedUpAt),
        // An element already visible: the floor of every DOM figure (pick-up to answer of one waitFor).
        waitVisibleFloorMs: round(visible.at - armedAt),
      });
    }
    save();
  });

  it('opens the 100k corpus and renders the first page of the first group', async () => {
    for (let i = 0; i < RUNS; i++) {
      rows('openFirstPage').push(await timeFirstPage(a, bridge, () => wb.firstGroup(a), true));
      save();
    }
    assert.ok(a.session.corpus?.buildId !== undefined, 'the corpus is open and built');
    // Not timed: one more run under the CPU profiler, to say where the host's time goes.
    figures.profiles ??= {} as Record<string, unknown>;
    (figures.profiles as Record<string, unknown>).openFirstPage = await profileStep(() =>
      timeFirstPage(a, bridge, () => wb.firstGroup(a), true),
    );
    figures.memory.afterOpen = memorySnapshot(a);
    collectGarbage();
    figures.memory.afterOpenAfterGc = memorySnapshot(a);
    const c = a.session.corpus!;
    (figures.meta as Row).examples = Number(
      c.store.scalar('SELECT count(*) FROM examples WHERE build_id = ?', [c.buildId!]),
    );
    (figures.meta as Row).kept = Number(
      c.store.scalar('SELECT count(*) FROM examples WHERE build_id = ? AND rule IS NULL', [c.buildId!]),
    );
    (figures.meta as Row).buildId = c.buildId;
  });

  it('renders the first page of the largest group (corpus already open, provider cache cleared)', async () => {
    for (let i = 0; i < RUNS; i++) {
      rows('largestFirstPage').push(await timeFirstPage(a, bridge, () => wb.largestGroup(a), false));
      save();
    }
  });

  it("opens example diffs with their decorations, paired with VS Code's plain diff of the same texts", async () => {
    const group = wb.largestGroup(a);
    const items = a.tree.provider.getChildren(group).filter((n): n is ItemNode => n.type === 'item');
    const texts = new Map<string, string>();
    const provider = vscode.workspace.registerTextDocumentContentProvider(BASELINE_SCHEME, {
      provideTextDocumentContent: (uri) => texts.get(uri.path) ?? '',
    });
    const decorations = new DecorateProbe(a);

    // The floor: the baseline plus one gutter mark set by a bare listener, the least any extension's decorations cost.
    const floorMark = vscode.window.createTextEditorDecorationType({
      gutterIconPath: vscode.Uri.joinPath(
        vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri,
        'media',
        'comment-gutter.svg',
      ),
      gutterIconSize: 'contain',
    });
    const floorListener = vscode.window.onDidChangeVisibleTextEditors((editors) => {
      for (const editor of editors) {
        if (editor.document.uri.scheme === BASELINE_SCHEME && editor.document.uri.path.includes('/floor/before/'))
          editor.setDecorations(floorMark, [new vscode.Range(0, 0, 0, 0)]);
      }
    });

    /** The baseline: VS Code alone, the same example's texts from a plain provider, no decorations (`floor`: one gutter mark). */
    const baseline = async (i: number, id: number, floor = false): Promise<void> => {
      const e = getExample(a.session.corpus!.store, id)!;
      const side = (name: string, text: string) => {
        const uri = vscode.Uri.from({
          scheme: BASELINE_SCHEME,
          path: `/${i}${floor ? '/floor' : ''}/${name}/file${extname(e.path)}`,
        });
        texts.set(uri.path, text);
        return uri;
      };
      const [before, after] = [side('before', e.before), side('after', e.after)];
      await wb.closeEditors(bridge);
      const watch = bridge.watchFrame(floor ? wb.DIFF_READY : wb.DIFF_SIDES_READY);
      await watch.armed;
      const t0 = now();
      await vscode.commands.executeCommand('vscode.diff', before, after, `baseline ${i}`, { preview: true });
      const t1 = now();
      const seenAt = await watch.seen;
      rows(floor ? 'floorDiff' : 'baselineDiff').push({
        example: `${e.id} ${e.path.split('/').pop()}`,
        first: i === 0,
        commandMs: round(t1 - t0),
        domMs: round(seenAt - t0),
      });
    };

    /** Ours: `openItem` until both sides and the comment's gutter mark show; `replacing` leaves the previous diff open. */
    const ours = async (i: number, id: number, replacing?: number, record = true): Promise<void> => {
      if (replacing === undefined) await wb.closeEditors(bridge);
      const textIn =
        replacing === undefined ? undefined : { selector: wb.BEFORE_SIDE_LINE, text: distinctToken(id, replacing) };
      const watch = bridge.watchFrame(wb.DIFF_READY, textIn);
      // Both sides' text, without our decorations: where the extension's own share begins.
      const sides = bridge.watchFrame(wb.DIFF_SIDES_READY, textIn);
      await Promise.all([watch.armed, sides.armed]);
      const stalls = monitorEventLoopDelay({ resolution: 5 });
      stalls.enable();
      const t0 = now();
      const example = await vscode.commands.executeCommand<{ id: number; path: string } | undefined>(
        'reviewCorpus.openItem',
        { exampleId: id },
      );
      const t1 = now();
      assert.equal(example?.id, id, `example ${id} opened`);
      const [seenAt, sidesAt] = await Promise.all([watch.seen, sides.seen]);
      stalls.disable();
      const decorated = await until('the before side decorated', () =>
        decorations.firstFor(`?example=${id}&side=before&`, t0),
      );
      // One read of the example's record, as the command, the documents and the decorations each do.
      const tGet = now();
      getExample(a.session.corpus!.store, id);
      const getExampleMs = now() - tGet;
      if (!record) return;
      rows(replacing === undefined ? 'openDiff' : 'openDiffReplacing').push({
        example: `${id} ${example!.path.split('/').pop()}`,
        first: i === 0,
        commandMs: round(t1 - t0),
        decoratedInHostMs: round(decorated.at - t0),
        decorateCallMs: round(decorated.ms),
        hostNextTaskMs: round((decorated.nextTaskAt ?? NaN) - decorated.at),
        domMs: round(seenAt - t0),
        sidesDomMs: round(sidesAt - t0),
        getExampleMs: round(getExampleMs),
        longestHostStallMs: round(stalls.max / 1e6),
      });
    };

    /** A word of `id`'s before side that `other`'s lacks: tells the two diffs apart in the DOM. */
    const distinctToken = (id: number, other: number): string => {
      const store = a.session.corpus!.store;
      const seen = new Set(getExample(store, other)!.before.match(/[A-Za-z_][A-Za-z0-9_]{5,}/g) ?? []);
      const token = (getExample(store, id)!.before.match(/[A-Za-z_][A-Za-z0-9_]{5,}/g) ?? []).find((w) => !seen.has(w));
      assert.ok(token, `example ${id} has a word example ${other} lacks`);
      return token;
    };

    // These DOM times come from a watcher in the page (one native querySelector per animation frame), not from
    // Playwright's polling, whose selector evaluations compete with the workbench for the renderer's thread.
    figures.diffClock = await bridge.calibrate();
    try {
      // Run 0 of each kind is reported apart: the session's first diff also loads the language and sets up
      // our decorations and threads. The kinds take turns at going first, so none gains from its place.
      for (let i = 0; i <= DIFF_RUNS; i++) {
        const id = items[(i * 17) % items.length].item.id;
        const kinds = [() => baseline(i, id), () => baseline(i, id, true), () => ours(i, id)];
        for (let k = 0; k < kinds.length; k++) await kinds[(i + k) % kinds.length]();
        save();
      }
      // As a researcher goes down a tree group: the next example replaces the open one (a preview diff).
      for (let i = 0; i <= DIFF_RUNS; i++) {
        const previous = items[(i * 17 + 7) % items.length].item.id;
        const id = items[(i * 17 + 8) % items.length].item.id;
        await ours(i, previous, undefined, false); // the set-up; the timed open is the next one
        await ours(i, id, previous);
        save();
      }
    } finally {
      provider.dispose();
      floorListener.dispose();
      floorMark.dispose();
      decorations.restore();
    }
    figures.memory.afterDiffs = memorySnapshot(a);
    await wb.closeEditors(bridge);
    const spare = items[items.length - 1].item.id;
    (figures.profiles as Record<string, unknown>).openDiff = await profileStep(async () => {
      const watch = bridge.waitVisible(wb.DIFF_READY, 30000);
      await watch.armed;
      await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: spare });
      await watch.visible;
    });
    await wb.closeEditors(bridge);
    // The workbench page's side of one diff (the renderer's main thread), for reading, not for a figure.
    // Watched from inside the page, so the profile holds no Playwright polling.
    await bridge.send('cpuProfileStart', {});
    const watch = bridge.watchFrame(wb.DIFF_READY);
    await watch.armed;
    await vscode.commands.executeCommand('reviewCorpus.openItem', { exampleId: items[items.length - 2].item.id });
    await watch.seen;
    figures.rendererProfile = (await bridge.send<string>('cpuProfileStop', { name: 'renderer-open-diff' })).value;
    await wb.closeEditors(bridge);
  });

  it('expands the tree while a rebuild runs in the worker (then cancels the rebuild)', async () => {
    const buildBefore = a.session.corpus!.buildId;
    figures.memory.beforeRebuilds = memorySnapshot(a);
    for (let i = 0; i < RUNS; i++) {
      rows('expandDuringRebuild').push(await expandDuringRebuild(a, bridge));
      save();
      assert.equal(a.session.corpus?.buildId, buildBefore, 'the cancelled rebuild wrote nothing');
    }
  });
  it('labels examples while the saver worker writes the file (the host stays responsive)', async () => {
    await vscode.commands.executeCommand('reviewCorpus.setSalt', 'bench-salt-not-secret'); // the rater pseudonym needs one
    const group = wb.largestGroup(a);
    const items = a.tree.provider.getChildren(group).filter((n): n is ItemNode => n.type === 'item');
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    for (let i = 0; i <= RUNS; i++) {
      const node = items[(i * 13 + 5) % items.length];
      stalls.reset();
      stalls.enable();
      const t0 = now();
      await vscode.commands.executeCommand('reviewCorpus.labelUnsure', node);
      const t1 = now();
      let peakRss = process.memoryUsage().rss;
      await until(
        'the label saved',
        () => {
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
          return !a.session.hasUnsavedChanges || undefined;
        },
        120000,
      );
      const t2 = now();
      stalls.disable();
      // Run 0 starts the saver worker (it reads the file first); later runs find it idle and waiting.
      rows('label').push({
        first: i === 0,
        commandMs: round(t1 - t0),
        savedMs: round(t2 - t0),
        longestStallMs: round(stalls.max / 1e6),
        peakRssMb: Math.round(peakRss / 2 ** 20),
      });
      save();
    }
  });
});
