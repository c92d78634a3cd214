import { DB_OPTION, type CliCommand } from '../command';
import { UserError } from '../../core/ground/store/errors';
import { searchReplaceSummary } from '../../core/publish/export/exportSearchReplace';
import { loadCorpusConfig } from '../../core/rules/corpusJson/loadConfig';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { visibleEscapes } from '../../core/ground/text/visibleEscapes';
import { checkBuildRef } from '../../core/publish/versions/tags';
import { exportJob, type ExportJob } from '../../core/jobs/jobs';

const FORMATS = ['jsonl', 'search-replace'];

export const exportCommand: CliCommand = {
  name: 'export',
  summary:
    "write the kept examples of the latest build (or --build's, as the file recorded it) as JSONL, with beside it dataset-funnel.json, data/<window>.jsonl per window, " +
    'counts.csv, curation_audit.jsonl and README.md (a Hugging Face dataset card; its license and language from --config, else the stored config); ' +
    '--format search-replace writes verified Search/Replace blocks instead, with search-replace-report.json (its parameters from --config, else the stored config)',
  options: {
    db: DB_OPTION,
    out: {
      type: 'string',
      arg: '<examples.jsonl>',
      description: 'where to write the examples; the other files go beside it',
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
  },
  holdsWholeCorpus: true,
  async run(values, io) {
    const out = String(values.out);
    const format = values.format === undefined ? 'jsonl' : String(values.format);
    if (!FORMATS.includes(format))
      throw new UserError(`export: --format ${format}: must be one of ${FORMATS.join(', ')}`);
    if (!existsSync(path.dirname(path.resolve(out))))
      throw new UserError(`--out ${out}: the folder ${path.dirname(path.resolve(out))} does not exist`);
    if (values.build !== undefined) checkBuildRef(String(values.build), '--build');
    const config = values.config ? loadCorpusConfig(String(values.config)) : undefined;
    const r = await exportJob({
      dbFile: String(values.db),
      out,
      format: format as ExportJob['format'],
      config,
      build: values.build === undefined ? undefined : String(values.build),
    });
    if (r.staleNote) io.err(`review-corpus: note: ${r.staleNote}`);
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
