// What `review-corpus export --format search-replace` costs beside the plain JSONL export:
//   node bench/run.mjs search-replace-export --db <corpus.sqlite> [--runs 3] [--no-jsonl]
// Opens the corpus (builds it in memory first when it has no build; not timed, the file is not saved),
// then per run times exportCorpus (plain JSONL) and exportSearchReplace (whole files rebuilt from the
// stored diffs, blocks, three checks, SHA-256) into a folder in the OS temp folder, removed at the end.
// Prints medians, the export's counts, output sizes and peak RSS as JSON (`--no-jsonl`: the Search/Replace
// export alone, so the peak RSS is its own and the open corpus's).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runBuild } from '../src/core/build/stages/runBuild';
import { storedConfig } from '../src/core/build/stages/loadCorpus';
import { searchReplaceParameters } from '../src/core/rules/ruleParameters';
import { exportCorpus } from '../src/core/publish/export/exportJsonl';
import { exportSearchReplace, type SearchReplaceReport } from '../src/core/publish/export/exportSearchReplace';
import { latestBuildId } from '../src/core/review/inspect/groups';
import { CorpusStore } from '../src/core/ground/store/corpusStore';
import { arg, median } from './benchArgs';

async function main(): Promise<void> {
  const db = arg('db');
  const runs = Number(arg('runs') ?? 3);
  const jsonl = !process.argv.includes('--no-jsonl');
  if (!db || !Number.isInteger(runs) || runs < 1)
    throw new Error('usage: node bench/run.mjs search-replace-export --db <corpus.sqlite> [--runs 3]');
  const store = await CorpusStore.open(db);
  const dir = mkdtempSync(path.join(tmpdir(), 'sr-bench-'));
  const jsonlMs: number[] = [];
  const srMs: number[] = [];
  // CPU time too: on a shared machine the wall time mostly measures the neighbours.
  const srCpuMs: number[] = [];
  let report: SearchReplaceReport | undefined;
  try {
    let builtInMemory = false;
    if (latestBuildId(store) === undefined) {
      console.error('no build in the file: building in memory (not timed)');
      await runBuild(store);
      builtInMemory = true;
    }
    const params = searchReplaceParameters(storedConfig(store));
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      if (jsonl) exportCorpus(store, path.join(dir, 'examples.jsonl'));
      const t1 = performance.now();
      const cpu0 = process.cpuUsage();
      report = exportSearchReplace(store, path.join(dir, 'search-replace.jsonl'), params).report;
      const t2 = performance.now();
      const cpu = process.cpuUsage(cpu0);
      srCpuMs.push((cpu.user + cpu.system) / 1000);
      jsonlMs.push(t1 - t0);
      srMs.push(t2 - t1);
      console.error(
        `run ${i + 1}: ${jsonl ? `jsonl ${Math.round(t1 - t0)} ms, ` : ''}search-replace ${Math.round(t2 - t1)} ms (CPU ${Math.round(srCpuMs[i])} ms)`,
      );
    }
    const s = (ms: number) => Math.round(ms / 10) / 100;
    const { not_exported: _list, ...counts } = report!;
    console.log(
      JSON.stringify(
        {
          db,
          runs,
          loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
          builtInMemory,
          counts,
          medianSeconds: {
            jsonl: jsonl ? s(median(jsonlMs)) : null,
            searchReplace: s(median(srMs)),
            searchReplaceCpu: s(median(srCpuMs)),
          },
          examplesPerSecond: Math.round(report!.examples / (median(srMs) / 1000)),
          outputMB: {
            jsonl: jsonl ? Math.round(statSync(path.join(dir, 'examples.jsonl')).size / 1e5) / 10 : null,
            searchReplace: Math.round(statSync(path.join(dir, 'search-replace.jsonl')).size / 1e5) / 10,
          },
          peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
        },
        null,
        2,
      ),
    );
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: Error) => {
  console.error(e.stack ?? e.message);
  process.exit(1);
});
