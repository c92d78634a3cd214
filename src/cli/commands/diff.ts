import { DB_OPTION, type CliCommand } from '../command';
import { CorpusStore } from '../../core/ground/store/corpusStore';
import { compareBuilds, comparisonReport, reconciliationLine } from '../../core/publish/verify/compareBuilds';
import { buildLabel, checkBuildRef, resolveBuild } from '../../core/publish/versions/tags';
import { visibleEscapes } from '../../core/ground/text/visibleEscapes';
import { printableJson } from '../printable';

export const diffCommand: CliCommand = {
  name: 'diff',
  summary:
    'list the examples that entered (and why), left (and by which rule) and moved between two builds, the kept examples whose text changed, ' +
    'and kept − left + entered per organization and window and in total',
  options: {
    db: DB_OPTION,
    from: { type: 'string', arg: '<id|tag>', description: 'the earlier build: its id or a tag name', required: true },
    to: { type: 'string', arg: '<id|tag>', description: 'the later build: its id or a tag name', required: true },
    verbose: { type: 'boolean', description: 'also list the kept examples whose text changed' },
    json: {
      type: 'boolean',
      description: 'print every list, the per-window reconciliation and the text changes as JSON',
    },
  },
  holdsWholeCorpus: true,
  async run(values, io) {
    checkBuildRef(String(values.from), '--from');
    checkBuildRef(String(values.to), '--to');
    const store = await CorpusStore.open(String(values.db));
    try {
      const from = resolveBuild(store, String(values.from), '--from');
      const to = resolveBuild(store, String(values.to), '--to');
      const c = compareBuilds(store, from, to);
      const names = { from: buildLabel(store, from), to: buildLabel(store, to) };
      if (values.json) {
        io.out(printableJson({ ...c, names, reconciliation: reconciliationLine(c) }));
        return 0;
      }
      const report = comparisonReport(c, names, values.verbose === true);
      // Keys hold host paths; a tab or newline in one shows escaped too, so the columns stay columns.
      for (const row of report.rows) io.out(row.map(visibleEscapes).join('\t'));
      for (const line of report.summary) io.out(visibleEscapes(line));
      return 0;
    } finally {
      store.close();
    }
  },
};
