// Turns the suite's figures.json into the markdown section for BENCHMARKS.md: medians with their range,
// the target, and what each figure includes.

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const ms = (x) => (x === undefined ? 'n/a' : x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${Math.round(x)} ms`);

/** "median (min–max, n runs)" of one field over the rows that have it. */
function stat(rows = [], field) {
  const xs = rows.map((r) => r[field]).filter((x) => typeof x === 'number');
  if (xs.length === 0) return { text: 'n/a' };
  const m = median(xs);
  return { median: m, text: `**${ms(m)}** (${ms(Math.min(...xs))}–${ms(Math.max(...xs))}, n=${xs.length})` };
}

function verdict(s, targetMs) {
  if (s.median === undefined) return '';
  return s.median <= targetMs ? `≤ ${targetMs} ms: met` : `≤ ${targetMs} ms: **missed**`;
}

/** "n of m": the stamps behind the figures that came from the fallback poll. */
function fallbackStamps(f) {
  const all = [
    'openFirstPage',
    'largestFirstPage',
    'baselineDiff',
    'floorDiff',
    'openDiff',
    'openDiffReplacing',
    'expandDuringRebuild',
  ].flatMap((k) => f[k] ?? []);
  const perRow = (r) => (r.window ? 5 : 1);
  return `${all.reduce((n, r) => n + (r.fallbackStamps ?? 0), 0)} of ${all.reduce((n, r) => n + perRow(r), 0)}`;
}

/** The median of (ours − other) over the runs of the diff step (same example, back to back). */
function pairedOverhead(f, other = 'baselineDiff') {
  const ours = (f.openDiff ?? []).filter((r) => !r.first);
  const base = (f[other] ?? []).filter((r) => !r.first);
  const d = ours
    .map((r, i) => r.domMs - (base[i]?.domMs ?? NaN))
    .filter((x) => Number.isFinite(x))
    .sort((x, y) => x - y);
  if (d.length === 0) return 'n/a';
  const m = d.length % 2 ? d[d.length >> 1] : (d[d.length / 2 - 1] + d[d.length / 2]) / 2;
  return `${Math.round(m)} ms (n=${d.length})`;
}

const timed = (what, t) =>
  t?.wallSeconds
    ? `${what} ${t.wallSeconds} s wall, peak RSS ${(t.peakRssKB / 1024 / 1024).toFixed(2)} GB (GNU time)`
    : '';

export function markdownReport(f, { command, dbBytes, packBytes = 0, fileLengths = 'classic', generate, build }) {
  const meta = f.meta ?? {};
  const open = f.openFirstPage ?? [];
  const largest = f.largestFirstPage ?? [];
  const diffs = (f.openDiff ?? []).filter((r) => !r.first);
  const firstDiff = (f.openDiff ?? []).filter((r) => r.first);
  const base = (f.baselineDiff ?? []).filter((r) => !r.first);
  const firstBase = (f.baselineDiff ?? []).filter((r) => r.first);
  const replacing = (f.openDiffReplacing ?? []).filter((r) => !r.first);
  const expand = f.expandDuringRebuild ?? [];
  const mem = f.memory ?? {};
  const lines = [];
  const row = (...cells) => lines.push(`| ${cells.join(' | ')} |`);

  lines.push(
    `## Inspector in the real VS Code (${meta.vscodeVersion ?? '?'}, code-server) on a ${(meta.examples ?? 0).toLocaleString('en-US')}-example corpus`,
    '',
  );
  lines.push(
    `\`${command}\` (about 3 minutes; the first run also generates and builds the corpus into \`.tmp/bench-inspector/\`, 1.5 to 3 minutes more).`,
  );
  lines.push(
    `Corpus: \`bench/generate.ts\` defaults (seed 20261202)${fileLengths === 'classic' ? '' : `, \`--file-lengths ${fileLengths}\``}, built once with the CLI${generate?.wallSeconds || build?.wallSeconds ? ` (${[timed('generated in', generate), timed('built in', build)].filter(Boolean).join('; ')})` : ''}: ${(meta.examples ?? 0).toLocaleString('en-US')} examples in build ${meta.buildId ?? '?'}, ${(meta.kept ?? 0).toLocaleString('en-US')} kept; the file is ${Math.round(dbBytes / 1024 / 1024)} MB${packBytes ? `, its blob pack ${Math.round(packBytes / 1024 / 1024)} MB` : ''}.`,
  );
  lines.push(
    `Machine: ${meta.cpus ?? '?'} cores, load average ${meta.loadavgAtStart?.join(' ') ?? '?'} at the start and ${meta.loadavgAtEnd ?? '?'} at the end (shared with other work); the file was in the page cache (no cache dropping).`,
  );
  lines.push(
    `Each figure: median of ${meta.runs ?? '?'} runs in one code-server session (the diff figures, 2, 2 (baseline), 2 (floor) and 2r: ${meta.diffRuns ?? meta.runs ?? '?'} runs), with (min–max). All times are measured in the extension host with \`performance.now()\`. "DOM" figures end when the element was seen visible on the workbench page (see "How the DOM is timed").`,
    '',
  );

  const o = {
    open: stat(open, 'openCommandMs'),
    openStall: stat(open, 'openLongestStallMs'),
    page: stat(open, 'firstPageDomMs'),
    total: stat(open, 'totalDomMs'),
    groups: stat(open, 'treeGroupsMs'),
    list: stat(open, 'listItemsMs'),
    provider: stat(open, 'providerMs'),
  };
  const l = {
    page: stat(largest, 'firstPageDomMs'),
    list: stat(largest, 'listItemsMs'),
    groups: stat(largest, 'treeGroupsMs'),
  };
  const d = {
    dom: stat(diffs, 'domMs'),
    cmd: stat(diffs, 'commandMs'),
    deco: stat(diffs, 'decoratedInHostMs'),
    call: stat(diffs, 'decorateCallMs'),
  };
  const e = {
    win: stat(expand, 'windowChildrenDomMs'),
    pick: stat(expand, 'windowChildrenFromPickupMs'),
    prov: stat(expand, 'providerWindowMs'),
    group: stat(expand, 'groupFirstPageDomMs'),
    list: stat(expand, 'groupListItemsMs'),
    click: stat(expand, 'clickOpMs'),
  };
  const getEx = stat(diffs, 'getExampleMs');

  row('figure', 'median (min–max)', 'target', 'what it includes');
  row('---', '---', '---', '---');
  row(
    '1a. open corpus',
    o.open.text,
    '',
    `\`reviewCorpus.openCorpus\` on the corpus.json, until the command resolves: open the .sqlite as the extension does (paged: SQLite reads pages from the file as it needs them; on Windows the whole file is read into memory), find the latest build, announce the change (the tree refreshes). Longest stall of the host's event loop meanwhile: ${o.openStall.text}.`,
  );
  row(
    '1b. tree first page, first group',
    o.page.text,
    verdict(o.page, 300),
    `From 1a's end until an item row of the first group (${open[0]?.group ?? '?'}) is visible: the tree's group counts (read from the build's recorded funnel: ${o.groups.text}), \`TreeView.reveal(group, {expand})\`, the first page (${o.list.text} in \`getChildren(group)\`), rendering. Provider total ${o.provider.text}.`,
  );
  row('1c. open corpus → first item row', o.total.text, '', '1a + 1b, as a user sees it.');
  row(
    '1d. tree first page, largest group',
    l.page.text,
    verdict(l.page, 300),
    `Corpus already open, provider cache cleared (\`refresh()\`), tree collapsed; the largest examples group (${largest[0]?.group ?? '?'}). Group counts ${l.groups.text}; first page ${l.list.text}.`,
  );
  row(
    '2. open an example diff with decorations',
    d.dom.text,
    verdict(d.dom, 250),
    `\`reviewCorpus.openItem {exampleId}\` with every editor closed first (on the same example as the baseline and the floor below, the three taking turns at going first), until the first frame that shows both sides and the comment's gutter mark (\`.editor.original [class*="cgmr"]\`), seen by a watcher in the page (one native \`querySelector\` per animation frame, page clock aligned with the host's to ${meta.diffClockErrorMs ?? f.diffClock?.errorMs?.toFixed?.(1) ?? '?'} ms). In the host: the command resolves after ${d.cmd.text}; the decorations are applied ${d.deco.text} after the start (the decorate call itself ${d.call.text}); one \`getExample\` read of the record takes ${getEx.text}; the longest stall of the host's event loop during the open: ${stat(diffs, 'longestHostStallMs').text}. Different example each run; the first example diff of the session is left out: ${firstDiff.map((r) => ms(r.domMs)).join(', ') || 'n/a'}.`,
  );
  const bd = { dom: stat(base, 'domMs'), cmd: stat(base, 'commandMs') };
  row(
    '2 (baseline). VS Code alone: a diff of the same kind of texts',
    bd.dom.text,
    '',
    `Control for 2: \`vscode.diff\` of an example's before/after texts (same suffix, so the same language) served by a plain content provider registered by the benchmark, no decorations, no threads, until the first frame that shows both sides (the same watcher). Paired with 2: the same example, one after the other, alternating which goes first; the median of the paired differences (2 minus this) is ${pairedOverhead(f)}. The command resolves after ${bd.cmd.text}. The session's first diff (it loads the language): ${firstBase.map((r) => ms(r.domMs)).join(', ') || 'n/a'}. The difference between 2 and this is the extension's own cost.`,
  );
  const floor = (f.floorDiff ?? []).filter((r) => !r.first);
  if (floor.length)
    row(
      "2 (floor). VS Code's diff plus one bare gutter mark",
      stat(floor, 'domMs').text,
      '',
      `The least any extension's decorations can cost: the baseline's diff, plus one gutter mark (the same icon) set on line 1 by a bare \`onDidChangeVisibleTextEditors\` listener of the benchmark, until the first frame that shows it (the same selector as 2). The three kinds take turns at going first, on the same example. 2 minus this, paired: ${pairedOverhead(f, 'floorDiff')}; this minus the baseline, paired: the cost of any decoration at all. In 2, both sides' text showed after ${stat(diffs, 'sidesDomMs').text}, the gutter mark a frame or more later.`,
    );
  const rp = {
    dom: stat(replacing, 'domMs'),
    cmd: stat(replacing, 'commandMs'),
    deco: stat(replacing, 'decoratedInHostMs'),
  };
  row(
    '2r. open the next example while one is open',
    rp.dom.text,
    verdict(rp.dom, 250),
    `As when going down a tree group (clicking the next item, or Alt+.): \`reviewCorpus.openItem\` while another example's diff is open as the preview, which the new diff replaces; until the new example's before side is rendered (a word only it holds) with its gutter mark. The command resolves after ${rp.cmd.text}; decorations applied ${rp.deco.text} after the start.`,
  );
  row(
    '3a. expand a window during a rebuild (click)',
    e.win.text,
    verdict(e.win, 500),
    `A rebuild (job process) started and its toast showing progress ("stage: n/total", ${stat(expand, 'rebuildProgressAfterMs').text} after the command); then a mouse click on a collapsed window's twistie (${expand[0]?.window ?? '?'}), until its group rows are visible. Measured from the click's mouse-up or from the host hearing of the expansion, whichever came first (so it leaves out the renderer-to-host hop when the host heard first). Upper bound, from the runner taking the click request: ${e.pick.text}, of which Playwright's click (actionability waits, then the mouse) took ${e.click.text}. Provider time ${e.prov.text} (the counts were read with the roots). The rebuild was still running at the end in ${expand.filter((r) => r.rebuildStillRunning).length} of ${expand.length} runs.`,
  );
  row(
    '3b. expand its Kept group during the rebuild (keyboard)',
    e.group.text,
    verdict(e.group, 500),
    `Same rebuild: the window's "Kept (n)" row focused, then ArrowRight pressed (the runner taking the request is the key press, to a few ms), until its first item row is visible. Includes the first page query on the main thread while the job process builds: ${e.list.text} in \`getChildren(group)\`.`,
  );
  const labels = (f.label ?? []).filter((r) => !r.first);
  const firstLabel = (f.label ?? []).find((r) => r.first);
  const lb = { cmd: stat(labels, 'commandMs'), saved: stat(labels, 'savedMs'), stall: stat(labels, 'longestStallMs') };
  row(
    '4. label an example (Ctrl+Alt+3 on a tree item)',
    lb.cmd.text,
    '',
    `\`reviewCorpus.labelUnsure\` until the command resolves: the label is in the open copy and shown. The saver process then applies it to its own copy and saves the whole file atomically: in the file after ${lb.saved.text}. Longest stall of the host's event loop from the command to the label being in the file: ${lb.stall.text}. Host rss up to ${Math.max(0, ...labels.map((r) => r.peakRssMb))} MB meanwhile. The first label starts the saver (it reads the file first): in the file after ${firstLabel ? ms(firstLabel.savedMs) : 'n/a'}, command ${firstLabel ? ms(firstLabel.commandMs) : 'n/a'}, longest stall ${firstLabel ? ms(firstLabel.longestStallMs) : 'n/a'}.`,
  );
  lines.push('');

  lines.push(
    'Extension host memory (`process.memoryUsage()` in the host; the sql.js database is held in JavaScript memory, so it shows in `arrayBuffers`/`external` and rss, not in the V8 heap):',
    '',
  );
  row(
    'when',
    'rss',
    'heapUsed',
    'external',
    'arrayBuffers',
    'sql.js database (page_count × page_size)',
    'peak rss so far',
    'OS threads',
  );
  row('---', '---', '---', '---', '---', '---', '---', '---');
  const memRow = (label, m) =>
    m &&
    row(
      label,
      `${m.rssMb} MB`,
      `${m.heapUsedMb} MB`,
      `${m.externalMb} MB`,
      `${m.arrayBuffersMb} MB`,
      m.dbMb === undefined ? '' : `${m.dbMb} MB (file ${m.fileMb} MB)`,
      `${m.maxRssMb} MB`,
      m.threads ?? '',
    );
  memRow('before opening the corpus', mem.beforeOpen);
  memRow(`corpus open (after ${open.length} opens)`, mem.afterOpen);
  memRow('… then after a forced full GC', mem.afterOpenAfterGc);
  memRow('after the diff runs', mem.afterDiffs);
  memRow('just before the rebuild runs', mem.beforeRebuilds);
  memRow('at the end (after the rebuilds)', mem.atEnd);
  memRow('… then after a forced full GC', mem.atEndAfterGc);
  const during = expand.map((r) => r.rssMbDuringRebuild).filter((x) => typeof x === 'number');
  if (during.length)
    lines.push(
      '',
      `During a rebuild the host's rss (the job runs in its own process) was ${Math.min(...during)}–${Math.max(...during)} MB when the tree was expanded.`,
    );
  const cancel = stat(expand, 'cancelToReloadedMs');
  if (expand.length)
    lines.push(
      `Each rebuild was then cancelled from its toast (so the file keeps one build); cancel to corpus reloaded: ${cancel.text}. The host's OS threads after each cancel: ${expand.map((r) => r.threadsAfterCancel).join(', ')}.`,
    );
  lines.push('');

  const profiles = f.profiles ?? {};
  const hot = (p) => (p?.ours ?? []).map((h) => `\`${h.fn}\` ${ms(h.ms)}`).join(', ');
  const selfHot = (p) =>
    (p?.self ?? [])
      .slice(0, 5)
      .map((h) => `\`${h.fn}\` ${ms(h.ms)}`)
      .join(', ');
  if (profiles.openFirstPage || profiles.openDiff) {
    lines.push("### Where the extension host's main thread spends the time", '');
    lines.push(
      'One extra, untimed run of each step under the V8 CPU profiler in the host (`node:inspector`, 250 µs sampling). Our functions (from `dist/extension.js`) by inclusive time, then the top self time:',
      '',
    );
    const p1 = profiles.openFirstPage;
    const p2 = profiles.openDiff;
    if (p1)
      lines.push(
        `- open corpus + first page (${ms(p1.wallMs)} wall, ${ms(p1.sampledMs)} busy): ${hot(p1)}. Self: ${selfHot(p1)}.`,
      );
    if (p2)
      lines.push(`- open a diff (${ms(p2.wallMs)} wall, ${ms(p2.sampledMs)} busy): ${hot(p2)}. Self: ${selfHot(p2)}.`);
    lines.push('');
  }

  const b = f.bridge ?? [];
  lines.push("### How the DOM is timed, and the bridge's own overhead", '');
  lines.push(
    `Tests in the extension host reach the page through the file bridge (\`test/integration/bridge.ts\`): the host writes a request file, the runner polls for it every 50 ms and answers with Playwright, and the host polls for the answer every 50 ms. A trivial \`dom.count('body')\` through it takes ${stat(b, 'normalCountMs').text}, and its \`waitFor\` backs off to 500 ms polls, so it is not used for timing. The benchmark uses its own client of the same protocol (\`bench/inspector/suite/timedDom.ts\`): pick-up and answer times come from inotify events on the bridge folder (the runner took a request ${stat(b, 'timedPickupMs').text} after it was written; a \`count\` op then took ${stat(b, 'timedCountOpMs').text}), and a DOM wait keeps overlapping short \`waitFor\`s in flight (Playwright then polls every 20 ms). A wait for an element that is already visible answers ${stat(b, 'waitVisibleFloorMs').text} after the runner takes it: DOM figures can be late by about that much, and are never early (but for the few ms of a fallback mtime, below). When the host's event loop is busy as an inotify event arrives, a 25 ms fallback poll can see the file first: an answer then takes its file's mtime (the kernel's coarse clock, a few ms early), a pick-up the poll's time (up to 25 ms late). Over the whole session that happened to ${meta.fallbackPickups ?? '?'} pick-ups and ${meta.fallbackAnswers ?? '?'} answers (most of them stray waitFor requests of a DOM wait, which time nothing); among the time stamps the figures above rest on, ${fallbackStamps(f)}.`,
  );
  lines.push('');
  return `${lines.join('\n')}\n`;
}
