import { DB_OPTION, type CliCommand } from '../command';
import { CorpusStore } from '../../core/ground/store/corpusStore';
import { requireBuild } from '../../core/review/inspect/groups';
import { funnelTable } from '../../core/publish/export/funnelTable';
import { checkBuildRef, resolveBuild } from '../../core/publish/versions/tags';
import { staleRulesLine, staleRulesVersion } from '../../core/publish/versions/recordedBuild';
import { printableJson, visibleStrings } from '../printable';
import { storedFunnel } from '../../core/build/reports/storedFunnel';

export const funnelCommand: CliCommand = {
  name: 'funnel',
  summary: "print the latest build's funnel: every rule in order, per organization and window",
  options: {
    db: DB_OPTION,
    json: {
      type: 'boolean',
      description: 'print the funnel as JSON, as the build stored it (a count it did not record: null, with why)',
    },
    build: {
      type: 'string',
      arg: '<id|tag>',
      description: "this build's funnel (an id or a tag name) instead of the latest's",
    },
  },
  holdsWholeCorpus: true,
  async run(values, io) {
    if (values.build !== undefined) checkBuildRef(String(values.build), '--build');
    const store = await CorpusStore.open(String(values.db));
    try {
      const buildId =
        values.build !== undefined ? resolveBuild(store, String(values.build), '--build') : requireBuild(store);
      const stale = staleRulesVersion(store, buildId);
      if (stale)
        io.err(
          `review-corpus: note: ${staleRulesLine(store, stale, 'this is the funnel the file recorded, not a rebuild')}`,
        );
      const funnel = storedFunnel(store, buildId);
      // Escaped before the table is laid out, so its columns are measured on what is printed.
      // The build's full corpus hash beside its funnel: what a paper cites (it covers every published byte).
      const corpusHash = store.scalar('SELECT corpus_hash FROM builds WHERE id = ?', [buildId]) ?? null;
      io.out(values.json ? printableJson({ ...funnel, corpus_hash: corpusHash }) : funnelTable(visibleStrings(funnel)));
      return 0;
    } finally {
      store.close();
    }
  },
};
