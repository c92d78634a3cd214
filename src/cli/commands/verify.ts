import type { CliCommand } from '../command';
import { CorpusStore } from '../../core/store/corpusStore';
import { UserError } from '../../core/store/errors';
import { verifyReproduce } from '../../core/verify/reproduce';
import { visibleEscapes } from '../../core/text/visibleEscapes';

export const verifyCommand: CliCommand = {
  name: 'verify',
  summary: 'rebuild from the stored records into a scratch copy and check the corpus hash matches',
  usage: 'verify --db <file> --reproduce',
  options: { db: { type: 'string' }, reproduce: { type: 'boolean' } },
  required: ['db'],
  holdsWholeCorpus: true,
  async run(values, io) {
    if (!values.reproduce) throw new UserError('verify: say what to verify: --reproduce');
    const store = await CorpusStore.open(String(values.db));
    try {
      const r = await verifyReproduce(store, io.signal);
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
