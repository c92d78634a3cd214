// Writes the kept examples of the latest build as JSONL, and beside it dataset-funnel.json and the
// files that publish it (publish.ts).
import path from 'node:path';
import { saveAtomically, saveLinesAtomically } from '../../ground/store/atomicSave';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { requireBuild } from '../../review/inspect/groups';
import { requireRecordedExamples } from '../versions/recordedBuild';
import { UserError } from '../../ground/store/errors';
import { buildRecordLines } from '../../build/records/buildRecords';
import { storedFunnel } from '../../build/reports/storedFunnel';
import { AUDIT_FILE, CARD_FILE, COUNTS_FILE, writePublishables, type PublishOptions, type Published } from './publish';

export const FUNNEL_FILE = 'dataset-funnel.json';

/**
 * Writes `out` (JSONL, every kept example) and beside it dataset-funnel.json, the split files,
 * counts.csv, curation_audit.jsonl and README.md (publish.ts), each atomically. The CLI and the
 * extension's Export… both call this.
 */
export function exportCorpus(
  store: CorpusStore,
  out: string,
  opts: PublishOptions = {},
  build?: number,
): { examples: number; funnelFile: string } & Published {
  const name = path.basename(out);
  if ([FUNNEL_FILE, COUNTS_FILE, AUDIT_FILE, CARD_FILE].includes(name))
    throw new UserError(
      `--out ${out}: export writes its own ${name} beside the examples; name the examples file otherwise`,
    );
  // A named build (export --build v3) writes what the file recorded for it (versions/recordedBuild.ts).
  const buildId = build === undefined ? requireBuild(store) : requireRecordedExamples(store, build);
  // The records the build stored (what its corpus hash covers), not a fresh read of today's records.
  const examples = buildRecordLines(store, buildId);
  // Line by line: a large build's export is more text than one string can hold.
  saveLinesAtomically(
    out,
    examples.map((e) => e.line),
  );
  const dir = path.dirname(path.resolve(out));
  const funnelFile = writeFunnel(store, buildId, dir);
  const published = writePublishables(store, buildId, dir, name, examples, opts);
  return { examples: examples.length, funnelFile, ...published, files: [out, funnelFile, ...published.files] };
}

/** Writes the build's funnel (storedFunnel: whole) as dataset-funnel.json in `dir`, atomically; returns its path. */
export function writeFunnel(store: CorpusStore, buildId: number, dir: string): string {
  const funnelFile = path.join(dir, FUNNEL_FILE);
  saveAtomically(funnelFile, Buffer.from(JSON.stringify(storedFunnel(store, buildId), null, 2) + '\n', 'utf8'));
  return funnelFile;
}
