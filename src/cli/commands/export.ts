import { DB_OPTION, type CliCommand } from '../command';
import { UserError } from '../../core/ground/store/errors';
import { searchReplaceSummary } from '../../core/publish/export/exportSearchReplace';
import { loadCorpusConfig } from '../../core/rules/corpusJson/loadConfig';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { visibleEscapes } from '../../core/ground/text/visibleEscapes';
import { checkBuildRef } from '../../core/publish/versions/tags';
import { EXPORT_FORMATS, exportJob, hubSummary, type ExportFormat } from '../../core/jobs/jobs';
import { DEFAULT_SHARD_MB } from '../../core/publish/export/hub/exportHub';

const FORMATS: readonly string[] = EXPORT_FORMATS;

export const exportCommand: CliCommand = {
  name: 'export',
  summary:
    "write the kept examples of the latest build (or --build's, as the file recorded it) as JSONL, with beside it dataset-funnel.json, data/<split>.jsonl per window, " +
    'counts.csv, curation_audit.jsonl and README.md (a Hugging Face dataset card; its license and language from --config, else the stored config); ' +
    '--format search-replace writes verified Search/Replace blocks instead, with search-replace-report.json (its parameters from --config, else the stored config)',
  options: {
    db: DB_OPTION,
    out: {
      type: 'string',
      arg: '<examples.jsonl|DIR>',
      description:
        'where to write the examples; the other files go beside it (--format hub: the folder to write, made if missing)',
      required: true,
    },
    format: { type: 'string', arg: FORMATS.join('|'), description: `what to write (default ${FORMATS[0]})` },
    build: {
      type: 'string',
      arg: '<id|tag>',
      description: 'export this build (an id or a tag name) as the file recorded it, instead of the latest',
    },
    config: {
      type: 'string',
      arg: '<corpus.json>',
      description:
        "the dataset card's license and language, and the Search/Replace parameters, from this config instead of the stored one",
    },
    'shard-size': {
      type: 'string',
      arg: '<MB>',
      description: `--format hub: the most MB (10^6 bytes) one Parquet shard holds (default ${DEFAULT_SHARD_MB})`,
    },
  },
  holdsWholeCorpus: true,
  async run(values, io) {
    const out = String(values.out);
    const format = values.format === undefined ? 'jsonl' : String(values.format);
    if (!FORMATS.includes(format))
      throw new UserError(`export: --format ${format}: must be one of ${FORMATS.join(', ')}`);
    if (!existsSync(path.dirname(path.resolve(out))))
      throw new UserError(`--out ${out}: the folder ${path.dirname(path.resolve(out))} does not exist`);
    const shardSizeMb = values['shard-size'] === undefined ? undefined : Number(values['shard-size']);
    if (shardSizeMb !== undefined && format !== 'hub')
      throw new UserError('export: --shard-size is for --format hub only');
    if (shardSizeMb !== undefined && !(Number.isFinite(shardSizeMb) && shardSizeMb >= 0.01 && shardSizeMb <= 1e6))
      throw new UserError(
        `export: --shard-size ${String(values['shard-size'])}: must be a number of MB from 0.01 to 1000000`,
      );
    if (format === 'hub' && existsSync(out) && !statSync(out).isDirectory())
      throw new UserError(`--out ${out}: --format hub writes a folder, and this is a file`);
    if (values.build !== undefined) checkBuildRef(String(values.build), '--build');
    const config = values.config ? loadCorpusConfig(String(values.config)) : undefined;
    const r = await exportJob({
      dbFile: String(values.db),
      out,
      format: format as ExportFormat,
      config,
      build: values.build === undefined ? undefined : String(values.build),
      shardSizeMb,
    });
    if (r.staleNote) io.err(`review-corpus: note: ${r.staleNote}`);
    if (r.format === 'hub') {
      for (const w of r.written.warnings) io.err(`review-corpus: warning: ${w}`);
      io.out(`wrote ${visibleEscapes(out)}: ${hubSummary({ ...r.written, warnings: [] })}:`);
      for (const f of r.written.files) io.out(`  ${visibleEscapes(f)}`);
      return 0;
    }
    if (r.format === 'search-replace') {
      const { report, reportFile, funnelFile } = r.written;
      io.out(
        `wrote ${report.exported} Search/Replace examples to ${out}, the report to ${reportFile} and the funnel to ${funnelFile}`,
      );
      io.out(searchReplaceSummary(report));
      return 0;
    }
    for (const w of r.written.warnings) io.err(`review-corpus: warning: ${w}`);
    io.out(
      `wrote ${r.written.examples} examples and, beside them, the dataset card (${r.written.splits.filter((x) => x.examples > 0).length} splits, one per window):`,
    );
    for (const f of r.written.files) io.out(`  ${visibleEscapes(f)}`);
    return 0;
  },
};
