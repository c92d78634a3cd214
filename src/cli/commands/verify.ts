import { buildStepsProgress, DB_OPTION, type CliCommand } from '../command';
import { CorpusStore } from '../../core/store/corpusStore';
import { verifyReproduce } from '../../core/verify/reproduce';
import { visibleEscapes } from '../../core/text/visibleEscapes';

export const verifyCommand: CliCommand = {
  name: 'verify',
  summary: 'rebuild from the stored records into a scratch copy and check the corpus hash matches',
  options: {
    db: DB_OPTION,
    reproduce: { type: 'boolean', description: 'rebuild and compare the corpus hash with the latest build\'s', required: true },
  },
  holdsWholeCorpus: true,
  async run(values, io) {
    const store = await CorpusStore.open(String(values.db));
    try {
      const r = await verifyReproduce(store, io.signal, buildStepsProgress(io, 'verify, rebuilding'));
      if (r.clean) {
        io.out('clean');
        return 0;
      }
      io.out(`differs: build ${r.buildId} has corpus ${r.expected.slice(0, 12)}, the rebuild ${r.actual.slice(0, 12)}`);
      io.out(`first difference: ${visibleEscapes(r.firstDifference)}`);
      return 1;
    } finally {
      store.close();
    }
  },
};
